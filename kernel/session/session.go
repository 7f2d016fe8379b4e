// Package session owns the evaluation of notebook cells with the yaegi
// interpreter: state that persists from cell to cell, cells that mix
// declarations and statements, the value of a cell's last expression,
// redefinition, panic containment, interruption by context, completion and
// inspection. It knows nothing of sockets or MIME types.
package session

import (
	"context"
	"fmt"
	"io"
	"os"
	"reflect"
	"regexp"
	"strings"
	"sync"

	"github.com/traefik/yaegi/interp"
)

// Options configures a Session. The zero value is usable: output goes to
// os.Stdout and os.Stderr and cells can import nothing compiled.
type Options struct {
	// Stdout and Stderr receive what interpreted code prints through fmt
	// and log. Native code writes to the process's file descriptors, which
	// the kernel redirects itself.
	Stdout, Stderr io.Writer
	// Symbols are the compiled packages cells may import, such as yaegi's
	// stdlib.Symbols and the project's extracted symbols.
	Symbols []interp.Exports
	// Imports, when set, receives the import paths of each cell before the
	// cell runs: the kernel widens the results ledger's scope with them
	// (ledger.AddScope), so that a record names the code it could reach.
	Imports func(paths []string)
}

// Session is one interpreter whose state lasts across cells. Its methods
// must be called from one goroutine at a time.
type Session struct {
	interp  *interp.Interpreter
	stderr  io.Writer
	trace   *traceWriter
	imports func(paths []string)

	names map[string]bool   // top-level names cells declared
	pkgs  map[string]string // imported package name -> import path
	// available maps the name of each compiled package cells may import
	// to its path, so that inspection works before the import.
	available map[string]string

	stop stopper
	// unsettled delivers the outcome of an interrupted evaluation that had
	// not ended within settleLimit; nil when there is none.
	unsettled <-chan outcome

	mu      sync.Mutex
	ctx     context.Context // of the running or last cell
	pending func()          // the work Call runs next
	strays  []string        // panics stopped by guards since the last take
	frames  []string        // guarded functions by guard id, for tracebacks
}

// CellPackage is the import path through which a cell reaches its own
// context: cell.Context() is cancelled when the user interrupts the kernel.
const CellPackage = "gdlab/kernel/cell"

// New returns a fresh session.
func New(opt Options) (*Session, error) {
	if opt.Stdout == nil {
		opt.Stdout = os.Stdout
	}
	if opt.Stderr == nil {
		opt.Stderr = os.Stderr
	}
	s := &Session{stderr: opt.Stderr, imports: opt.Imports, ctx: context.Background(), names: map[string]bool{}, pkgs: map[string]string{}, available: map[string]string{}}
	s.trace = &traceWriter{out: opt.Stderr}
	// Env: without it yaegi gives cells an empty environment, and a notebook
	// could not see GDLAB_QUICK or GDLAB_SHARED.
	s.interp = interp.New(interp.Options{Stdout: opt.Stdout, Stderr: s.trace, Env: os.Environ()})
	var err error
	if s.stop, err = newStopper(s.interp); err != nil {
		return nil, err
	}
	for _, syms := range opt.Symbols {
		if err := s.interp.Use(syms); err != nil {
			return nil, err
		}
		s.noteAvailable(syms)
	}
	if err := s.interp.Use(s.guardExports()); err != nil {
		return nil, err
	}
	if err := s.interp.Use(interp.Exports{CellPackage + "/cell": {"Context": reflect.ValueOf(s.Context)}}); err != nil {
		return nil, err
	}
	if _, err := s.interp.Eval(guardSource); err != nil {
		return nil, fmt.Errorf("session: declaring the guard: %w", err)
	}
	if err := s.interp.Use(s.callExports()); err != nil {
		return nil, err
	}
	if _, err := s.interp.Eval(`import ` + callPkgName + ` "` + callPkgPath + `"`); err != nil {
		return nil, fmt.Errorf("session: importing the call trampoline: %w", err)
	}
	return s, nil
}

