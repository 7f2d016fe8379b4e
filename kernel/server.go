package kernel

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"sync"
	"syscall"

	"github.com/go-zeromq/zmq4"
	"github.com/traefik/yaegi/interp"

	"gdlab/engine/ledger"
	"gdlab/kernel/comm"
	"gdlab/kernel/display"
	"gdlab/kernel/session"
	"gdlab/kernel/widget"
	"gdlab/kernel/wire"
)

// Options configures Run.
type Options struct {
	// Symbols are the compiled packages cells may import.
	Symbols []interp.Exports
	// Log receives the kernel's own diagnostics; nil means the process's
	// original stderr, which Jupyter shows in its terminal.
	Log io.Writer
}

// Kernel is one running kernel: its sockets, its session and the request
// whose output it is publishing.
type Kernel struct {
	conn    Connection
	signer  wire.Signer
	log     *log.Logger
	session *session.Session
	comms   *comm.Manager
	flusher flusher
	id      string // names this kernel in iopub topics

	shell, control, stdin, iopub, hb zmq4.Socket
	iopubMu                          sync.Mutex // PUB sends come from many goroutines
	shellMu, controlMu               sync.Mutex

	// Touched by the shell worker only.
	execCount  int
	abortQueue bool              // set by a failed cell with stop_on_error
	shellIn    chan wire.Message // shell requests as they arrive
	toAbort    []wire.Message    // requests queued when a failed cell ended

	mu        sync.Mutex
	parent    wire.Message       // request whose output is published; zero before the first
	interrupt context.CancelFunc // cancels the running cell; nil when idle
	stop      context.CancelFunc // ends Run
}

// Run serves the kernel described by conn until a shutdown request, a
// SIGTERM or the cancellation of ctx. SIGINT and interrupt requests
// interrupt the running cell and leave the kernel up.
func Run(ctx context.Context, conn Connection, opt Options) error {
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	signer, err := wire.NewSigner(conn.SignatureScheme, conn.Key)
	if err != nil {
		return err
	}
	k := &Kernel{conn: conn, signer: signer, id: wire.NewID(), stop: stop}
	logTo := k.captureStdio(opt.Log)
	k.log = log.New(logTo, "gdlab kernel: ", log.LstdFlags)
	if root, err := ledger.Root(); err == nil {
		go ledger.PinSources(root) // before any cell can record a run
	}
	if k.session, err = session.New(session.Options{Stdout: os.Stdout, Stderr: os.Stderr, Symbols: opt.Symbols,
		Imports: func(paths []string) { ledger.AddScope(paths...) }}); err != nil {
		return err
	}
	if err := k.listen(ctx); err != nil {
		return err
	}
	defer k.close()
	old := display.SetPublisher(k)
	defer display.SetPublisher(old)
	k.comms = comm.NewManager(k.publishComm)
	k.comms.SetParent(func() string { p, _ := k.currentParent(); return p.Header.MsgID })
	widget.Serve(k.comms) // the widget front end checks versions through a comm
	oldComms := comm.SetDefault(k.comms)
	defer comm.SetDefault(oldComms)
	go k.heartbeat(ctx)
	go k.signals(ctx)
	go k.serve(ctx, k.control, &k.controlMu, k.handleControl)
	k.shellIn = make(chan wire.Message, 64)
	go k.receive(ctx, k.shell, k.shellIn)
	k.log.Printf("listening on %s (shell %d, iopub %d)", conn.IP, conn.ShellPort, conn.IOPubPort)
	for {
		select {
		case <-ctx.Done():
			return nil
		case m := <-k.shellIn:
			k.handle(ctx, m, k.shell, &k.shellMu, k.handleShell)
			k.abortQueued(ctx)
		}
	}
}

// takeQueued notes, when a cell has just failed with stop_on_error, the
// shell requests queued behind it. It runs before the failed cell's reply
// leaves, so a request sent after the client saw that reply is never
// among them.
func (k *Kernel) takeQueued() {
	if !k.abortQueue {
		return
	}
	k.abortQueue = false
	for {
		select {
		case m := <-k.shellIn:
			k.toAbort = append(k.toAbort, m)
		default:
			return
		}
	}
}

