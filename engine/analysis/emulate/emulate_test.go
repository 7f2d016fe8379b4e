package emulate

import (
	"context"
	"strings"
	"testing"

	"gdlab/datasets"
	"gdlab/engine/game/gametest"
	"gdlab/engine/gdl"
	"gdlab/engine/propnet"
	"gdlab/engine/propnet/propnettest"
)

// emulateFile runs Analyze on a test game with 1,000 verification matches.
func emulateFile(t *testing.T, path string) (*propnet.Net, *Emulation) {
	t.Helper()
	net := propnettest.Load(t, path)
	em, err := Analyze(context.Background(), net, nil, Options{Verify: VerifyOptions{Seed: 7}, Heuristic: VerifyOptions{Matches: 300, Seed: 7}})
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range em.Explain() {
		t.Log(line)
	}
	return net, em
}

// accepted returns the names of the accepted hypotheses.
func acceptedNames(em *Emulation) []string {
	var out []string
	for _, v := range em.Accepted() {
		out = append(out, v.Hypothesis.Name())
	}
	return out
}

func wantAccepted(t *testing.T, em *Emulation, want ...string) {
	t.Helper()
	got := acceptedNames(em)
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("accepted %q, want %q", got, want)
	}
}

func TestDetectMajority(t *testing.T) {
	_, em := emulateFile(t, "testdata/count/majority.kif")
	wantAccepted(t, em, "(a) majority of (cell * white) vs (cell * black)")
	for _, v := range em.Verdicts {
		if !v.Accepted && v.Hypothesis.Family == "cell/2" && v.First == nil && v.Hypothesis.Form != Majority {
			t.Errorf("%s rejected without a counterexample: %s", v.Hypothesis.Name(), v.Why)
		}
		if v.Matches != 1000 {
			t.Errorf("%s: %d matches, want 1000", v.Hypothesis.Name(), v.Matches)
		}
	}
	if em.Virtual == nil {
		t.Fatal("no virtual terminality: claimed cells are latches of a fixed set of three")
	}
}

func TestDetectCardinality(t *testing.T) {
	_, em := emulateFile(t, "testdata/count/lights.kif")
	wantAccepted(t, em, "(b) cardinality of (on *)")
	if em.Virtual != nil || em.Own != nil {
		t.Errorf("lights go off again: no virtual terminality or ownership heuristic, got %v %v", em.Virtual, em.Own)
	}
}

func TestDetectCompare(t *testing.T) {
	net, em := emulateFile(t, "testdata/count/compare.kif")
	wantAccepted(t, em, "(c) compare of (cell * white) vs (cell * black)")
	if em.Goal == nil || em.Goal.Hypothesis.Table[0] != [3]int{100, 50, 0} {
		t.Fatalf("goal table %v, want ahead 100, equal 50, behind 0", em.Goal)
	}
	// white claims 1, black passes, white claims 2: 2 against 0, one cell left.
	s := gametest.Play(t, net, net.Initial(), []string{"(claim 1)", "noop"}, []string{"noop", "noop"}, []string{"(claim 2)", "noop"})
	if g, ok := em.Virtual.DecidedState(s); !ok || g[0] != 100 || g[1] != 0 {
		t.Errorf("2-0 with one cell left: decided=%v goals %v, want decided 100/0", ok, g)
	}
	s = gametest.Play(t, net, net.Initial(), []string{"(claim 1)", "noop"}, []string{"noop", "(claim 2)"})
	if g, ok := em.Virtual.DecidedState(s); ok {
		t.Errorf("1-1 with one cell left is not decided, got %v", g)
	}
}

func TestDetectHeld(t *testing.T) {
	_, em := emulateFile(t, "testdata/count/held.kif")
	wantAccepted(t, em, "(c+d) compare of (score white #) vs (score black #)")
	if em.Virtual != nil {
		t.Error("held scores have no fixed total: virtual terminality is not justified")
	}
}

