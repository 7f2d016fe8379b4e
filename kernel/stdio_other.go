//go:build !linux

package kernel

import (
	"errors"
	"os"
)

// redirect is implemented for Linux only; elsewhere the kernel captures
// what interpreted code prints but not native writes to the descriptors.
func redirect(fd int) (r, orig *os.File, err error) {
	return nil, nil, errors.New("descriptor redirection is implemented on Linux only")
}
