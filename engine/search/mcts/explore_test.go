package mcts

import (
	"context"
	"math"
	"strings"
	"testing"

	"gdlab/engine/game"
	"gdlab/engine/propnet/propnettest"
	"gdlab/engine/search"
)

// TestPolyBonusFormula: the term is C·N^(e/4)/√n, computed here directly
// through exp and log, for several exponents, constants and counts; C
// falls back to Options.C's value (and to its default 0.4).
func TestPolyBonusFormula(t *testing.T) {
	cases := []struct {
		opt  Options
		c    float64 // the constant the term must use
		N, n float64
	}{
		{Options{PolyExplore: 1}, 0.4, 500, 7},
		{Options{PolyExplore: 1, C: 0.9}, 0.9, 500, 7},
		{Options{PolyExplore: 1, PolyExploreC: 1.3, C: 0.9}, 1.3, 500, 7},
		{Options{PolyExplore: 0.5, PolyExploreC: 2}, 2, 1, 1},
		{Options{PolyExplore: 1.9, PolyExploreC: 0.25}, 0.25, 123456, 3},
		{Options{PolyExplore: 0.01, PolyExploreC: 1}, 1, 1e9, 1e8},
	}
	for _, c := range cases {
		want := c.c * math.Exp(c.opt.PolyExplore/4*math.Log(c.N)) / math.Sqrt(c.n)
		got := polyBonus(c.opt.polyScale(int64(c.N)), c.n)
		if math.Abs(got-want) > 1e-12*want {
			t.Errorf("e=%g C=%g (Options.C %g) N=%g n=%g: bonus %.15g, want %.15g",
				c.opt.PolyExplore, c.opt.PolyExploreC, c.opt.C, c.N, c.n, got, want)
		}
	}
}

// TestPolySelects: on a hand-built node, selection maximises mean +
// C·N^(e/4)/√n with the term on and mean + c·√(ln N/n) with it off; the
// statistics are chosen so that the two rules pick different moves.
func TestPolySelects(t *testing.T) {
	visits := []int64{60, 30, 10}
	means := []float64{0.62, 0.58, 0.43} // on the 0..1 scale
	pick := func(opt Options) int {
		tr := &tree{roles: 2, opt: opt}
		nd := node{chooser: 0, moves: [][]game.Move{{0, 1, 2}, {0}}, visits: 100}
		tr.initStats(&nd)
		for i, n := range visits {
			nd.n[0][i], nd.w[0][i] = n, 100*means[i]*float64(n)
		}
		tr.nodes = append(tr.nodes, nd)
		return tr.choose(0, 0)
	}
	argmax := func(bonus func(n float64) float64) int {
		best, bestS := -1, math.Inf(-1)
		for i, n := range visits {
			if s := means[i] + bonus(float64(n)); s > bestS {
				best, bestS = i, s
			}
		}
		return best
	}
	uct := argmax(func(n float64) float64 { return 0.4 * math.Sqrt(math.Log(100)/n) })
	poly := argmax(func(n float64) float64 { return 0.4 * math.Pow(100, 1.0/4) / math.Sqrt(n) })
	if uct == poly {
		t.Fatalf("bad fixture: both rules pick move %d", uct)
	}
	if got := pick(Options{}); got != uct {
		t.Errorf("UCT's term: picked move %d, want %d", got, uct)
	}
	if got := pick(Options{PolyExplore: 1}); got != poly {
		t.Errorf("polynomial term: picked move %d, want %d", got, poly)
	}
}

// TestPolyRefusesBadSettings: an exponent outside (0, 2) or not finite, a
// constant that is negative or not finite, and a constant without the term
// are refused by Start with an error naming the field; none panics, and
// the settings at the edges of the ranges are accepted.
func TestPolyRefusesBadSettings(t *testing.T) {
	net := propnettest.Curated(t, "ticTacToe")
	start := func(opt Options) error {
		return New(opt).Start(context.Background(), search.Setup{Machine: net})
	}
	bad := []Options{
		{PolyExplore: -1}, {PolyExplore: 2}, {PolyExplore: 4}, {PolyExplore: math.NaN()}, {PolyExplore: math.Inf(1)},
		{PolyExplore: 1, PolyExploreC: -0.5}, {PolyExplore: 1, PolyExploreC: math.NaN()},
		{PolyExplore: 1, PolyExploreC: math.Inf(1)}, {PolyExploreC: 1},
	}
	for _, opt := range bad {
		err := start(opt)
		if err == nil || !strings.Contains(err.Error(), "PolyExplore") {
			t.Errorf("PolyExplore %g, PolyExploreC %g: error %v, want one naming the field", opt.PolyExplore, opt.PolyExploreC, err)
		}
	}
	for _, opt := range []Options{{}, {PolyExplore: 1}, {PolyExplore: 1.999, PolyExploreC: 5}, {PolyExplore: 1e-6, PowerMean: 2}} {
		if err := start(opt); err != nil {
			t.Errorf("%+v refused: %v", opt, err)
		}
	}
}

// TestPolyAtPowerOne: with the polynomial term, p = 1 searches exactly as
// the plain backup does (every root statistic, every turn, every
// correction zero), while the term itself changes the search: the same
// seeded searches with UCT's term differ.
func TestPolyAtPowerOne(t *testing.T) {
	for _, name := range []string{"connectFour", "blocker"} {
		net := propnettest.Curated(t, name)
		plain := started(t, net, 0, Options{Iterations: 1000, PolyExplore: 1}, 7)
		power := started(t, net, 0, Options{Iterations: 1000, PolyExplore: 1, PowerMean: 1}, 7)
		uct := started(t, net, 0, Options{Iterations: 1000, PowerMean: 1}, 7)
		s, differs := net.Initial(), false
		for turn := 0; turn < 4; turn++ {
			for _, p := range []*Player{plain, power, uct} {
				if _, err := p.Search(context.Background(), s, search.Budget{}); err != nil {
					t.Fatal(err)
				}
			}
			for r := range net.Roles() {
				a, b, u := plain.Root(r), power.Root(r), uct.Root(r)
				for i := range a {
					if a[i] != b[i] {
						t.Fatalf("%s turn %d role %d move %d: plain backup %+v, p = 1 %+v", name, turn, r, i, a[i], b[i])
					}
					differs = differs || a[i] != u[i]
				}
			}
			for id := range power.t.nodes {
				for r, d := range power.t.nodes[id].delta {
					if d != 0 {
						t.Fatalf("%s turn %d: node %d role %d: correction %g at p = 1", name, turn, id, r, d)
					}
				}
			}
			s = randomNext(t, net, s, uint64(turn))
		}
		if !differs {
			t.Errorf("%s: the polynomial term searched exactly as UCT's term", name)
		}
	}
}

// randomNext plays a seeded random joint move.
func randomNext(t *testing.T, m game.Machine, s game.State, seed uint64) game.State {
	t.Helper()
	sim := game.NewSimulator(m)
	if err := sim.SetState(s); err != nil {
		t.Fatal(err)
	}
	joint, err := sim.RandomJoint(game.NewRand(seed), nil)
	if err != nil {
		t.Fatal(err)
	}
	next, err := m.Next(s, joint)
	if err != nil {
		t.Fatal(err)
	}
	return next
}
