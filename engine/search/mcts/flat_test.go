package mcts

import (
	"context"
	"testing"

	"gdlab/engine/propnet"
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
