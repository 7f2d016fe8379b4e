package pie_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"gdlab/engine/game"
	"gdlab/engine/gdl"
	"gdlab/engine/gdl/pie"
	"gdlab/engine/prover"
)

// maxSteps bounds every playout of these tests, far beyond the games' lengths.
const maxSteps = 1000

// sharedDir returns the shared corpus directory ($GDLAB_SHARED, or
// ../../../../shared from this package), or skips the test.
func sharedDir(t testing.TB) string {
	dir := os.Getenv("GDLAB_SHARED")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "..", "shared")
	}
	if _, err := os.Stat(filepath.Join(dir, "games")); err != nil {
		t.Skipf("shared corpus not found at %s (set GDLAB_SHARED): skipping", dir)
	}
	return dir
}

// variant transforms d and checks its opening, failing the test on error.
func variant(t testing.TB, d *gdl.Description) *gdl.Description {
	t.Helper()
	if err := pie.CheckOpening(context.Background(), d, newProver(t, d)); err != nil {
		t.Fatalf("CheckOpening: %v", err)
	}
	v, err := pie.Transform(d, pie.Options{})
	if err != nil {
		t.Fatalf("Transform: %v", err)
	}
	return v
}

func newProver(t testing.TB, d *gdl.Description) *prover.Prover {
	t.Helper()
	p, err := prover.New(d)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func parseFile(t testing.TB, path string) *gdl.Description {
	t.Helper()
	d, err := gdl.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// legalTexts returns role's legal moves in s as text, sorted.
func legalTexts(m game.Machine, s game.State, role int) ([]string, error) {
	ms, err := m.Legal(s, role, nil)
	if err != nil {
		return nil, err
	}
	return game.MovesText(m, role, ms), nil
}

// allLegal returns every role's legal moves in s as text.
func allLegal(m game.Machine, s game.State) ([][]string, error) {
	out := make([][]string, len(m.Roles()))
	for r := range out {
		var err error
		if out[r], err = legalTexts(m, s, r); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// playText plays a joint move given as text.
func playText(m game.Machine, s game.State, texts []string) (game.State, error) {
	joint := make([]game.Move, len(texts))
	for r, txt := range texts {
		mv, err := m.ParseMove(r, txt)
		if err != nil {
			return nil, err
		}
		joint[r] = mv
	}
	return m.Next(s, joint)
}

// outcome is what two machines must agree on in a state: terminal, goals,
// and, in a state that is not terminal, the legal moves as text.
type outcome struct {
	terminal bool
	goals    []int
	legal    [][]string
}

func observe(m game.Machine, s game.State) (outcome, error) {
	over, err := m.Terminal(s)
	if err != nil {
		return outcome{}, err
	}
	o := outcome{terminal: over, goals: game.Goals(m, s)}
	if !over {
		o.legal, err = allLegal(m, s)
	}
	return o, err
}

func (o outcome) differs(p outcome) string {
	switch {
	case o.terminal != p.terminal:
		return fmt.Sprintf("terminal %v, want %v", o.terminal, p.terminal)
	case !slices.Equal(o.goals, p.goals):
		return fmt.Sprintf("goals %v, want %v", o.goals, p.goals)
	}
	for r := range o.legal {
		if !slices.Equal(o.legal[r], p.legal[r]) {
			return fmt.Sprintf("role %d: legal %v, want %v", r, o.legal[r], p.legal[r])
		}
	}
	return ""
}

// randomJoint picks one legal move per role uniformly, as text, leaving
// out the moves skip rejects.
func randomJoint(o outcome, pick func(n int) int, skip func(role int, move string) bool) []string {
	joint := make([]string, len(o.legal))
	for r, ms := range o.legal {
		ms = slices.DeleteFunc(slices.Clone(ms), func(m string) bool { return skip(r, m) })
		joint[r] = ms[pick(len(ms))]
	}
	return joint
}

// perftCounts returns the sequences and terminal sequences of each depth:
// what perft counts that does not depend on how states are encoded.
func perftCounts(t testing.TB, m game.Machine, depth int) [][2]int64 {
	t.Helper()
	levels, err := game.Perft(context.Background(), m, m.Initial(), depth)
	if err != nil {
		t.Fatal(err)
	}
	out := make([][2]int64, len(levels))
	for i, l := range levels {
		out[i] = [2]int64{l.Sequences, l.Terminals}
	}
	return out
}
