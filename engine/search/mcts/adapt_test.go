package mcts

import (
	"context"
	"testing"
	"time"

	"gdlab/engine/propnet/propnettest"
	"gdlab/engine/search"
)

// TestAdaptChoosesBySwitchEvidence: under Adapt, Start turns on each switch
// where its analysis applies and leaves it off elsewhere, and a later Start
// on another game decides afresh.
func TestAdaptChoosesBySwitchEvidence(t *testing.T) {
	for _, c := range []struct {
		game                    string
		latches, virtual, local bool
	}{
		{"escortLatchBreakthrough", true, false, true},
		{"dotsAndBoxes", false, true, false},
		{"breakthroughSmall", false, false, true},
		{"ticTacToe", false, false, false},
	} {
		net := propnettest.Curated(t, c.game)
		p := started(t, net, 0, Options{Adapt: true, Iterations: 200}, 1)
		a := p.Adapted()
		if a.Latches != c.latches || a.Virtual != c.virtual || a.Local != c.local {
			t.Errorf("%s: latches %v, virtual %v, local %v; want %v, %v, %v (%s)", c.game, a.Latches, a.Virtual, a.Local, c.latches, c.virtual, c.local, a)
		}
		t.Logf("%s: %s", c.game, a)
		if p.opt.LatchSelect != c.latches || p.opt.VirtualTerminal != c.virtual || p.opt.LocalSearch != c.local {
			t.Errorf("%s: options %+v do not follow the adaptation", c.game, p.opt)
		}
		if _, _, err := p.Play(context.Background(), net.Initial(), search.Budget{}); err != nil {
			t.Errorf("%s: %v", c.game, err)
		}
	}
}

// TestAdaptWithinBudget: analyses cut short by the start budget leave their
// switches off, and the player still plays.
func TestAdaptWithinBudget(t *testing.T) {
	net := propnettest.Curated(t, "escortLatchBreakthrough")
	p := New(Options{Adapt: true, Iterations: 50})
	setup := search.Setup{Machine: net, Seed: 1, Budget: search.Budget{Deadline: time.Now().Add(-time.Second)}}
	if err := p.Start(context.Background(), setup); err != nil {
		t.Fatal(err)
	}
	if a := p.Adapted(); a.Latches || a.Virtual || a.Local || len(a.Why) == 0 {
		t.Errorf("past the deadline: %+v", a)
	}
	if _, _, err := p.Play(context.Background(), net.Initial(), search.Budget{}); err != nil {
		t.Error(err)
	}
}
