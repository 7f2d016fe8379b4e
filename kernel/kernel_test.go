package kernel

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"

	"gdlab/kernel/wire"
)

// These tests run the real gdlab binary as a subprocess, as Jupyter does,
// and talk to it over ZeroMQ; none of them touches this process's file
// descriptors. The Python suites in testdata cover the rest with Jupyter's
// own client.

var (
	buildOnce sync.Once
	binary    string
	buildErr  error
)

// gdlabBinary builds cmd/gdlab once per test run.
func gdlabBinary(tb testing.TB) string {
	tb.Helper()
	if testing.Short() {
		tb.Skip("builds and starts the gdlab binary; skipped in -short mode")
	}
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "gdlab-kernel-test")
		if err != nil {
			buildErr = err
			return
		}
		binary = filepath.Join(dir, "gdlab")
		out, err := exec.Command("go", "build", "-o", binary, "gdlab/cmd/gdlab").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if buildErr != nil {
		tb.Fatal(buildErr)
	}
	return binary
}

// client is a minimal Jupyter client: a shell dealer, an iopub subscriber
// and a heartbeat requester, over a kernel process it owns.
type client struct {
	tb     testing.TB
	cmd    *exec.Cmd
	signer wire.Signer
	conn   Connection
	shell  zmq4.Socket
	iopub  zmq4.Socket
	cancel context.CancelFunc
	// One reader per socket feeds these, so that a timed-out wait leaves
	// no goroutine behind to steal a later message.
	shellIn, iopubIn chan wire.Message
}

func freePorts(tb testing.TB, n int) []int {
	ports := make([]int, n)
	for i := range ports {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			tb.Fatal(err)
		}
		defer l.Close()
		ports[i] = l.Addr().(*net.TCPAddr).Port
	}
	return ports
}

// startKernel starts a kernel and connects to it; it returns once the
// shell socket is connected, before the kernel has answered anything.
func startKernel(tb testing.TB) *client {
	tb.Helper()
	bin := gdlabBinary(tb)
	p := freePorts(tb, 5)
	conn := Connection{Transport: "tcp", IP: "127.0.0.1", ShellPort: p[0], ControlPort: p[1], IOPubPort: p[2],
		StdinPort: p[3], HBPort: p[4], Key: wire.NewID(), SignatureScheme: wire.SchemeSHA256}
	raw, _ := json.Marshal(conn)
	file := filepath.Join(tb.TempDir(), "connection.json")
	if err := os.WriteFile(file, raw, 0o600); err != nil {
		tb.Fatal(err)
	}
	cmd := exec.Command(bin, "kernel", "--connection-file", file)
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	signer, _ := wire.NewSigner(conn.SignatureScheme, conn.Key)
	c := &client{tb: tb, cmd: cmd, signer: signer, conn: conn, cancel: cancel}
	retry := []zmq4.Option{zmq4.WithDialerRetry(2 * time.Millisecond), zmq4.WithDialerMaxRetries(5000)}
	c.shell = zmq4.NewDealer(ctx, retry...)
	c.iopub = zmq4.NewSub(ctx, retry...)
	if err := c.shell.Dial(conn.endpoint(conn.ShellPort)); err != nil {
		c.close()
		tb.Fatal(err)
	}
	if err := c.iopub.Dial(conn.endpoint(conn.IOPubPort)); err != nil {
		c.close()
		tb.Fatal(err)
	}
	c.iopub.SetOption(zmq4.OptionSubscribe, "")
	c.shellIn, c.iopubIn = c.read(c.shell), c.read(c.iopub)
	tb.Cleanup(c.close)
	return c
}

// read decodes what sock receives until it is closed.
func (c *client) read(sock zmq4.Socket) chan wire.Message {
	out := make(chan wire.Message, 256)
	go func() {
		defer close(out)
		for {
			raw, err := sock.Recv()
			if err != nil {
				return
			}
			if m, err := wire.Decode(raw.Frames, c.signer); err == nil {
				out <- m
			}
		}
	}()
	return out
}

func (c *client) close() {
	c.cancel()
	c.shell.Close()
	c.iopub.Close()
	if c.cmd.Process != nil {
		c.cmd.Process.Kill()
		c.cmd.Wait()
	}
}

// send signs and sends a request on shell and returns its header.
func (c *client) send(t wire.MsgType, content any, s wire.Signer) wire.Message {
	m, err := wire.NewMessage(wire.Message{Header: wire.Header{Session: "test", Username: "test"}}, t, content)
	if err != nil {
		c.tb.Fatal(err)
	}
	frames, err := wire.Encode(m, s)
	if err != nil {
		c.tb.Fatal(err)
	}
	if err := c.shell.SendMulti(zmq4.NewMsgFrom(frames...)); err != nil {
		c.tb.Fatal(err)
	}
	return m
}

var errTimeout = errors.New("timed out")

// recv returns the next message from in whose parent is req, within d.
func (c *client) recv(in <-chan wire.Message, req wire.Message, d time.Duration) (wire.Message, error) {
	deadline := time.After(d)
	for {
		select {
		case m, ok := <-in:
			if !ok {
				return wire.Message{}, errors.New("socket closed")
			}
			if m.ParentHeader.MsgID == req.Header.MsgID {
				return m, nil
			}
		case <-deadline:
			return wire.Message{}, errTimeout
		}
	}
}

