package sweep

import (
	"fmt"
	"os"
	"testing"
)

// TestMain runs the package's tests with a temporary directory of their
// own as TMPDIR, removed when they end. In loopback mode Beam's universal
// runner (runnerlib.Execute) creates an empty "beamloopbackworker-*" file in
// os.TempDir() for every pipeline and never removes it; the tests run
// several pipelines.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "gdlab-sweep-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("TMPDIR", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}
