package session

import (
	"context"
	"reflect"
	"strings"

	"github.com/traefik/yaegi/interp"
)

// Work that runs cell code outside a cell, a widget's callback say, must
// run as a cell runs: on an evaluation the session supervises, so that an
// interrupt stops it and a panic in it becomes an error instead of ending
// the process. Call evaluates a call of a native trampoline that runs the
// work; interpreted functions the work calls then run on the evaluation's
// goroutine, as if a cell had called them.
const (
	callPkgPath = "gdlab.internal/call"
	callPkgName = "__gdlabcall"
	callSource  = callPkgName + ".Run()"
)

// callExports binds the trampoline to s.
func (s *Session) callExports() interp.Exports {
	return interp.Exports{callPkgPath + "/call": {"Run": reflect.ValueOf(s.runPending)}}
}

// runPending runs the work Call installed.
func (s *Session) runPending() {
	s.mu.Lock()
	fn := s.pending
	s.pending = nil
	s.mu.Unlock()
	if fn != nil {
		fn()
	}
}

// Call runs fn under ctx as a cell runs: cancelling ctx interrupts the
// interpreted code it calls, cell.Context() is ctx meanwhile, and a panic
// is returned as an *Error. Call must not be called while a cell runs.
func (s *Session) Call(ctx context.Context, fn func()) error {
	s.mu.Lock()
	s.ctx, s.pending = ctx, fn
	s.mu.Unlock()
	s.takeStrays()
	s.trace.reset()
	_, err := s.eval(ctx, callSource)
	if strays := s.takeStrays(); err == nil && len(strays) > 0 {
		err = &Error{Kind: StrayPanic, Value: strings.Join(strays, "\n")}
	}
	return err
}