// Context returns the context of the running cell (of the last one between
// cells). Cells reach it as cell.Context() and pass it to long engine calls.
func (s *Session) Context() context.Context {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ctx
}

// Result is what a cell evaluated to: the values of its last expression,
// none when it ends with a statement or a call without results.
type Result struct {
	Values []reflect.Value
}

// Eval evaluates one cell under ctx; cancelling ctx interrupts it. A failure
// is returned as an *Error, and the session stays usable after it.
func (s *Session) Eval(ctx context.Context, src string) (Result, error) {
	c := split(src, s.imported, s.frame)
	if s.imports != nil && len(c.imports) > 0 {
		s.imports(c.importPaths())
	}
	s.mu.Lock()
	s.ctx = ctx
	s.mu.Unlock()
	s.takeStrays()
	s.trace.reset()
	res, err := s.evalCell(ctx, c)
	if e, ok := err.(*Error); err == nil || ok && e.Kind != CompileError {
		s.remember(c)
	}
	if strays := s.takeStrays(); err == nil && len(strays) > 0 {
		err = &Error{Kind: StrayPanic, Value: strings.Join(strays, "\n")}
	}
	return res, err
}

// noteAvailable records the packages of an Exports table, keyed
// "import/path/name"; of two packages with one name the shorter path wins,
// as "rand" is math/rand rather than crypto/rand.
func (s *Session) noteAvailable(syms interp.Exports) {
	for key := range syms {
		i := strings.LastIndex(key, "/")
		if i < 0 {
			continue
		}
		path, name := key[:i], key[i+1:]
		if old, ok := s.available[name]; !ok || len(path) < len(old) {
			s.available[name] = path
		}
	}
}

// imported reports whether a cell already imported path as name.
func (s *Session) imported(name, path string) bool { return s.pkgs[name] == path }

// remember records what a cell declared, for completion and inspection.
func (s *Session) remember(c cell) {
	for _, n := range c.names {
		s.names[n] = true
	}
	for n, p := range c.pkgs {
		s.pkgs[n] = p
	}
}

func (s *Session) evalCell(ctx context.Context, c cell) (Result, error) {
	if c.decls != "" {
		if err := forgetTypes(s.interp, c.types); err != nil {
			return Result{}, &Error{Kind: CompileError, Value: err.Error()}
		}
		if _, err := s.eval(ctx, c.decls); err != nil {
			return Result{}, err
		}
	}
	if c.stmts == "" {
		return Result{}, nil
	}
	n := 1
	if c.last.ok {
		n = s.arity(c.last.callee)
	}
	stmts := c.stmts
	if n > 1 {
		stmts = stmts[:c.last.start] + resultNames(n) + " := " + stmts[c.last.start:]
	}
	v, err := s.eval(ctx, stmts)
	if err != nil || !c.last.ok || n == 0 {
		return Result{}, err
	}
	if n > 1 {
		return s.results(n)
	}
	if n < 0 && !meaningful(v) || isNilError(v) {
		return Result{}, nil
	}
	return Result{Values: []reflect.Value{v}}, nil
}

// arity returns how many values the last expression has: 1 for a
// non-call, the callee's result count for a call of a name, and -1 when it
// cannot be known beforehand. Calls shaped like fmt.Println, returning
// (int, error), count as none: their results are noise in a notebook.
func (s *Session) arity(callee string) int {
	switch callee {
	case "":
		return 1
	case "?":
		return -1
	case "print", "println", "panic", "close", "delete", "clear":
		return 0
	}
	v, err := s.interp.Eval(callee)
	if err != nil || !v.IsValid() || v.Kind() != reflect.Func {
		return -1
	}
	t := v.Type()
	if t.NumOut() == 2 && t.Out(0).Kind() == reflect.Int && t.Out(1) == errorType {
		return 0
	}
	return t.NumOut()
}

var errorType = reflect.TypeFor[error]()

// resultVar names the variables that capture a multi-valued last expression.
func resultVar(i int) string { return fmt.Sprintf("__gdlabR%d", i) }

