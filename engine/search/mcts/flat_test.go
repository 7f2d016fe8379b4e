package mcts

import (
	"context"
	"testing"

	"gdlab/engine/propnet"
	"gdlab/engine/propnet/native"
	"gdlab/engine/propnet/propnettest"
	"gdlab/engine/search"
)

// flatOf compiles the curated game name into a straight-line machine,
// whose simulators run batches.
func flatOf(t testing.TB, name string) *propnet.Flat {
	t.Helper()
	f, err := propnet.NewFlat(propnettest.Curated(t, name))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// TestFlatMachine: the search runs unchanged on the network's
// straight-line machine (propnet.Flat), whose simulator it gets through
// the game contract, and finds tic-tac-toe's win and block as on the
// network, with one playout a leaf and with batches of 64 on lanes.
func TestFlatMachine(t *testing.T) {
	f := flatOf(t, "ticTacToe")
	for _, batch := range []int{0, 64} {
		s := play(t, f, f.Initial(),
			[]string{"(mark 1 1)", "noop"}, []string{"noop", "(mark 2 1)"},
			[]string{"(mark 1 2)", "noop"}, []string{"noop", "(mark 2 2)"})
		p := started(t, f, 0, Options{Iterations: 100000, LeafBatch: batch}, 7)
		mv, rep, err := p.Play(context.Background(), s, search.Budget{Nodes: 5000})
		if err != nil {
			t.Fatal(err)
		}
		if got := f.MoveText(0, mv); got != "(mark 1 3)" || !rep.Complete || rep.Value != 100 {
			t.Errorf("LeafBatch %d: move %s value %v complete %v, want the win (mark 1 3) proved", batch, got, rep.Value, rep.Complete)
		}
		s = play(t, f, f.Initial(),
			[]string{"(mark 1 1)", "noop"}, []string{"noop", "(mark 2 2)"},
			[]string{"(mark 1 2)", "noop"})
		p = started(t, f, 1, Options{Iterations: 100000, LeafBatch: batch}, 7)
		if mv, _, err = p.Play(context.Background(), s, search.Budget{Nodes: 20000}); err != nil {
			t.Fatal(err)
		}
		if got := f.MoveText(1, mv); got != "(mark 1 3)" {
			t.Errorf("LeafBatch %d: o plays %s, want the block (mark 1 3)", batch, got)
		}
	}
}

// TestNativeMachine: MCTS with batches of 64 on lanes runs on a Flat with
// native kernels (package native) as it runs on the interpreted one,
// choosing it being the only change: one seed and one iteration budget
// give the same move after the same playouts and Next calls, since the
// native lanes play the interpreted lanes' playouts.
func TestNativeMachine(t *testing.T) {
	f := flatOf(t, "connectFour")
	nf, _, err := native.Load(context.Background(), f, native.Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	var moves []string
	var stats []Stats
	for _, m := range []*propnet.Flat{f, nf} {
		p := started(t, m, 0, Options{Iterations: 300, LeafBatch: 64}, 11)
		mv, _, err := p.Play(context.Background(), m.Initial(), search.Budget{})
		if err != nil {
			t.Fatal(err)
		}
		moves, stats = append(moves, m.MoveText(0, mv)), append(stats, p.LastStats())
	}
	a, b := stats[0], stats[1]
	if moves[0] != moves[1] || a.Iterations != b.Iterations || a.Playouts != b.Playouts || a.NextCalls != b.NextCalls {
		t.Errorf("interpreted: %s after %d iterations, %d playouts, %d Next calls; native: %s after %d, %d, %d",
			moves[0], a.Iterations, a.Playouts, a.NextCalls, moves[1], b.Iterations, b.Playouts, b.NextCalls)
	}
	if a.Playouts != 300*64 {
		t.Errorf("%d playouts, want 300 leaves of 64", a.Playouts)
	}
}
