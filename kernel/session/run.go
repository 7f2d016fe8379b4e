package session

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"time"

	"github.com/traefik/yaegi/interp"
)

// settleLimit bounds the wait for an interrupted cell to stop. Interpreted
// code stops within microseconds; past the limit the cell is blocked in a
// native call that ignores its context, and later cells are refused until
// that call returns.
const settleLimit = 5 * time.Second

// rebump is how often an interrupted evaluation is stopped again, in case
// the first stop came before it started (see stopper.bump).
const rebump = 50 * time.Millisecond

// outcome is what one evaluation goroutine delivers, once, on its channel.
type outcome struct {
	v   reflect.Value
	err error
}

// eval runs one chunk on a goroutine of its own, stops it when ctx is
// cancelled, and turns yaegi's failures into *Error.
func (s *Session) eval(ctx context.Context, src string) (reflect.Value, error) {
	if err := s.waitUnsettled(); err != nil {
		return reflect.Value{}, err
	}
	if ctx.Err() != nil {
		return reflect.Value{}, &Error{Kind: Interrupted, Value: "the cell was interrupted"}
	}
	done := make(chan outcome, 1)
	go func() {
		// Never cancelled: the session stops the interpreter itself, so that
		// this goroutine's end, not EvalWithContext's return, marks the
		// interpreter free.
		v, err := s.interp.EvalWithContext(context.Background(), src)
		done <- outcome{v, err}
	}()
	select {
	case o := <-done:
		return o.v, s.failure(o.err)
	case <-ctx.Done():
	}
	s.stop.bump()
	s.stop.closeDone()
	if !s.settle(done) {
		s.unsettled = done
		return reflect.Value{}, &Error{Kind: Interrupted, Value: "the cell was interrupted, but a native call it made ignores cell.Context() and is still running"}
	}
	return reflect.Value{}, &Error{Kind: Interrupted, Value: "the cell was interrupted"}
}

// settle waits up to settleLimit for an interrupted evaluation to end.
func (s *Session) settle(done <-chan outcome) bool {
	limit := time.NewTimer(settleLimit)
	defer limit.Stop()
	tick := time.NewTicker(rebump)
	defer tick.Stop()
	for {
		select {
		case <-done:
			return true
		case <-tick.C:
			s.stop.bump()
		case <-limit.C:
			return false
		}
	}
}

// waitUnsettled gives an interrupted evaluation still in native code one
// more settleLimit to end before refusing a new cell.
func (s *Session) waitUnsettled() error {
	if s.unsettled == nil {
		return nil
	}
	if !s.settle(s.unsettled) {
		return &Error{Kind: Busy, Value: "an interrupted cell is still inside a native call that ignores cell.Context(); try again when it returns"}
	}
	s.unsettled = nil
	return nil
}

func (s *Session) failure(err error) error {
	if err == nil {
		return nil
	}
	var p interp.Panic
	if errors.As(err, &p) {
		return &Error{Kind: PanicKind, Value: fmt.Sprint(p.Value), Trace: s.trace.take()}
	}
	return &Error{Kind: CompileError, Value: relocate(err.Error())}
}
