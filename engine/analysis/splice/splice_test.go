package splice

import (
	"slices"
	"testing"

	"gdlab/engine/game"
	"gdlab/engine/propnet/propnettest"
	"gdlab/engine/prover"
)

const nim = "../../search/factored/testdata/twinnim.kif"

// opaqueSim hides the network simulator under it, so that a Keeper takes
// its general path.
type opaqueSim struct{ game.Simulator }

// TestKeeperHoldsBases: after a move on pile b, a keeper of pile b's
// propositions gives them back their values while the turn marker moves
// on, on a network's simulator (the fast path), on one it cannot see into
// and on the prover's (both by facts).
func TestKeeperHoldsBases(t *testing.T) {
	net := propnettest.Load(t, nim)
	pr, err := prover.Load(nim)
	if err != nil {
		t.Fatal(err)
	}
	props := net.BaseProps()
	var pileB []int
	for i, f := range props {
		if f == "(size b 4)" || f == "(size b 3)" || f == "(size b 2)" {
			pileB = append(pileB, i)
		}
	}
	for name, c := range map[string]struct {
		m   game.Machine
		sim game.Simulator
	}{
		"network": {net, net.NewSimulator()},
		"opaque":  {net, opaqueSim{net.NewSimulator()}},
		"prover":  {pr, game.NewSimulator(pr)},
	} {
		k, err := New(c.m, c.sim, props, pileB)
		if err != nil {
			t.Fatal(err)
		}
		if fast := k.fast != nil; fast != (name == "network") {
			t.Fatalf("%s: fast path %v", name, fast)
		}
		take, _ := c.m.ParseMove(0, "(take b 1)")
		noop, _ := c.m.ParseMove(1, "noop")
		k.Mark()
		if err := c.sim.Play([]game.Move{take, noop}); err != nil {
			t.Fatal(err)
		}
		if err := k.Restore(); err != nil {
			t.Fatal(err)
		}
		want := []string{"(control black)", "(size a 5)", "(size b 4)"}
		if got := c.sim.State().Facts(); !slices.Equal(got, want) {
			t.Errorf("%s: after the kept move, facts %v, want %v", name, got, want)
		}
		// A move on pile a is kept as played: the keeper touches pile b only.
		take, _ = c.m.ParseMove(1, "(take a 2)")
		noop, _ = c.m.ParseMove(0, "noop")
		k.Mark()
		if err := c.sim.Play([]game.Move{noop, take}); err != nil {
			t.Fatal(err)
		}
		if err := k.Restore(); err != nil {
			t.Fatal(err)
		}
		want = []string{"(control white)", "(size a 3)", "(size b 4)"}
		if got := c.sim.State().Facts(); !slices.Equal(got, want) {
			t.Errorf("%s: after a move elsewhere, facts %v, want %v", name, got, want)
		}
	}
}

// TestKeeperRejectsBadBases: a base out of range is an error, not a panic.
func TestKeeperRejectsBadBases(t *testing.T) {
	net := propnettest.Load(t, nim)
	for _, sim := range []game.Simulator{net.NewSimulator(), opaqueSim{net.NewSimulator()}} {
		if _, err := New(net, sim, net.BaseProps(), []int{len(net.BaseProps())}); err == nil {
			t.Errorf("%T: no error for a base out of range", sim)
		}
	}
}
