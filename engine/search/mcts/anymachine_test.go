package mcts

import (
	"context"
	"slices"
	"testing"
	"time"

	"gdlab/engine/game"
	"gdlab/engine/prover"
	"gdlab/engine/search"
	"gdlab/engine/search/local"
	"gdlab/engine/search/searchtest"
)

// curatedProver returns the reference prover of a curated game.
func curatedProver(t testing.TB, name string) *prover.Prover {
	t.Helper()
	pr, err := searchtest.Curated(name)
	if err != nil {
		t.Fatal(err)
	}
	return pr
}

// TestSwitchesOnProver: every switch works on a machine that is not a
// network (the prover, metered by a Counter as the referee meters players):
// the analyses are built on the game's network, the search plays a legal
// move, and the meter counts every Next call the search counts, in the
// tree and in playouts.
func TestSwitchesOnProver(t *testing.T) {
	for _, tc := range []struct {
		game string
		opt  Options
	}{
		{"escortLatchBreakthrough", Options{Iterations: 60}.AllLatches()},
		{"dotsAndBoxes", Options{Iterations: 60, VirtualTerminal: true}},
		{"breakthroughSmall", Options{Iterations: 60, LocalSearch: true, LocalRetarget: 20 * time.Millisecond}},
	} {
		t.Run(tc.game, func(t *testing.T) {
			pr := curatedProver(t, tc.game)
			meter := search.NewCounter(context.Background(), pr, search.Budget{})
			p := started(t, meter, 0, tc.opt, 1)
			s := pr.Initial()
			mv, _, err := p.Play(context.Background(), s, search.Budget{})
			if err != nil {
				t.Fatal(err)
			}
			legal, _ := pr.Legal(s, 0, nil)
			if !slices.Contains(legal, mv) {
				t.Fatalf("move %d is not legal", mv)
			}
			st := p.LastStats()
			if used := meter.Used().NextCalls; used != st.NextCalls || used == 0 {
				t.Errorf("the meter counted %d Next calls, the search %d", used, st.NextCalls)
			}
			if tc.opt.usesAnalysis() && (p.Analysis() == nil || !p.Analysis().HasGoalLatches()) {
				t.Errorf("no goal latches found through the prover's rules")
			}
			if tc.opt.VirtualTerminal && p.t.vt == nil {
				t.Errorf("no virtual terminality found through the prover's rules")
			}
		})
	}
}

// TestLocalHintsOnProver: the local-search worker of a prover's tree
// searches on the game's network and attaches its results to the prover's
// state, in the prover's moves: on an endgame with a forced win, a local
// win arrives whose move is the prover's move of that text.
func TestLocalHintsOnProver(t *testing.T) {
	pr := curatedProver(t, "breakthroughSmall")
	var e local.Endgame
	for _, x := range local.Endgames() {
		if x.Name == "two pawns in 3" {
			e = x
		}
	}
	st, err := e.State(pr)
	if err != nil {
		t.Fatal(err)
	}
	seed, err := pr.ParseMove(e.SeedRole, e.Seed)
	if err != nil {
		t.Fatal(err)
	}
	f, err := newFeeder(context.Background(), pr, nil, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	f.start(context.Background())
	defer f.stop()
	f.retarget([]target{{state: st, seedRole: e.SeedRole, seed: seed}})
	role := game.RoleIndex(pr, e.ToMove)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		h := f.lookup(st)
		if h == nil {
			continue
		}
		for _, m := range h.Result.Moves {
			if m.Status != local.Win {
				continue
			}
			if pr.MoveText(role, m.Move) != m.Text || h.Seed != e.Seed {
				t.Fatalf("a local win %q carries the prover's move %q, seed %q", m.Text, pr.MoveText(role, m.Move), h.Seed)
			}
			return
		}
	}
	t.Fatal("no local win reached the prover's state within 10 s")
}
