package mmapprox

import (
	"context"
	"math"
	"slices"
	"testing"

	"gdlab/engine/game"
	"gdlab/engine/propnet/propnettest"
	"gdlab/engine/search"
	"gdlab/engine/search/searchtest"
)

// connectFour returns the propositional network of datasets' connectFour
// and eight states to search from: the initial one and seven random ones.
func connectFour(tb testing.TB) (game.Machine, []game.State) {
	tb.Helper()
	m := propnettest.Curated(tb, "connectFour")
	states, err := searchtest.RandomStates(context.Background(), m, 8, 1)
	if err != nil {
		tb.Fatal(err)
	}
	states[0] = m.Initial()
	return m, states
}

// benchPlayer plays one move with 3000 Next calls from each state in turn
// (as the mover) and reports Next calls per second; MM and AB run in the
// same benchmark binary, so their ratio is the per-call cost ratio.
func benchPlayer(b *testing.B, newPlayer func() search.Player) {
	m, states := connectFour(b)
	ctx := context.Background()
	var seats [2]search.Player
	for role := range seats {
		seats[role] = newPlayer()
		if err := seats[role].Start(ctx, search.Setup{Machine: m, Role: role, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
	var used search.Usage
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s := states[i%len(states)]
		role := 0
		if legal, _ := m.Legal(s, 0, nil); len(legal) == 1 {
			role = 1
		}
		_, rep, err := seats[role].Play(ctx, s, search.Budget{NextCalls: 3000})
		if err != nil {
			b.Fatal(err)
		}
		used = used.Add(rep.Used)
	}
	b.ReportMetric(float64(used.NextCalls)/b.Elapsed().Seconds(), "next/s")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(used.NextCalls), "ns/next")
}

func BenchmarkConnectFour(b *testing.B) {
	b.Run("mm", func(b *testing.B) { benchPlayer(b, func() search.Player { return &Player{P: 10, Eval: Connect4{}} }) })
	b.Run("mmrev", func(b *testing.B) {
		benchPlayer(b, func() search.Player { return &Player{P: 10, Reverse: true, Eval: Connect4{}} })
	})
	b.Run("alphabeta", func(b *testing.B) {
		benchPlayer(b, func() search.Player { return &search.AlphaBeta{Eval: Connect4{}} })
	})
	b.Run("mm-facts", func(b *testing.B) { benchPlayer(b, func() search.Player { return &Player{P: 10, Eval: factsOnly{}} }) })
}

// factsOnly is Connect4 read through Facts, for comparison.
type factsOnly struct{}

func (factsOnly) Evaluate(m game.Machine, s game.State, role int) (float64, error) {
	return Connect4{}.Evaluate(m, s, role)
}

// TestConnect4 checks the 69 segments, and that the network's bits and the
// facts give the same evaluation.
func TestConnect4(t *testing.T) {
	if n := Segments(); n != 69 {
		t.Fatalf("%d segments, want 69", n)
	}
	m, states := connectFour(t)
	e, err := Connect4{}.Prepare(context.Background(), m)
	if err != nil {
		t.Fatal(err)
	}
	if e.(Connect4).bits == nil {
		t.Fatal("no propositions found on the network")
	}
	for _, s := range states {
		for role := 0; role < 2; role++ {
			fast, _ := e.Evaluate(m, s, role)
			slow, _ := Connect4{}.Evaluate(m, s, role)
			if fast != slow || fast <= 0 || fast >= 100 {
				t.Errorf("%v role %d: bits %g, facts %g", s.Facts(), role, fast, slow)
			}
		}
	}
	if v, _ := e.Evaluate(m, m.Initial(), 0); v != 50 {
		t.Errorf("initial state: %g, want 50", v)
	}
}

// board is a state given by its facts only.
type board []string

func (b board) Facts() []string         { return b }
func (b board) Hash() uint64            { return uint64(len(b)) }
func (b board) Equal(o game.State) bool { return false }
func cells(zs ...string) board          { return board(zs) }
func white(v float64, s float64) bool   { return v == 50+49*s/(math.Abs(s)+100) }
func sameScore(a, b float64) bool       { return math.Abs(a-b) < 1e-12 }

// TestConnect4ByHand scores boards counted by hand. Three x in a row along
// the edge, columns 1-3 of row 1: the horizontal segments from columns 1,
// 2, 3 hold 3, 2, 1 of them (50 + 10 + 1), each disc has one vertical and
// one diagonal segment to itself (3 + 3), and none has the other diagonal
// (it would leave the board): S = 67. An o in column 4 of that row kills
// the horizontal segments that hold x and opens segments of its own.
func TestConnect4ByHand(t *testing.T) {
	row := cells("(cell 1 1 x)", "(cell 2 1 x)", "(cell 3 1 x)")
	v, _ := Connect4{}.Evaluate(nil, row, 0)
	if !white(v, 67) {
		t.Errorf("three on the edge: %g, want S = 67", v)
	}
	if b, _ := (Connect4{}).Evaluate(nil, row, 1); !sameScore(b, 100-v) {
		t.Errorf("black's view %g, white's %g", b, v)
	}
	// o at (4,1): of the horizontals through it, those from columns 1-3
	// hold x (dead) and the one from column 4 is its own; it has one
	// vertical, one up-right diagonal and one down-right, (1,4)-(4,1). x
	// keeps 3 verticals + 3 up-right diagonals: S = 6 − 4.
	blocked := append(slices.Clone(row), "(cell 4 1 o)")
	if v, _ := (Connect4{}).Evaluate(nil, blocked, 0); !white(v, 2) {
		t.Errorf("blocked: %g, want S = 2", v)
	}
	// Custom weights and scale.
	e := Connect4{Weights: [3]float64{0, 0, 1}, Scale: 1}
	if v, _ := e.Evaluate(nil, row, 0); !sameScore(v, 50+49*1.0/2) {
		t.Errorf("weights (0, 0, 1), scale 1: %g, want 74.5", v)
	}
}