// abortQueued answers the execute requests noted by takeQueued with
// "aborted": "Run All" must stop at the first error. Other requests among
// them are served as usual.
func (k *Kernel) abortQueued(ctx context.Context) {
	queued := k.toAbort
	k.toAbort = nil
	for _, m := range queued {
		if m.Header.MsgType != wire.ExecuteRequest {
			k.handle(ctx, m, k.shell, &k.shellMu, k.handleShell)
			continue
		}
		k.handle(ctx, m, k.shell, &k.shellMu, func(context.Context, wire.Message) (any, error) {
			return map[string]any{"status": "aborted", "execution_count": k.execCount}, nil
		})
	}
}

// captureStdio redirects descriptors 1 and 2 into pumps and returns where
// the kernel's log should go: the original stderr when redirection works.
func (k *Kernel) captureStdio(logTo io.Writer) io.Writer {
	var origErr *os.File
	for _, s := range []struct {
		fd   int
		name string
		file *os.File
	}{{1, "stdout", os.Stdout}, {2, "stderr", os.Stderr}} {
		r, orig, err := redirect(s.fd)
		if err != nil {
			fmt.Fprintf(os.Stderr, "gdlab kernel: output of native code will not reach the notebook: %v\n", err)
			break
		}
		if s.fd == 2 {
			origErr = orig
		}
		p := &pump{name: s.name, r: r, w: s.file, emit: k.emitStream, marks: make(chan struct{}, 1)}
		k.flusher.pumps = append(k.flusher.pumps, p)
		go p.run()
	}
	switch {
	case logTo != nil:
		return logTo
	case origErr != nil:
		return origErr
	}
	return os.Stderr
}

func (k *Kernel) listen(ctx context.Context) error {
	// The sockets log to the kernel's log, not to descriptor 2: while a cell
	// runs, that descriptor feeds the cell's output, and a client's dropped
	// connection is no part of it.
	quiet := zmq4.WithLogger(log.New(k.log.Writer(), "gdlab kernel: zmq4: ", log.LstdFlags))
	k.shell = zmq4.NewRouter(ctx, quiet)
	k.control = zmq4.NewRouter(ctx, quiet)
	k.stdin = zmq4.NewRouter(ctx, quiet)
	k.iopub = zmq4.NewPub(ctx, quiet)
	k.hb = zmq4.NewRep(ctx, quiet)
	for _, s := range []struct {
		sock zmq4.Socket
		port int
	}{{k.shell, k.conn.ShellPort}, {k.control, k.conn.ControlPort}, {k.stdin, k.conn.StdinPort}, {k.iopub, k.conn.IOPubPort}, {k.hb, k.conn.HBPort}} {
		if err := s.sock.Listen(k.conn.endpoint(s.port)); err != nil {
			k.close()
			return fmt.Errorf("listen on %s: %w", k.conn.endpoint(s.port), err)
		}
	}
	return nil
}

func (k *Kernel) close() {
	for _, s := range []zmq4.Socket{k.shell, k.control, k.stdin, k.iopub, k.hb} {
		if s != nil {
			s.Close()
		}
	}
}

// heartbeat echoes every ping so that clients know the process is alive,
// even while a cell runs.
func (k *Kernel) heartbeat(ctx context.Context) {
	for ctx.Err() == nil {
		m, err := k.hb.Recv()
		if err != nil {
			continue
		}
		if err := k.hb.Send(m); err != nil && ctx.Err() == nil {
			k.log.Printf("heartbeat: %v", err)
		}
	}
}

