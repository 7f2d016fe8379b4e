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
