package session

import (
	"errors"
	"reflect"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/traefik/yaegi/interp"
)

// This file is the only place that reaches into yaegi's unexported fields,
// for two things its API lacks. TestRedefinition and TestInterrupt fail
// loudly if a yaegi upgrade changes the layout.

var errLayout = errors.New("session: yaegi's interpreter layout changed")

// forgetTypes removes names from the interpreter's main scope before a cell
// declares them as types again.
//
// Why: when yaegi evaluates `type T struct{...}` and T already names a
// complete type, it resolves the new declaration to the old type (its
// lookup for recursive types finds the old symbol first), so a redefined
// type silently keeps its old fields.
func forgetTypes(i *interp.Interpreter, names []string) error {
	if len(names) == 0 {
		return nil
	}
	scopes, err := field(reflect.ValueOf(i).Elem(), "scopes", reflect.Map)
	if err != nil {
		return err
	}
	main := scopes.MapIndex(reflect.ValueOf("main"))
	if !main.IsValid() || main.IsNil() {
		return nil // nothing declared yet
	}
	syms, err := field(main.Elem(), "sym", reflect.Map)
	if err != nil {
		return err
	}
	for _, n := range names {
		syms.SetMapIndex(reflect.ValueOf(n), reflect.Value{})
	}
	return nil
}

// stopper does what yaegi's unexported Interpreter.stop does: bump the run
// id, which every interpreted loop and call checks, and close the channel
// that cancellable channel operations select on.
//
// Why: EvalWithContext calls stop on cancellation but then returns without
// waiting for the goroutine that runs the cell, so the caller cannot know
// when the interpreter is free again. The session runs EvalWithContext
// under a context that is never cancelled, on a goroutine it owns, and
// stops the interpreter itself.
type stopper struct {
	id   *uint64
	mu   *sync.RWMutex
	done *chan struct{}
}

func newStopper(i *interp.Interpreter) (stopper, error) {
	v := reflect.ValueOf(i).Elem()
	id, err := field(v, "id", reflect.Uint64)
	if err != nil {
		return stopper{}, err
	}
	mu, err := field(v, "mutex", reflect.Struct)
	if err != nil || mu.Type() != reflect.TypeFor[sync.RWMutex]() {
		return stopper{}, errLayout
	}
	done, err := field(v, "done", reflect.Chan)
	if err != nil {
		return stopper{}, err
	}
	return stopper{
		id:   (*uint64)(unsafe.Pointer(id.UnsafeAddr())),
		mu:   (*sync.RWMutex)(unsafe.Pointer(mu.UnsafeAddr())),
		done: (*chan struct{})(unsafe.Pointer(done.UnsafeAddr())),
	}, nil
}

// bump makes running interpreted code stop at its next step. It may be
// repeated: an evaluation that had not yet started when bumped reads the
// new id as its own, so it must be bumped again.
func (s stopper) bump() { atomic.AddUint64(s.id, 1) }

// closeDone releases interpreted code blocked on a channel. It must be
// called once per evaluation: EvalWithContext makes a fresh channel.
func (s stopper) closeDone() {
	s.mu.RLock()
	d := *s.done
	s.mu.RUnlock()
	if d != nil {
		close(d)
	}
}

// field returns the named, possibly unexported, field of struct v as an
// addressable value of the given kind.
func field(v reflect.Value, name string, kind reflect.Kind) (reflect.Value, error) {
	f := v.FieldByName(name)
	if !f.IsValid() || f.Kind() != kind {
		return reflect.Value{}, errLayout
	}
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem(), nil
}
