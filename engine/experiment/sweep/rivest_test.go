package sweep

import (
	"context"
	"fmt"
	"reflect"
	"testing"

	"gdlab/engine/experiment/rivest"
	"gdlab/engine/search"
)

// rivestSpec is Rivest's experiment at one move bound as a sweep: MM
// (axis p) against alpha-beta, both with his evaluator, from openings
// openings × 2 seats.
func rivestSpec(openings int, calls float64, ps ...float64) *Spec {
	return &Spec{Name: "rivest", Games: []string{"connectFour"}, Seeds: 2 * openings, Seed: 1, Openings: OpeningsRivest,
		Players: []PlayerSpec{
			{Label: "mm", Kind: "mm", Eval: "rivest-c4", Params: map[string]float64{"nextcalls": calls}},
			{Label: "ab", Kind: "alphabeta", Eval: "rivest-c4", Params: map[string]float64{"nextcalls": calls}},
		},
		Axes: []Axis{{Param: "mm.p", Values: ps}}}
}

// TestRivestSameGames plays Rivest's games under a move bound through the
// sweep and through rivest.Run, and compares them game by game: seeds,
// seats, moves, scores and Next calls, and the summary rivest reports.
func TestRivestSameGames(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 16 Connect Four games twice")
	}
	ctx := context.Background()
	const openings, calls = 4, 400
	ps := []float64{2, 10}
	spec := rivestSpec(openings, calls, ps...)
	tab, err := Run(ctx, spec, Options{Runner: RunnerLocal, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	m, err := rivest.Machine(ctx)
	if err != nil {
		t.Fatal(err)
	}
	bound := rivest.Bound{Label: fmt.Sprintf("%d calls", calls), Kind: "moves", Budget: search.Budget{NextCalls: calls}}
	for i, p := range ps {
		want, games, err := rivest.Run(ctx, m, rivest.Config{P: p, Openings: openings, Seed: 1, Workers: 2}, []rivest.Bound{bound})
		if err != nil {
			t.Fatal(err)
		}
		mt := tab.MatchTable(i, "connectFour")
		if len(mt.Rows) != len(games.Rows) {
			t.Fatalf("p=%g: %d games through the sweep, %d through rivest.Run", p, len(mt.Rows), len(games.Rows))
		}
		for k, got := range mt.Rows {
			w := games.Rows[k]
			mmSeat := k % 2
			if got.Seed != w.Seed || got.Players[mmSeat] != "mm" || w.Players[mmSeat] != "mm" || got.Moves != w.Moves ||
				!reflect.DeepEqual(got.Scores, w.Scores) || !reflect.DeepEqual(got.NextCalls, w.NextCalls) || !reflect.DeepEqual(got.History, w.History) {
				t.Errorf("p=%g game %d differs:\nsweep: seed %d %v scores %v calls %v moves %d\nrivest: seed %d %v scores %v calls %v moves %d",
					p, k, got.Seed, got.Players, got.Scores, got.NextCalls, got.Moves, w.Seed, w.Players, w.Scores, w.NextCalls, w.Moves)
			}
		}
		r, err := tab.Rivest(i, bound.Label, bound.Kind)
		if err != nil {
			t.Fatal(err)
		}
		w := want[0]
		if r.MMWins != w.MMWins || r.ABWins != w.ABWins || r.Ties != w.Ties || r.P != w.P || r.MMCalls != w.MMCalls ||
			r.ABCalls != w.ABCalls || r.Plies != w.Plies || !reflect.DeepEqual(r.Outcomes, w.Outcomes) || r.Eval != w.Eval {
			t.Errorf("p=%g: the sweep's summary %+v\nrivest.Run's %+v", p, r, w)
		}
		t.Logf("p=%g: MM %d–%d–%d, outcomes %v", p, r.MMWins, r.ABWins, r.Ties, r.Outcomes)
	}
}

func TestRivestSpecChecks(t *testing.T) {
	s := rivestSpec(3, 100, 10)
	s.Seeds = 5
	if err := s.Check(); err == nil {
		t.Error("an odd number of seeds should be refused with Rivest's openings")
	}
	s = rivestSpec(49, 100, 10)
	if got := s.opening(97); got != 48 {
		t.Errorf("seed number 97 of 49 openings plays opening %d, want 48", got)
	}
	if s.MatchSeed(Unit{Seed: 3}) != rivest.GameSeed(1, 1, 1) {
		t.Error("seed number 3 should have rivest.GameSeed(1, 1, 1)")
	}
}
