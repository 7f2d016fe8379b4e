package session

import (
	"errors"
	"reflect"
	"unsafe"

	"github.com/traefik/yaegi/interp"
)

// forgetTypes removes names from the interpreter's main scope before a cell
// declares them as types again.
//
// Why: when yaegi evaluates `type T struct{...}` and T already names a
// complete type, it resolves the new declaration to the old type (its
// lookup for recursive types finds the old symbol first), so a redefined
// type silently keeps its old fields. yaegi has no API to drop a symbol, so
// this reaches into its unexported scope table; TestRedefineType fails
// loudly if a yaegi upgrade changes that layout.
func forgetTypes(i *interp.Interpreter, names []string) error {
	if len(names) == 0 {
		return nil
	}
	scopes, err := field(reflect.ValueOf(i).Elem(), "scopes")
	if err != nil {
		return err
	}
	main := scopes.MapIndex(reflect.ValueOf("main"))
	if !main.IsValid() || main.IsNil() {
		return nil // nothing declared yet
	}
	syms, err := field(main.Elem(), "sym")
	if err != nil {
		return err
	}
	for _, n := range names {
		syms.SetMapIndex(reflect.ValueOf(n), reflect.Value{})
	}
	return nil
}

var errLayout = errors.New("session: yaegi's interpreter layout changed; cannot redefine types")

// field returns the named unexported field of struct v as a settable value.
func field(v reflect.Value, name string) (reflect.Value, error) {
	f := v.FieldByName(name)
	if !f.IsValid() || f.Kind() != reflect.Map {
		return reflect.Value{}, errLayout
	}
	return reflect.NewAt(f.Type(), unsafe.Pointer(f.UnsafeAddr())).Elem(), nil
}
