package mcts

import (
	"context"
	"testing"
	"time"

	"gdlab/engine/game"
	"gdlab/engine/propnet/propnettest"
	"gdlab/engine/search"
	"gdlab/engine/search/local"
)

// TestLocalSearchSwitch plays one move of an endgame with the switch on:
// the worker must attach results to the root, and selection, boosted
// towards the local wins, must choose one of them.
func TestLocalSearchSwitch(t *testing.T) {
	net := propnettest.Curated(t, "breakthroughSmall")
	var e local.Endgame
	for _, x := range local.Endgames() {
		if x.Name == "two pawns in 3" {
			e = x
		}
	}
	st, err := e.State(net)
	if err != nil {
		t.Fatal(err)
	}
	p := New(Options{LocalSearch: true, LocalRetarget: 100 * time.Millisecond})
	role := game.RoleIndex(net, e.ToMove)
	if err := p.Start(context.Background(), search.Setup{Machine: net, Role: role, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	mv, _, err := p.Play(context.Background(), st, search.Budget{Time: 400 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if p.LocalSearches() == 0 || len(p.LocalHints()) == 0 {
		t.Fatalf("no local search ran (%d, %d hints)", p.LocalSearches(), len(p.LocalHints()))
	}
	var wins []string
	for _, h := range p.LocalHints() {
		if !h.State.Equal(st) {
			continue
		}
		for _, m := range h.Result.Moves {
			if m.Status == local.Win {
				wins = append(wins, m.Text)
				if m.Move == mv {
					return
				}
			}
		}
	}
	t.Errorf("played %s, local wins were %v", net.MoveText(role, mv), wins)
}

// TestLocalHintsArriveByDepth checks that the worker publishes each
// iteration as it completes: with a target given twenty seconds, on a midgame position
// that does not resolve soon, hints must appear within two seconds while
// the search is still running.
func TestLocalHintsArriveByDepth(t *testing.T) {
	net := propnettest.Curated(t, "breakthrough")
	f, err := newFeeder(context.Background(), net, 20*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	st := net.Initial()
	rng := game.NewRand(3)
	for i := 0; i < 16; i++ {
		joint := make([]game.Move, 2)
		for r := range joint {
			ms, _ := net.Legal(st, r, nil)
			joint[r] = ms[rng.IntN(len(ms))]
		}
		if st, err = net.Next(st, joint); err != nil {
			t.Fatal(err)
		}
	}
	f.start()
	defer f.stop()
	f.retarget([]target{{state: st, seedRole: 1, seed: game.NoMove}})
	deadline := time.Now().Add(2 * time.Second)
	for time.Now().Before(deadline) {
		if h := f.lookup(st); h != nil {
			if f.searches.Load() != 0 {
				t.Fatal("the search ended early: the position no longer tests progress")
			}
			if st := h.Result.Stats; st.WinDepth+st.LossDepth < 1 || len(h.Result.Moves) != len(h.status) {
				t.Errorf("hint after no iteration (depths %d/%d) or with %d moves, %d statuses", st.WinDepth, st.LossDepth, len(h.Result.Moves), len(h.status))
			}
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Error("no hint within 2s of a 20s search")
}