// execute runs code and waits for its reply and its idle status.
func (c *client) execute(code string) (reply map[string]any) {
	req := c.send(wire.ExecuteRequest, map[string]any{"code": code, "silent": false}, c.signer)
	m, err := c.recv(c.shellIn, req, 10*time.Second)
	if err != nil {
		c.tb.Fatalf("execute %q: %v", code, err)
	}
	json.Unmarshal(m.Content, &reply)
	for {
		st, err := c.recv(c.iopubIn, req, 10*time.Second)
		if err != nil {
			c.tb.Fatalf("execute %q: waiting for idle: %v", code, err)
		}
		var s statusContent
		if st.Header.MsgType == wire.Status && json.Unmarshal(st.Content, &s) == nil && s.ExecutionState == "idle" {
			return reply
		}
	}
}

func (c *client) kernelInfo(d time.Duration) (map[string]any, error) {
	req := c.send(wire.KernelInfoRequest, struct{}{}, c.signer)
	m, err := c.recv(c.shellIn, req, d)
	if err != nil {
		return nil, err
	}
	var info map[string]any
	return info, json.Unmarshal(m.Content, &info)
}

func TestKernelInfo(t *testing.T) {
	c := startKernel(t)
	info, err := c.kernelInfo(10 * time.Second)
	if err != nil {
		t.Fatal(err)
	}
	lang := info["language_info"].(map[string]any)
	if info["protocol_version"] != "5.3" || info["implementation"] != "gdlab" || lang["name"] != "go" ||
		lang["file_extension"] != ".go" || lang["mimetype"] != "text/x-go" {
		t.Errorf("kernel_info_reply = %v", info)
	}
}

func TestForgedMessageDropped(t *testing.T) {
	c := startKernel(t)
	if _, err := c.kernelInfo(10 * time.Second); err != nil {
		t.Fatal(err)
	}
	forger, _ := wire.NewSigner(wire.SchemeSHA256, "wrong key")
	req := c.send(wire.ExecuteRequest, map[string]any{"code": "forged := 1"}, forger)
	if _, err := c.recv(c.shellIn, req, time.Second); !errors.Is(err, errTimeout) {
		t.Fatalf("forged request answered: %v", err)
	}
	if r := c.execute("forged"); r["status"] != "error" {
		t.Errorf("forged code ran: %v", r)
	}
}

func TestExecuteRoundTrip(t *testing.T) {
	c := startKernel(t)
	if r := c.execute("x := 20"); r["status"] != "ok" {
		t.Fatalf("reply %v", r)
	}
	r := c.execute("x*2 + 2")
	if r["status"] != "ok" || r["execution_count"] != 2.0 {
		t.Errorf("reply %v", r)
	}
}

// BenchmarkStartup measures a kernel's start: process launch to
// kernel_info_reply, as a notebook waits for it.
func BenchmarkStartup(b *testing.B) {
	gdlabBinary(b)
	var times []time.Duration
	for b.Loop() {
		start := time.Now()
		c := startKernel(b)
		if _, err := c.kernelInfo(20 * time.Second); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(start))
		c.close()
	}
	reportMedian(b, times)
}

// BenchmarkTrivialCell measures the round trip of a cell that does almost
// nothing: execute_request to execute_reply and idle status.
func BenchmarkTrivialCell(b *testing.B) {
	c := startKernel(b)
	if _, err := c.kernelInfo(20 * time.Second); err != nil {
		b.Fatal(err)
	}
	var times []time.Duration
	for b.Loop() {
		start := time.Now()
		if r := c.execute("1+1"); r["status"] != "ok" {
			b.Fatal(r)
		}
		times = append(times, time.Since(start))
	}
	reportMedian(b, times)
}

func reportMedian(b *testing.B, times []time.Duration) {
	if len(times) == 0 {
		return
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "median-ms")
}

// TestDroppedConnectionStaysOutOfCells opens and drops a raw TCP
// connection to the shell port while a cell runs: the sockets' complaint
// about it belongs in the kernel's log, not in the cell's output.
func TestDroppedConnectionStaysOutOfCells(t *testing.T) {
	c := startKernel(t)
	if r := c.execute(`import "time"`); r["status"] != "ok" {
		t.Fatalf("import: %v", r)
	}
	req := c.send(wire.ExecuteRequest, map[string]any{"code": "time.Sleep(time.Second)", "silent": false}, c.signer)
	time.Sleep(200 * time.Millisecond)
	raw, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", c.conn.ShellPort))
	if err != nil {
		t.Fatal(err)
	}
	raw.Close()
	var streams []string
	for {
		m, err := c.recv(c.iopubIn, req, 10*time.Second)
		if err != nil {
			t.Fatalf("waiting for idle: %v", err)
		}
		if m.Header.MsgType == wire.Stream {
			streams = append(streams, string(m.Content))
		}
		var s statusContent
		if m.Header.MsgType == wire.Status && json.Unmarshal(m.Content, &s) == nil && s.ExecutionState == "idle" {
			break
		}
	}
	if len(streams) > 0 {
		t.Errorf("the cell printed nothing, but its output has %q", streams)
	}
}
