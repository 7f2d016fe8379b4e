package check_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gdlab/engine/gdl"
	"gdlab/engine/gdl/check"
	"gdlab/engine/gdl/compat"
)

// FuzzParse feeds arbitrary bytes to gdl.Parse and whatever it returns to
// Check: neither may panic, and every error must have a position inside the
// text.
func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*.kif"))
	for _, s := range seeds {
		addSeed(f, s)
	}
	if dir := corpusDir(); dir != "" {
		for _, key := range []string{"ticTacToe", "connectFour", "futoshiki4", "skirmish", "wargame01", "blocksWorldSerial"} {
			addSeed(f, filepath.Join(dir, "games", key, key+".kif"))
		}
	}
	f.Add([]byte("(<= (p ?x) (or (q ?x) (not (or (r ?x)))) (distinct ?x (f ?y)))"))
	f.Fuzz(func(t *testing.T, src []byte) {
		d, err := gdl.Parse("fuzz.kif", src)
		if list, ok := err.(gdl.ErrorList); ok {
			checkPositions(t, "parse", list, len(src))
		}
		if d == nil {
			return
		}
		errs := check.Check(d)
		checkPositions(t, "check", errs, len(src))
		noPanic(t, errs)
		// The compatible reading: positioned repairs, a description that
		// needs no more of them, and that Check reads without a panic.
		read, repairs := compat.Read(d)
		for _, r := range repairs {
			if !r.Pos.IsValid() || r.Pos.Offset < 0 || r.Pos.Offset > len(src) {
				t.Fatalf("repair without a valid position: %v", r)
			}
		}
		if _, again := compat.Read(read); len(compat.Changes(again)) > 0 {
			t.Fatalf("the compatible reading needs repairs again: %v", again)
		}
		noPanic(t, check.Check(read))
	})
}

// noPanic fails if Check recovered from a panic.
func noPanic(t *testing.T, errs gdl.ErrorList) {
	t.Helper()
	for _, e := range errs {
		if strings.Contains(e.Msg, "internal error") {
			t.Fatalf("check recovered from a panic: %v", e)
		}
	}
}

func addSeed(f *testing.F, path string) {
	if src, err := os.ReadFile(path); err == nil {
		f.Add(src)
	}
}

// corpusDir returns the shared directory when its games are present.
func corpusDir() string {
	dir := os.Getenv("GDLAB_SHARED")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "..", "shared")
	}
	if _, err := os.Stat(filepath.Join(dir, "games")); err != nil {
		return ""
	}
	return dir
}

// checkPositions fails unless every error lies within a text of n bytes.
func checkPositions(t *testing.T, what string, errs gdl.ErrorList, n int) {
	t.Helper()
	for _, e := range errs {
		if !e.Pos.IsValid() || e.Pos.Offset < 0 || e.Pos.Offset > n || e.Pos.Column < 1 {
			t.Fatalf("%s error without a valid position: %q at %+v (text of %d bytes)", what, e.Msg, e.Pos, n)
		}
	}
}