// signals interrupts the running cell on SIGINT (Jupyter's interrupt in
// "signal" mode, or ^C in a terminal) and shuts down on SIGTERM.
func (k *Kernel) signals(ctx context.Context) {
	c := make(chan os.Signal, 1)
	signal.Notify(c, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(c)
	for {
		select {
		case <-ctx.Done():
			return
		case s := <-c:
			if s == syscall.SIGTERM {
				k.stop()
				return
			}
			k.interruptCell()
		}
	}
}

// receive decodes messages from sock into out. A message that fails
// verification is logged and dropped here, before anything reads it.
func (k *Kernel) receive(ctx context.Context, sock zmq4.Socket, out chan<- wire.Message) {
	for ctx.Err() == nil {
		raw, err := sock.Recv()
		if err != nil {
			continue
		}
		m, err := wire.Decode(raw.Frames, k.signer)
		if err != nil {
			k.log.Printf("dropped a message: %v", err)
			continue
		}
		select {
		case out <- m:
		case <-ctx.Done():
		}
	}
}

// serve handles the messages of sock one at a time on this goroutine.
func (k *Kernel) serve(ctx context.Context, sock zmq4.Socket, mu *sync.Mutex, h handler) {
	in := make(chan wire.Message, 16)
	go k.receive(ctx, sock, in)
	for {
		select {
		case <-ctx.Done():
			return
		case m := <-in:
			k.handle(ctx, m, sock, mu, h)
		}
	}
}

// handler answers one request: it returns the reply's content, or nil to
// send no reply.
type handler func(ctx context.Context, m wire.Message) (any, error)

// handle publishes busy, runs h, sends its reply and publishes idle, as
// the protocol asks for every request.
func (k *Kernel) handle(ctx context.Context, m wire.Message, sock zmq4.Socket, mu *sync.Mutex, h handler) {
	k.publish(m, wire.Status, statusContent{"busy"})
	content, err := h(ctx, m)
	if err != nil {
		k.log.Printf("%s: %v", m.Header.MsgType, err)
	}
	if sock == k.shell {
		k.takeQueued()
	}
	if content != nil {
		if err := k.reply(sock, mu, m, content); err != nil {
			k.log.Printf("reply to %s: %v", m.Header.MsgType, err)
		}
	}
	k.publish(m, wire.Status, statusContent{"idle"})
	if m.Header.MsgType == wire.ShutdownRequest {
		k.stop() // only now: the reply must leave before the sockets close
	}
}

func (k *Kernel) reply(sock zmq4.Socket, mu *sync.Mutex, req wire.Message, content any) error {
	t, ok := req.Header.MsgType.Reply()
	if !ok {
		return fmt.Errorf("no reply type for %s", req.Header.MsgType)
	}
	return k.send(sock, mu, req, t, content)
}

func (k *Kernel) send(sock zmq4.Socket, mu *sync.Mutex, parent wire.Message, t wire.MsgType, content any) error {
	m, err := wire.NewMessage(parent, t, content)
	if err != nil {
		return err
	}
	if sock == k.iopub {
		m.Identities = [][]byte{[]byte("kernel." + k.id + "." + string(t))}
	}
	frames, err := wire.Encode(m, k.signer)
	if err != nil {
		return err
	}
	mu.Lock()
	defer mu.Unlock()
	return sock.SendMulti(zmq4.NewMsgFrom(frames...))
}

// publish broadcasts on iopub; a failure is logged, since there is no one
// to return it to.
func (k *Kernel) publish(parent wire.Message, t wire.MsgType, content any) {
	if err := k.send(k.iopub, &k.iopubMu, parent, t, content); err != nil && !errors.Is(err, context.Canceled) {
		k.log.Printf("publish %s: %v", t, err)
	}
}

type statusContent struct {
	ExecutionState string `json:"execution_state"`
}

// emitStream publishes captured output for the request being served, or
// for the last one when output arrives between requests.
func (k *Kernel) emitStream(name, text string) {
	parent, ok := k.currentParent()
	if !ok {
		k.log.Printf("%s: %s", name, text)
		return
	}
	k.publish(parent, wire.Stream, map[string]string{"name": name, "text": text})
}

// publishComm sends a comm message on iopub, its parent being the request
// being served (a cell, or the front end's comm message).
func (k *Kernel) publishComm(t wire.MsgType, content any) error {
	parent, _ := k.currentParent()
	return k.send(k.iopub, &k.iopubMu, parent, t, content)
}

func (k *Kernel) currentParent() (wire.Message, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.parent, k.parent.Header.MsgID != ""
}

// interruptCell cancels the running cell's context, if a cell runs.
func (k *Kernel) interruptCell() {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.interrupt != nil {
		k.interrupt()
	}
}