func TestDetectNone(t *testing.T) {
	for _, f := range []string{"corner.kif", "misere.kif"} {
		t.Run(f, func(t *testing.T) {
			_, em := emulateFile(t, "testdata/count/"+f)
			wantAccepted(t, em)
			if em.Goal != nil || em.Virtual != nil || em.Own != nil {
				t.Error("inferences drawn without an accepted hypothesis")
			}
			if len(em.Verdicts) == 0 {
				t.Error("no hypothesis proposed: the cell family should be tried")
			}
		})
	}
}

// TestMachine runs the contract and differential tests on the
// emulating machine of every test game with an accepted hypothesis, and of
// the curated dotsAndBoxes and reversiSmall.
func TestMachine(t *testing.T) {
	for _, f := range []string{"majority", "compare", "lights", "held"} {
		t.Run(f, func(t *testing.T) {
			net, em := emulateFile(t, "testdata/count/"+f+".kif")
			d, err := gdl.ParseFile("testdata/count/" + f + ".kif")
			if err != nil {
				t.Fatal(err)
			}
			checkEmulated(t, net, d, em, 50)
		})
	}
	for _, name := range []string{"dotsAndBoxes", "reversiSmall"} {
		t.Run(name, func(t *testing.T) {
			net := propnettest.Curated(t, name)
			em, err := Analyze(context.Background(), net, nil, Options{Verify: VerifyOptions{Matches: 100}, Heuristic: VerifyOptions{Matches: 100}})
			if err != nil {
				t.Fatal(err)
			}
			g, _ := datasets.Game(name)
			d, _ := g.Description()
			checkEmulated(t, net, d, em, 10)
		})
	}
}

func checkEmulated(t *testing.T, net *propnet.Net, d *gdl.Description, em *Emulation, matches int) {
	t.Helper()
	m, err := NewMachine(context.Background(), d, em, propnet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if st, full := m.Net().Stats().Optimized, net.Stats().Optimized; st.Ands+st.Ors >= full.Ands+full.Ors {
		t.Errorf("the network without goals has %d gates, the full one %d", st.Ands+st.Ors, full.Ands+full.Ors)
	}
	gametest.Conform(t, m, matches, 200)
	seeds := make([]int64, matches)
	for i := range seeds {
		seeds[i] = int64(100 + i)
	}
	gametest.Compare(t, net, m, seeds, 200)
}

func TestNoEmulationWithoutHypothesis(t *testing.T) {
	d, err := gdl.ParseFile("testdata/count/corner.kif")
	if err != nil {
		t.Fatal(err)
	}
	_, em := emulateFile(t, "testdata/count/corner.kif")
	if _, err := NewMachine(context.Background(), d, em, propnet.Options{}); err != ErrNoEmulation {
		t.Errorf("got %v, want ErrNoEmulation", err)
	}
}

func TestVerifyRejectsWithCounterexample(t *testing.T) {
	net := propnettest.Load(t, "testdata/count/compare.kif")
	hyps, err := Hypothesize(context.Background(), net, HypothesizeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	vs, err := Verify(context.Background(), net, hyps, VerifyOptions{Matches: 50, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		if v.Hypothesis.Form == Cardinality && v.Hypothesis.Family == "cell/2" {
			if v.Accepted || v.First == nil {
				t.Fatalf("cardinality of cells accepted or without counterexample: %s", v.Why)
			}
			// The initial state: 0 cells each, goal 50.
			if c := v.First; c.Match != 0 || c.Step != 0 || c.Network != 50 || c.Hypothesis != 0 {
				t.Errorf("first counterexample %v, want match 0 step 0: network 50, hypothesis 0", c)
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	vs, err = Verify(ctx, net, hyps, VerifyOptions{Matches: 50})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		if v.Accepted {
			t.Errorf("%s accepted without a sample", v.Hypothesis.Name())
		}
	}
}
