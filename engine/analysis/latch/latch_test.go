package latch

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gdlab/datasets"
	"gdlab/engine/game"
	"gdlab/engine/propnet/propnettest"
)

func latchMap(a *Analysis) map[string]Latch {
	m := map[string]Latch{}
	for _, l := range a.Latches {
		m[l.Fact] = l
	}
	return m
}

func TestLatches(t *testing.T) {
	net := propnettest.Load(t, "testdata/latches.kif")
	a, err := Analyze(context.Background(), net, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range a.Explain() {
		t.Log(line)
	}
	m := latchMap(a)
	want := []struct {
		fact       string
		pos        bool
		structural bool
	}{{"spoiled", true, true}, {"alive", false, true}, {"z", true, false}}
	for _, w := range want {
		l, ok := m[w.fact]
		if !ok {
			t.Errorf("%s: no latch found", w.fact)
			continue
		}
		if l.Positive != w.pos || l.Structural != w.structural {
			t.Errorf("%s: got positive=%v structural=%v, want %v %v", w.fact, l.Positive, l.Structural, w.pos, w.structural)
		}
	}
	for _, f := range []string{"toggle", "u", "v"} {
		if _, ok := m[f]; ok {
			t.Errorf("%s reported as a latch", f)
		}
	}
	// Ranges along a line of play.
	s := net.Initial()
	if lo, hi := a.Range(s, 0); lo != 0 || hi != 100 {
		t.Errorf("initial range [%d,%d], want [0,100]", lo, hi)
	}
	c, _ := net.ParseMove(0, "c")
	s, _ = net.Next(s, []game.Move{c}) // spoiled: 100 gone
	if lo, hi := a.Range(s, 0); lo != 0 || hi != 50 {
		t.Errorf("after c: range [%d,%d], want [0,50]", lo, hi)
	}
	b, _ := net.ParseMove(0, "b")
	s, _ = net.Next(s, []game.Move{b}) // dead: only 0 is left
	if lo, hi := a.Range(s, 0); lo != 0 || hi != 0 {
		t.Errorf("after c b: range [%d,%d], want [0,0]", lo, hi)
	}
}

func TestCorridorAndEscort(t *testing.T) {
	g, _ := datasets.Corridor(6, true)
	net := propnettest.Of(t, g)
	a, err := Analyze(context.Background(), net, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := latchMap(a)["lost"]; !ok {
		t.Fatal("corridor: lost is not a latch")
	}
	wrong, _ := net.ParseMove(0, "a") // the right first move is d
	s, _ := net.Next(net.Initial(), []game.Move{wrong})
	if lo, hi := a.Range(s, 0); lo != 0 || hi != 0 {
		t.Errorf("corridor after a wrong move: [%d,%d], want [0,0]", lo, hi)
	}

	net = propnettest.Curated(t, "escortLatchBreakthrough")
	a, err = Analyze(context.Background(), net, Options{})
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(a.Explain(), "\n")
	t.Log(text)
	for _, f := range []string{"whiteKingCaptured", "blackKingCaptured"} {
		if l, ok := latchMap(a)[f]; !ok || !l.Positive {
			t.Errorf("escort: %s is not a positive latch", f)
		}
	}
	if lo, hi := a.Range(net.Initial(), 0); lo != 0 || hi != 100 {
		t.Errorf("escort initial range [%d,%d]", lo, hi)
	}
}

// TestKeptPairsUntwistyComplex2 reads the corpus's untwistycomplex2, the
// game of Sancho's latch post: p is a positive latch and the goal of 100
// is q8, which is no latch; q8 can become true only while p is false. Without
// kept pairs no goal latch is found; with them, p true and q8 false kill
// the goal of 100 and force the goal of 0.
func TestKeptPairsUntwistyComplex2(t *testing.T) {
	path := filepath.Join("..", "..", "..", "..", "shared", "games", "untwistycomplex2", "untwistycomplex2.kif")
	if dir := os.Getenv("GDLAB_SHARED"); dir != "" {
		path = filepath.Join(dir, "games", "untwistycomplex2", "untwistycomplex2.kif")
	}
	if _, err := os.Stat(path); err != nil {
		t.Skip("shared corpus not found (set GDLAB_SHARED): skipping")
	}
	net := propnettest.Load(t, path)
	plain, err := Analyze(context.Background(), net, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if m := latchMap(plain); !m["p"].Positive || len(plain.GoalLatches) != 0 {
		t.Fatalf("without kept pairs: latches %v, goal latches %v", m, plain.GoalLatches)
	}
	a, err := Analyze(context.Background(), net, Options{KeptPairs: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range a.Explain() {
		t.Log(line)
	}
	kills, forces := false, false
	for _, g := range a.GoalLatches {
		if !g.Kept || len(g.Facts) != 2 || g.Facts[0] != "p" || g.Facts[1] != "q8" || !g.Values[0] || g.Values[1] {
			t.Errorf("unexpected goal latch %+v", g)
		}
		kills = kills || (g.Value == 100 && !g.Forces)
		forces = forces || (g.Value == 0 && g.Forces)
	}
	if !kills || !forces {
		t.Fatalf("goal latches %+v: want p true and q8 false to kill 100 and force 0", a.GoalLatches)
	}
	// Playing a (a wrong action) sets p: the range falls to [0, 0]; the
	// right action h keeps it at [0, 100].
	s := net.Initial()
	h, _ := net.ParseMove(0, "h")
	wrong, _ := net.ParseMove(0, "a")
	right, _ := net.Next(s, []game.Move{h})
	if lo, hi := a.Range(right, 0); lo != 0 || hi != 100 {
		t.Errorf("after h: [%d, %d], want [0, 100]", lo, hi)
	}
	lost, _ := net.Next(s, []game.Move{wrong})
	if lo, hi := a.Range(lost, 0); lo != 0 || hi != 0 {
		t.Errorf("after a: [%d, %d], want [0, 0]", lo, hi)
	}
}

// TestRangesAreSound plays random matches of every curated game and checks
// that each state's range, kept pairs included, contains every role's
// final goal: an unsound latch or kept pair would rule out a value the
// game then reaches.
func TestRangesAreSound(t *testing.T) {
	for _, name := range datasets.List() {
		if testing.Short() && (name == "reversi" || strings.HasPrefix(name, "hex")) {
			continue
		}
		t.Run(name, func(t *testing.T) {
			net := propnettest.Curated(t, name)
			a, err := Analyze(context.Background(), net, Options{KeptPairs: true})
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(1, 2))
			sim := game.NewSimulator(net)
			joint, goals := []game.Move{}, []int{}
			for match := 0; match < 10; match++ {
				var lo, hi [][]int
				if err := sim.SetState(net.Initial()); err != nil {
					t.Fatal(err)
				}
				for steps := 0; ; steps++ {
					l, h := a.Ranges(sim.State(), nil, nil)
					lo, hi = append(lo, l), append(hi, h)
					if done, err := sim.Terminal(); err != nil || done || steps > 500 {
						break
					}
					if joint, err = sim.RandomJoint(rng, joint); err != nil {
						t.Fatal(err)
					}
					if err := sim.Play(joint); err != nil {
						t.Fatal(err)
					}
				}
				if done, _ := sim.Terminal(); !done {
					continue
				}
				if goals, err = sim.Goals(goals); err != nil {
					t.Fatal(err)
				}
				for r, g := range goals {
					for i := range lo {
						if g < lo[i][r] || g > hi[i][r] {
							t.Fatalf("match %d: role %d scores %d, outside the range [%d, %d] of step %d", match, r, g, lo[i][r], hi[i][r], i)
						}
					}
				}
			}
		})
	}
}
