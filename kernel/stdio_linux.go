package kernel

import (
	"fmt"
	"os"
	"syscall"
)

// redirect points descriptor fd at a new pipe and returns the pipe's read
// end and a file for the descriptor's original destination, where the
// kernel's own log goes.
func redirect(fd int) (r, orig *os.File, err error) {
	saved, err := syscall.Dup(fd)
	if err != nil {
		return nil, nil, err
	}
	r, w, err := os.Pipe()
	if err != nil {
		syscall.Close(saved)
		return nil, nil, err
	}
	defer w.Close() // fd keeps the write end open
	if err := syscall.Dup3(int(w.Fd()), fd, 0); err != nil {
		r.Close()
		syscall.Close(saved)
		return nil, nil, err
	}
	return r, os.NewFile(uintptr(saved), fmt.Sprintf("original-fd%d", fd)), nil
}
