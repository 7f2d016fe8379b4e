package propnet_test

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"strings"
	"testing"

	"gdlab/engine/propnet"
	"gdlab/engine/propnet/propnettest"
)

func flatOf(t *testing.T, key string) *propnet.Flat {
	t.Helper()
	f, err := propnet.NewFlat(propnettest.Load(t, kifPath(sharedDir(t), key)))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestWithKernels: kernels of another code or with a function missing are
// refused, and the lanes of a Flat with kernels run them, not the
// interpreted code.
func TestWithKernels(t *testing.T) {
	f := flatOf(t, "ticTacToe")
	calls := 0
	count := func([]uint64) { calls++ }
	if _, err := f.WithKernels(propnet.Kernels{Fingerprint: "other", State: count, Move: count, Goal: count}); err == nil {
		t.Error("kernels of another fingerprint were accepted")
	}
	if _, err := f.WithKernels(propnet.Kernels{Fingerprint: f.Fingerprint(), State: count, Move: count}); err == nil {
		t.Error("kernels without Goal were accepted")
	}
	g, err := f.WithKernels(propnet.Kernels{Fingerprint: f.Fingerprint(), State: count, Move: count, Goal: count})
	if err != nil {
		t.Fatal(err)
	}
	if g.Fingerprint() != f.Fingerprint() {
		t.Error("the Flat with kernels has another fingerprint")
	}
	g.NewLanes() // evaluates the initial state
	if calls == 0 {
		t.Error("the lanes did not run the kernels")
	}
	calls = 0
	f.NewLanes()
	if calls != 0 {
		t.Error("the Flat without kernels ran them")
	}
}

// TestFingerprintDiffers: different games' codes have different
// fingerprints, and one game's two compilations the same.
func TestFingerprintDiffers(t *testing.T) {
	a, b := flatOf(t, "ticTacToe"), flatOf(t, "connectFour")
	if a.Fingerprint() == b.Fingerprint() {
		t.Error("ticTacToe and connectFour share a fingerprint")
	}
	if c := flatOf(t, "ticTacToe"); c.Fingerprint() != a.Fingerprint() {
		t.Error("ticTacToe compiled twice has two fingerprints")
	}
}

// TestWriteKernelsTypeChecks type-checks the written source of reversi,
// whose 16,511 goal gates are split over several functions, and checks
// that it declares what package native looks up.
func TestWriteKernelsTypeChecks(t *testing.T) {
	f := flatOf(t, "reversi")
	var src bytes.Buffer
	if err := f.WriteKernels(&src, "main"); err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "kernels.go", src.Bytes(), 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := (&types.Config{}).Check("main", fset, []*ast.File{file}, nil)
	if err != nil {
		t.Fatal(err)
	}
	kernel := types.NewSignatureType(nil, nil, nil, types.NewTuple(types.NewVar(0, nil, "val", types.NewSlice(types.Typ[types.Uint64]))), nil, false)
	for _, name := range []string{"State", "Move", "Goal"} {
		obj := pkg.Scope().Lookup(name)
		if obj == nil || !types.Identical(obj.Type(), kernel) {
			t.Errorf("%s is %v, want a func([]uint64)", name, obj)
		}
	}
	if fp := pkg.Scope().Lookup("Fingerprint"); fp == nil || !strings.Contains(src.String(), f.Fingerprint()) {
		t.Error("the source lacks the fingerprint")
	}
	if !strings.Contains(src.String(), "goal3(v)") {
		t.Error("reversi's goal code is not split into chunks")
	}
}
