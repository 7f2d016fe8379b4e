package sweep

import (
	"context"
	"reflect"
	"testing"

	"gdlab/engine/analysis/latch"
	"gdlab/engine/experiment"
	"gdlab/engine/match"
	"gdlab/engine/search"
	"gdlab/engine/search/mcts"
)

// TestLatchSwitchesAsTournament plays notebook 04's ablation match (MCTS
// with one latch switch against plain MCTS on escort-latch breakthrough)
// through the sweep with grouped seating and as the match.Tournament the
// notebook played, and compares them game by game.
func TestLatchSwitchesAsTournament(t *testing.T) {
	if testing.Short() {
		t.Skip("plays escort-latch breakthrough")
	}
	ctx := context.Background()
	const iters, games, seed = 40, 2, 11
	spec := &Spec{Name: "ablation", Games: []string{"escortLatchBreakthrough"}, Seeds: 2 * games, Seed: seed, Seating: SeatingGrouped,
		Players: []PlayerSpec{
			{Label: "candidate", Kind: "mcts", Params: map[string]float64{"iterations": iters}},
			{Label: "reference", Kind: "mcts", Params: map[string]float64{"iterations": iters}},
		},
		Axes: []Axis{{Param: "candidate.latchwin", Values: []float64{1}}}}
	tab, err := Run(ctx, spec, Options{Runner: RunnerLocal, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	net, err := experiment.Network(ctx, "escortLatchBreakthrough")
	if err != nil {
		t.Fatal(err)
	}
	an, err := latch.Analyze(ctx, net, latch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	entrant := func(name string, o mcts.Options) match.Entrant {
		o.Iterations = iters
		return match.Entrant{Name: name, New: func() search.Player { return mcts.New(o) }}
	}
	tour := &match.Tournament{Game: "escortLatchBreakthrough", Machine: net, Games: games, Seed: seed,
		Entrants: []match.Entrant{entrant("candidate", mcts.Options{LatchWin: true, Analysis: an}), entrant("reference", mcts.Options{})}}
	want, err := tour.Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := tab.MatchTable(0, "escortLatchBreakthrough")
	if len(got.Rows) != len(want.Rows) {
		t.Fatalf("%d games through the sweep, %d through the tournament", len(got.Rows), len(want.Rows))
	}
	for i, g := range got.Rows {
		w := want.Rows[i]
		if g.Seed != w.Seed || !reflect.DeepEqual(g.Players, w.Players) || !reflect.DeepEqual(g.Scores, w.Scores) ||
			g.Moves != w.Moves || !reflect.DeepEqual(g.History, w.History) {
			t.Errorf("game %d differs:\nsweep: seed %d %v %v %d moves\ntournament: seed %d %v %v %d moves", i, g.Seed, g.Players, g.Scores, g.Moves, w.Seed, w.Players, w.Scores, w.Moves)
		}
	}
	if a, b := experiment.MatchResults(got, "candidate"), experiment.MatchResults(want, "candidate"); !reflect.DeepEqual(a, b) {
		t.Errorf("the ledger's results differ:\nsweep %v\ntournament %v", a, b)
	}
}
