package factored

import (
	"context"
	"slices"
	"testing"

	"gdlab/engine/game"
	"gdlab/engine/propnet/propnettest"
	"gdlab/engine/search"
	"gdlab/engine/search/mcts"
)

// TestConditionalFactoring: on latchedpair, the game is one factor until
// p leaves 0. The conditional player searches it whole at the start,
// splits it in two once (p 0) is latched false, does not analyse again
// while the latched facts stay the same, and goes back to the whole game
// when asked to play a state where the fact is not latched. Without the
// switch, the player never splits it.
func TestConditionalFactoring(t *testing.T) {
	ctx := context.Background()
	net := propnettest.Load(t, "testdata/latchedpair.kif")
	p := New(Options{MCTS: mcts.Options{Iterations: 400}, Conditional: true})
	start(t, p, net, 0, 1)
	if p.Factored() {
		t.Fatalf("factored at the start: %s", p.Prepared())
	}
	play := func(s game.State) Stats {
		t.Helper()
		mv, _, err := p.Play(ctx, s, search.Budget{})
		if err != nil {
			t.Fatal(err)
		}
		if legal, _ := net.Legal(s, 0, nil); !slices.Contains(legal, mv) {
			t.Fatalf("played %v, not legal", mv)
		}
		return p.LastStats()
	}
	if st := play(net.Initial()); st.Factored || st.Given != 0 || st.Refactored {
		t.Errorf("the initial state: %+v", st)
	}
	after := next(t, net, net.Initial(), "incp")
	st := play(after)
	t.Logf("after incp: %s; %+v", p.Prepared(), st)
	if !st.Refactored || st.Given == 0 || !st.Factored || len(p.parts) != 2 || !p.Factored() {
		t.Fatalf("after incp, not searched on two conditional factors: %+v", st)
	}
	if st := play(next(t, net, after, "stay")); st.Refactored || st.Analysis != 0 || st.Given == 0 || !st.Factored {
		t.Errorf("the same latched facts analysed again, or the factoring dropped: %+v", st)
	}
	if st := play(net.Initial()); st.Factored || st.Given != 0 || p.Factored() {
		t.Errorf("back at the initial state, still on conditional factors: %+v", st)
	}

	off := New(Options{MCTS: mcts.Options{Iterations: 400}})
	start(t, off, net, 0, 1)
	if _, _, err := off.Play(ctx, after, search.Budget{}); err != nil {
		t.Fatal(err)
	}
	if off.Factored() || off.LastStats().Given != 0 {
		t.Errorf("without the switch, the player factored: %s", off.Prepared())
	}
}

// TestConditionalPlaysLegalMatches: whole matches with the switch on, on
// the game that factors only later, on games that factor from the start,
// and within a time budget that the analysis shares.
func TestConditionalPlaysLegalMatches(t *testing.T) {
	opt := Options{MCTS: mcts.Options{Iterations: 200}, Conditional: true}
	for _, name := range []string{"latchedpair", "twinlights", "twinnim"} {
		m := propnettest.Load(t, "testdata/"+name+".kif")
		for seed := uint64(1); seed <= 2; seed++ {
			playChecked(t, name, m, seed, opt, search.Budget{})
		}
	}
	timed := opt
	timed.MCTS.Iterations = 0
	playChecked(t, "latchedpair timed", propnettest.Load(t, "testdata/latchedpair.kif"), 1, timed, search.Budget{Time: 20e6})
}

// next is the state after the robot's move text in s.
func next(t *testing.T, m game.Machine, s game.State, move string) game.State {
	t.Helper()
	mv, err := m.ParseMove(0, move)
	if err != nil {
		t.Fatal(err)
	}
	out, err := m.Next(s, []game.Move{mv})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestConditionalRestoresAFactoredGame: on latchedtriple, which has two
// factors from the start and three once p has left 0, the player goes
// from two searches to three and back to two when it is asked to play the
// initial state again.
func TestConditionalRestoresAFactoredGame(t *testing.T) {
	ctx := context.Background()
	net := propnettest.Load(t, "testdata/latchedtriple.kif")
	p := New(Options{MCTS: mcts.Options{Iterations: 300}, Conditional: true})
	start(t, p, net, 0, 1)
	if !p.Factored() || len(p.parts) != 2 {
		t.Fatalf("at the start: %s", p.Prepared())
	}
	for _, c := range []struct {
		s     game.State
		parts int
		given bool
	}{{next(t, net, net.Initial(), "incp"), 3, true}, {net.Initial(), 2, false}} {
		if _, _, err := p.Play(ctx, c.s, search.Budget{}); err != nil {
			t.Fatal(err)
		}
		if st := p.LastStats(); len(p.parts) != c.parts || (st.Given > 0) != c.given || !st.Factored {
			t.Errorf("%d searches, stats %+v; want %d, given %v (%s)", len(p.parts), st, c.parts, c.given, p.Prepared())
		}
	}
}
