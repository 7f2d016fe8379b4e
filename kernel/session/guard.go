package session

import (
	"fmt"
	"reflect"
	"runtime"
	"strings"

	"github.com/traefik/yaegi/interp"
)

// A panic on a goroutine that no interpreted frame supervises ends the
// process, and yaegi supervises only the goroutine that evaluates a cell.
// Every interpreted function therefore starts with `defer __gdlabGuard()`
// (see split.go), an interpreted function that hands recover()'s value to
// the session. On the cell's goroutine the guard panics again, so the panic
// unwinds exactly as Go would and an interpreted recover further up still
// sees it; on any other goroutine (a native worker calling an interpreted
// callback, a `go` statement) the guard stops it there, records it as a
// stray panic and lets the function return its zero values. A stray panic
// is written to stderr at once and reported as the error of the cell that
// is running when the guard records it, if any.
//
// The cost is one interpreted defer per call, about 2-3 microseconds: a
// recursive fib that does nothing else runs 2-4x slower
// (BenchmarkGuardedCall against BenchmarkUnguardedCall); functions doing
// real work, or calling the compiled engine, pay proportionally less.
const (
	guardFunc    = "__gdlabGuard"
	guardPkgPath = "gdlab.internal/guard"
	guardPkgName = "__gdlabguard"
)

// guardSource declares the guard in the interpreter, once per session. The
// guard itself is unguarded: it is a deferred function and must call
// recover directly.
const guardSource = `import ` + guardPkgName + ` "` + guardPkgPath + `"
func ` + guardFunc + `(id int) { ` + guardPkgName + `.Recovered(recover(), id) }`

// guardExports binds the guard's native half to s.
func (s *Session) guardExports() interp.Exports {
	return interp.Exports{guardPkgPath + "/guard": {"Recovered": reflect.ValueOf(s.recovered)}}
}

// frame registers a guarded function for tracebacks; see framer.
func (s *Session) frame(name string, line int) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.frames = append(s.frames, fmt.Sprintf("%s (line %d)", name, line))
	return len(s.frames) - 1
}

func (s *Session) frameName(id int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if id < 0 || id >= len(s.frames) {
		return "?"
	}
	return s.frames[id]
}

// recovered is called with recover()'s value at the end of every guarded
// interpreted function, identified by id.
func (s *Session) recovered(r any, id int) {
	if r == nil {
		return
	}
	if v, ok := r.(reflect.Value); ok {
		// Values cross from interpreted to native code wrapped; unwrap so
		// that a recover further up sees what was panicked.
		r = v.Interface()
	}
	if onCellGoroutine() {
		s.trace.add(s.frameName(id))
		panic(r)
	}
	msg := fmt.Sprintf("%v", r)
	fmt.Fprintf(s.stderr, "panic on a goroutine outside the cell, stopped by the kernel: %s\n", msg)
	s.mu.Lock()
	s.strays = append(s.strays, msg)
	s.mu.Unlock()
}

// cellEntry is the function at the root of the goroutine on which yaegi
// evaluates a cell and recovers its panics.
const cellEntry = "github.com/traefik/yaegi/interp.(*Interpreter).EvalWithContext"

// onCellGoroutine reports whether the caller runs on a goroutine started by
// EvalWithContext. It walks the whole stack, which is slow but happens only
// while a panic is in flight.
func onCellGoroutine() bool {
	pc := make([]uintptr, 512)
	for {
		n := runtime.Callers(2, pc)
		if n < len(pc) {
			pc = pc[:n]
			break
		}
		pc = make([]uintptr, 2*len(pc))
	}
	frames := runtime.CallersFrames(pc)
	for {
		f, more := frames.Next()
		if strings.HasPrefix(f.Function, cellEntry) {
			return true
		}
		if !more {
			return false
		}
	}
}

// takeStrays returns and clears the stray panics recorded so far.
func (s *Session) takeStrays() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.strays
	s.strays = nil
	return out
}
