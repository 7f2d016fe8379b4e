package kernel

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// newTestPump returns a pump over a fresh pipe (never fds 1 or 2) and a
// function returning what it has emitted so far.
func newTestPump(t *testing.T) (*pump, func() string) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close(); r.Close() })
	var mu sync.Mutex
	var got strings.Builder
	p := &pump{name: "stdout", r: r, w: w, marks: make(chan struct{}, 1), emit: func(_, text string) {
		mu.Lock()
		got.WriteString(text)
		mu.Unlock()
	}}
	return p, func() string { mu.Lock(); defer mu.Unlock(); return got.String() }
}

func TestForwardHoldsBackPartials(t *testing.T) {
	p, got := newTestPump(t)
	euro := "€" // three bytes
	rest := p.forward([]byte("ab" + euro[:2]))
	if got() != "ab" || string(rest) != euro[:2] {
		t.Errorf("emitted %q, kept %q", got(), rest)
	}
	rest = p.forward(append(rest, append([]byte(euro[2:]), sentinel[:5]...)...))
	if got() != "ab"+euro || string(rest) != string(sentinel[:5]) {
		t.Errorf("emitted %q, kept %q", got(), rest)
	}
	rest = p.forward(append(rest, append(sentinel[5:], 'z')...))
	if got() != "ab"+euro+"z" || len(rest) != 0 || len(p.marks) != 1 {
		t.Errorf("emitted %q, kept %q, marks %d", got(), rest, len(p.marks))
	}
}

func TestFlushWaitsForEarlierOutput(t *testing.T) {
	p, got := newTestPump(t)
	go p.run()
	f := flusher{pumps: []*pump{p}}
	for i := range 50 {
		p.w.WriteString(strings.Repeat("x", i))
	}
	start := time.Now()
	f.flush()
	if want := 49 * 50 / 2; len(got()) != want {
		t.Errorf("after flush %d bytes emitted, want %d", len(got()), want)
	}
	if strings.Contains(got(), "\x00") {
		t.Error("the sentinel leaked into the output")
	}
	if time.Since(start) > flushTimeout/2 {
		t.Errorf("flush took %v", time.Since(start))
	}
}

func TestInstallSpec(t *testing.T) {
	dir := t.TempDir()
	path, err := Install(NewSpec("/opt/gdlab"), filepath.Join(dir, "share", "jupyter", "kernels"), DefaultName)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var spec map[string]any
	if err := json.Unmarshal(raw, &spec); err != nil {
		t.Fatal(err)
	}
	argv, _ := json.Marshal(spec["argv"])
	if string(argv) != `["/opt/gdlab","kernel","--connection-file","{connection_file}"]` ||
		spec["display_name"] != "Go (gdlab)" || spec["language"] != "go" || spec["interrupt_mode"] != "message" {
		t.Errorf("kernel.json = %s", raw)
	}
}

func TestEndpoint(t *testing.T) {
	c := Connection{Transport: "tcp", IP: "127.0.0.1"}
	if got := c.endpoint(5555); got != "tcp://127.0.0.1:5555" {
		t.Errorf("endpoint = %s", got)
	}
}
