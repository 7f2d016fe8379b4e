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
// stray panic and lets the function return its zero values.
//
// The cost is one interpreted defer per call: about 2.4x on a call that does
// nothing else (recursive fib), much less on functions doing real work.
const (
	guardFunc    = "__gdlabGuard"
	guardPkgPath = "gdlab.internal/guard"
	guardPkgName = "__gdlabguard"
)

// guardSource declares the guard in the interpreter, once per session. The
// guard itself is unguarded: it is a deferred function and must call
// recover directly.
const guardSource = `import ` + guardPkgName + ` "` + guardPkgPath + `"
func ` + guardFunc + `(fn string, line int) { ` + guardPkgName + `.Recovered(recover(), fn, line) }`

// guardExports binds the guard's native half to s.
func (s *Session) guardExports() interp.Exports {
	return interp.Exports{guardPkgPath + "/guard": {"Recovered": reflect.ValueOf(s.recovered)}}
}

// recovered is called with recover()'s value at the end of every guarded
// interpreted function, named fn and starting on the cell's line.
func (s *Session) recovered(r any, fn string, line int) {
	if r == nil {
		return
	}
	if v, ok := r.(reflect.Value); ok {
		// Values cross from interpreted to native code wrapped; unwrap so
		// that a recover further up sees what was panicked.
		r = v.Interface()
	}
	if onCellGoroutine() {
		s.trace.add(fmt.Sprintf("%s (line %d)", fn, line))
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
