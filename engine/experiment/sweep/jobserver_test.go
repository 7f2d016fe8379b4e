package sweep

import (
	"context"
	"fmt"
	"net"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestJobServerAgrees builds Beam's Prism job server, starts it as its own
// process on loopback, submits the small sweep to it with the universal
// runner (the workers loop back into this process) and compares the table
// with the local runner's, seconds aside, byte for byte.
func TestJobServerAgrees(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and starts a job server")
	}
	bin := filepath.Join(t.TempDir(), "prism")
	build := exec.Command("go", "build", "-o", bin, "github.com/apache/beam/sdks/v2/go/cmd/prism")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the job server: %v\n%s", err, out)
	}
	port := freePort(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	server := exec.CommandContext(ctx, bin, fmt.Sprintf("--job_port=%d", port), "--serve_http=false", "--log_level=warn")
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cancel(); server.Wait() }()
	endpoint := fmt.Sprintf("localhost:%d", port)
	waitListening(t, endpoint)

	local, err := Run(ctx, smallSpec(), Options{Runner: RunnerLocal})
	if err != nil {
		t.Fatal(err)
	}
	remote, err := Run(ctx, smallSpec(), Options{Runner: RunnerUniversal, Endpoint: endpoint})
	if err != nil {
		t.Fatal(err)
	}
	if a, b := csvOf(t, local, false), csvOf(t, remote, false); a != b {
		t.Errorf("the tables differ:\nlocal:\n%s\njob server:\n%s", a, b)
	}
}

func freePort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func waitListening(t *testing.T, addr string) {
	t.Helper()
	for end := time.Now().Add(30 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			return
		}
	}
	t.Fatalf("the job server did not listen on %s", addr)
}
