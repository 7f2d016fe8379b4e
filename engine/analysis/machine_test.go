package analysis_test

import (
	"context"
	"slices"
	"testing"

	"gdlab/engine/analysis"
	"gdlab/engine/game"
	"gdlab/engine/propnet"
	"gdlab/engine/search"
	"gdlab/engine/search/searchtest"
)

// TestNetworkOfAnyMachine finds the network under a metering wrapper and
// builds one from the prover's rules; both have the same base
// propositions.
func TestNetworkOfAnyMachine(t *testing.T) {
	pr, err := searchtest.Curated("ticTacToe")
	if err != nil {
		t.Fatal(err)
	}
	built, err := analysis.Network(context.Background(), search.NewCounter(context.Background(), pr, search.Budget{}))
	if err != nil {
		t.Fatal(err)
	}
	net, err := propnet.Build(context.Background(), pr.Rules(), propnet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	found, err := analysis.Network(context.Background(), search.NewCounter(context.Background(), net, search.Budget{}))
	if err != nil {
		t.Fatal(err)
	}
	if found != net {
		t.Error("the network under a Counter was not returned itself")
	}
	if !slices.Equal(built.BaseProps(), net.BaseProps()) {
		t.Errorf("built network's base propositions differ:\n%v\n%v", built.BaseProps(), net.BaseProps())
	}
	if _, err := analysis.Network(context.Background(), bare{pr}); err == nil {
		t.Error("a machine that neither is nor wraps a network and gives no rules was accepted")
	}
}

// bare hides every method of a machine but the game.Machine contract.
type bare struct{ game.Machine }

// TestHolds reads the same random playout's states through the network's
// bit test and through the prover's facts, and builds the same position
// on both machines with StateOf.
func TestHolds(t *testing.T) {
	pr, err := searchtest.Curated("connectFour")
	if err != nil {
		t.Fatal(err)
	}
	net, err := analysis.Network(context.Background(), pr)
	if err != nil {
		t.Fatal(err)
	}
	props := net.BaseProps()
	ns, ps := game.NewSimulator(net), game.NewSimulator(pr)
	nh, ph := analysis.Holds(ns, props), analysis.Holds(ps, props)
	rng := game.NewRand(7)
	joint := make([]game.Move, len(net.Roles()))
	for step := 0; ; step++ {
		for b := range props {
			if nh(b) != ph(b) {
				t.Fatalf("step %d: %s holds %v on the network, %v on the prover", step, props[b], nh(b), ph(b))
			}
		}
		if done, err := ps.Terminal(); err != nil || done {
			break
		}
		var err error
		if joint, err = ps.RandomJoint(rng, joint); err != nil {
			t.Fatal(err)
		}
		if err := ps.Play(joint); err != nil {
			t.Fatal(err)
		}
		st, err := analysis.StateOf(net, ps.State().Facts())
		if err != nil {
			t.Fatal(err)
		}
		ns.SetState(st)
		back, err := analysis.StateOf(pr, st.Facts())
		if err != nil {
			t.Fatal(err)
		}
		if !back.Equal(ps.State()) {
			t.Fatalf("step %d: StateOf on the prover gave %v, want %v", step, back.Facts(), ps.State().Facts())
		}
	}
	if _, err := analysis.StateOf(net, []string{"(no such fact)"}); err == nil {
		t.Error("the network accepted a fact that is not one of its base propositions")
	}
}
