package search_test

import (
	"context"
	"testing"

	"gdlab/datasets"
	"gdlab/engine/game"
	"gdlab/engine/heuristic"
	"gdlab/engine/propnet"
	"gdlab/engine/prover"
	"gdlab/engine/search"
	"gdlab/engine/search/playertest"
	"gdlab/engine/search/searchtest"
)

// benchStates returns the initial connectFour state and seven random ones.
func benchStates(b *testing.B) (game.Machine, []game.State) {
	m := playertest.Shared(b, "connectFour")
	states, err := searchtest.RandomStates(context.Background(), m, 8, 1)
	if err != nil {
		b.Fatal(err)
	}
	states[0] = m.Initial()
	return m, states
}

// report adds the throughput metrics quoted in docs/: node expansions and
// Next calls per second of search.
func report(b *testing.B, used search.Usage) {
	sec := b.Elapsed().Seconds()
	b.ReportMetric(float64(used.Nodes)/sec, "nodes/s")
	b.ReportMetric(float64(used.NextCalls)/sec, "next/s")
	b.ReportMetric(float64(used.Nodes)/float64(b.N), "nodes/op")
}

// benchAlphaBeta plays one move, deepening to depth, from each of the
// benchmark positions in turn, with one player started once, as in a match.
func benchAlphaBeta(b *testing.B, depth int, ab *search.AlphaBeta) {
	m, states := benchStates(b)
	ctx := context.Background()
	ab.MaxDepth = depth
	if err := ab.Start(ctx, search.Setup{Machine: m, Seed: 1}); err != nil {
		b.Fatal(err)
	}
	var used search.Usage
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		_, rep, err := ab.Play(ctx, states[i%len(states)], search.Budget{})
		if err != nil {
			b.Fatal(err)
		}
		used = used.Add(rep.Used)
	}
	report(b, used)
}

func BenchmarkAlphaBetaConnectFour(b *testing.B) {
	b.Run("depth4", func(b *testing.B) { benchAlphaBeta(b, 4, &search.AlphaBeta{}) })
	b.Run("depth4-plain", func(b *testing.B) { benchAlphaBeta(b, 4, &search.AlphaBeta{NoTable: true, NoOrdering: true}) })
	b.Run("depth4-mobility", func(b *testing.B) { benchAlphaBeta(b, 4, &search.AlphaBeta{Eval: heuristic.Mobility{}}) })
	b.Run("depth6", func(b *testing.B) { benchAlphaBeta(b, 6, &search.AlphaBeta{}) })
}

// BenchmarkMinimaxConnectFour is the unpruned baseline at depth 3 on the
// same positions.
func BenchmarkMinimaxConnectFour(b *testing.B) {
	m, states := benchStates(b)
	ctx := context.Background()
	var used search.Usage
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		_, u, err := search.MinimaxValue(ctx, m, states[i%len(states)], 0, 3, nil, search.Budget{})
		if err != nil {
			b.Fatal(err)
		}
		used = used.Add(u)
	}
	report(b, used)
}

// curated returns a reasoner for a curated game: the prover, or the
// propositional network built from the same rules.
func curated(tb testing.TB, name string, network bool) game.Machine {
	tb.Helper()
	rs, err := datasets.Game(name)
	if err != nil {
		tb.Fatal(err)
	}
	d, err := rs.Description()
	if err != nil {
		tb.Fatal(err)
	}
	if network {
		net, err := propnet.Build(context.Background(), d, propnet.Options{})
		if err != nil {
			tb.Fatal(err)
		}
		return net
	}
	m, err := prover.New(d)
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// BenchmarkAlphaBetaReasoners compares alpha-beta's node rate on
// connectFour (datasets, so it runs on a bare checkout) with the two
// reasoners: one move deepening to depth 4 from each of eight positions in
// turn, by a player started afresh (untimed) for every move, so that its
// transposition table starts empty and every op searches.
func BenchmarkAlphaBetaReasoners(b *testing.B) {
	for _, r := range []struct {
		name    string
		network bool
	}{{"prover", false}, {"propnet", true}} {
		b.Run(r.name, func(b *testing.B) {
			m := curated(b, "connectFour", r.network)
			states, err := searchtest.RandomStates(context.Background(), m, 8, 1)
			if err != nil {
				b.Fatal(err)
			}
			states[0] = m.Initial()
			var used search.Usage
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer() // a fresh player, so the table holds nothing from the last op
				ab := &search.AlphaBeta{MaxDepth: 4}
				if err := ab.Start(context.Background(), search.Setup{Machine: m, Seed: uint64(i)}); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				_, rep, err := ab.Play(context.Background(), states[i%len(states)], search.Budget{})
				if err != nil {
					b.Fatal(err)
				}
				used = used.Add(rep.Used)
			}
			report(b, used)
		})
	}
}
