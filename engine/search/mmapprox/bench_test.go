package mmapprox

import (
	"context"
	"testing"

	"gdlab/datasets"
	"gdlab/engine/game"
	"gdlab/engine/propnet"
	"gdlab/engine/search"
	"gdlab/engine/search/searchtest"
)

// connectFour returns the propositional network of datasets' connectFour
// and eight states to search from: the initial one and seven random ones.
func connectFour(tb testing.TB) (game.Machine, []game.State) {
	tb.Helper()
	g, err := datasets.Game("connectFour")
	if err != nil {
		tb.Fatal(err)
	}
	d, err := g.Description()
	if err != nil {
		tb.Fatal(err)
	}
	m, err := propnet.Build(context.Background(), d, propnet.Options{})
	if err != nil {
		tb.Fatal(err)
	}
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
