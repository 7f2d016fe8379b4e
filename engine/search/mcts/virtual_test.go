package mcts

import (
	"context"
	"testing"

	"gdlab/datasets"
	"gdlab/engine/analysis/emulate"
	"gdlab/engine/game/gametest"
	"gdlab/engine/propnet"
	"gdlab/engine/propnet/propnettest"
	"gdlab/engine/search"
)

// TestVirtualTerminalSolvesDecidedRoot: in the compare test game, 2 cells
// against 0 with one left is decided; with switch 5 the root's children
// are solved leaves at once, so the root is solved after one expansion per
// child; without it, the search expands deeper before solving the root.
func TestVirtualTerminalSolvesDecidedRoot(t *testing.T) {
	net := propnettest.Load(t, "../../analysis/emulate/testdata/count/compare.kif")
	s := gametest.Play(t, net, net.Initial(), []string{"(claim 1)", "noop"}, []string{"noop", "noop"}, []string{"(claim 2)", "noop"})
	expansions := map[bool]int64{}
	for _, on := range []bool{false, true} {
		p := started(t, net, 0, Options{Iterations: 500, VirtualTerminal: on}, 1)
		if _, err := p.Search(context.Background(), s, search.Budget{}); err != nil {
			t.Fatal(err)
		}
		st := p.LastStats()
		if !st.RootSolved || st.RootValue[0] != 100 || st.RootValue[1] != 0 {
			t.Fatalf("virtual=%v: root solved=%v value %v, want solved 100/0", on, st.RootSolved, st.RootValue)
		}
		expansions[on] = st.Expansions
	}
	if expansions[true] >= expansions[false] {
		t.Errorf("expansions with virtual terminality %d, without %d: want fewer", expansions[true], expansions[false])
	}
	if p := New(Options{VirtualTerminal: true, LatchWin: true}); p.Name() != "mcts+latch(2)+virtual" {
		t.Errorf("name %q", p.Name())
	}
}

// TestEmulatedMachinePlayouts: MCTS on Dots and Boxes' emulating machine
// (goals emulated, playouts on the network without goals) and switch 5
// spends fewer Next calls per iteration than plain MCTS on the network.
func TestEmulatedMachinePlayouts(t *testing.T) {
	net := propnettest.Curated(t, "dotsAndBoxes")
	em, err := emulate.Analyze(context.Background(), net, nil, emulate.Options{Verify: emulate.VerifyOptions{Matches: 100}, Heuristic: emulate.VerifyOptions{Matches: 50}})
	if err != nil {
		t.Fatal(err)
	}
	g, _ := datasets.Game("dotsAndBoxes")
	d, _ := g.Description()
	m, err := emulate.NewMachine(context.Background(), d, em, propnet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	perIter := map[bool]float64{}
	for _, on := range []bool{false, true} {
		p := started(t, m, 0, Options{Iterations: 300, VirtualTerminal: on}, 3)
		if _, _, err := p.Play(context.Background(), m.Initial(), search.Budget{}); err != nil {
			t.Fatal(err)
		}
		st := p.LastStats()
		perIter[on] = float64(st.NextCalls) / float64(st.Iterations)
	}
	if perIter[true] >= perIter[false] {
		t.Errorf("Next calls per iteration: %.1f with virtual terminality, %.1f without: want fewer", perIter[true], perIter[false])
	}
}
