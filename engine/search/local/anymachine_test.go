package local

import (
	"context"
	"testing"

	"gdlab/engine/analysis/distance"
	"gdlab/engine/game"
	"gdlab/engine/propnet/propnettest"
	"gdlab/engine/search"
	"gdlab/engine/search/searchtest"
)

// TestProverMachine: a searcher for the prover finds, on every endgame,
// exactly what a searcher for the network finds, with the moves in the
// prover's numbering (their texts unchanged).
func TestProverMachine(t *testing.T) {
	for _, e := range Endgames() {
		pr, err := searchtest.Curated(e.Game)
		if err != nil {
			t.Fatal(err)
		}
		net := propnettest.Curated(t, e.Game)
		dist, err := distance.Of(context.Background(), net)
		if err != nil {
			t.Fatal(err)
		}
		want := searchEndgame(t, net, dist, e)
		got := searchEndgame(t, pr, dist, e)
		if len(got.Moves) != len(want.Moves) || got.Stats.Nodes != want.Stats.Nodes {
			t.Fatalf("%s: %d moves in %d states on the prover, %d in %d on the network", e.Name, len(got.Moves), got.Stats.Nodes, len(want.Moves), want.Stats.Nodes)
		}
		for i, m := range got.Moves {
			w := want.Moves[i]
			if m.Text != w.Text || m.Status != w.Status || m.Depth != w.Depth || pr.MoveText(got.Role, m.Move) != m.Text {
				t.Errorf("%s: move %d: %+v on the prover, %+v on the network", e.Name, i, m, w)
			}
		}
	}
}

// searchEndgame runs a local search on endgame e as a position of m.
func searchEndgame(t *testing.T, m game.Machine, d *distance.Metric, e Endgame) *Result {
	t.Helper()
	st, err := e.State(m)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(m, d, Options{MaxDepth: e.Depth + 1})
	if err != nil {
		t.Fatal(err)
	}
	seed := game.NoMove
	if e.Seed != "" {
		if seed, err = m.ParseMove(e.SeedRole, e.Seed); err != nil {
			t.Fatal(err)
		}
	}
	res, err := s.Search(context.Background(), st, e.SeedRole, seed, search.Budget{})
	if err != nil {
		t.Fatal(err)
	}
	return res
}