func resultNames(n int) string {
	names := make([]string, n)
	for i := range names {
		names[i] = resultVar(i)
	}
	return strings.Join(names, ", ")
}

func (s *Session) results(n int) (Result, error) {
	var r Result
	for i := range n {
		v, err := s.interp.Eval(resultVar(i))
		if err != nil {
			return Result{}, &Error{Kind: CompileError, Value: err.Error()}
		}
		r.Values = append(r.Values, v)
	}
	return r, nil
}

// meaningful filters out what yaegi returns for statements without a value:
// a pointer to an empty interface, or a nil function.
func meaningful(v reflect.Value) bool {
	if !v.IsValid() {
		return false
	}
	switch v.Kind() {
	case reflect.Pointer:
		return v.Type().Elem().Kind() != reflect.Interface
	case reflect.Func:
		return !v.IsNil()
	}
	return true
}

// isNilError reports whether v is a nil error, as returned by calls like
// display.Display that can only fail: showing "<nil>" after each is noise.
func isNilError(v reflect.Value) bool {
	return v.IsValid() && v.Kind() == reflect.Interface && v.IsNil() && v.Type() == errorType
}

// ErrorKind classifies a failed cell; the kernel shows it as the error name.
type ErrorKind string

// The ways a cell fails.
const (
	CompileError ErrorKind = "CompileError"
	PanicKind    ErrorKind = "panic"
	Interrupted  ErrorKind = "Interrupted"
	StrayPanic   ErrorKind = "GoroutinePanic"
	Busy         ErrorKind = "KernelBusy"
)

// Error is a cell's failure as the notebook shows it.
type Error struct {
	Kind  ErrorKind
	Value string   // the message or the panic value
	Trace []string // interpreted frames a panic unwound, innermost first
}

// Error returns the kind and the message, as in "panic: index out of range".
func (e *Error) Error() string { return string(e.Kind) + ": " + e.Value }

// position matches a yaegi position at the start of a line, with or
// without its file name.
var position = regexp.MustCompile(`(?m)^(?:_\.go:)?(\d+):(\d+):`)

// relocate rewrites yaegi's positions, one line below the cell's because
// of chunkPrefix, into the cell's own line:column.
func relocate(msg string) string {
	return position.ReplaceAllStringFunc(msg, func(m string) string {
		sub := position.FindStringSubmatch(m)
		var line, col int
		fmt.Sscan(sub[1], &line)
		fmt.Sscan(sub[2], &col)
		if line > 1 {
			line--
		}
		return fmt.Sprintf("%d:%d:", line, col)
	})
}

// traceWriter is the interpreter's stderr. yaegi writes one line there for
// each interpreted frame a panic unwinds ("3:5: panic: main.f(...)"); those
// lines become the error's trace, everything else passes through.
type traceWriter struct {
	out   io.Writer
	mu    sync.Mutex
	lines []string
}

var panicLine = regexp.MustCompile(`^(?:_\.go:)?(\d+):(\d+): panic: (.*)\(\.\.\.\)\s*$`)

// Write keeps yaegi's frame lines, rewritten as "function at line:col",
// except those of the guard, which adds better ones itself.
func (w *traceWriter) Write(p []byte) (int, error) {
	m := panicLine.FindSubmatch(p)
	if m == nil {
		return w.out.Write(p)
	}
	fn := strings.TrimPrefix(string(m[3]), "main.")
	if fn == guardFunc {
		return len(p), nil
	}
	if fn == "main" {
		fn = "cell"
	}
	w.add(fmt.Sprintf("%s at %s", fn, strings.TrimSuffix(relocate(string(m[1])+":"+string(m[2])+":"), ":")))
	return len(p), nil
}

func (w *traceWriter) add(line string) {
	w.mu.Lock()
	w.lines = append(w.lines, line)
	w.mu.Unlock()
}

func (w *traceWriter) reset() { w.take() }

func (w *traceWriter) take() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := w.lines
	w.lines = nil
	return out
}
