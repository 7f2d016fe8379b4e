package factored

import (
	"context"
	"sort"
	"testing"
	"time"

	"gdlab/engine/propnet/propnettest"
	"gdlab/engine/search"
	"gdlab/engine/search/mcts"
)

// BenchmarkFactoredSpeed compares, side by side, the factored player's
// searches with plain MCTS at the start of two-player games that factor:
// it alternates 0.3 s moves of each, a fresh player every time, nine
// pairs a run, and reports the medians of the pairs' ratios of iterations
// per second (iter-ratio) and of Next calls per second (next-ratio: a
// factor's playouts end with its board, so they are shorter than the
// whole game's), with the medians of each player's iterations per second.
// The factored player's iterations are those of all its factors' searches
// in the move.
func BenchmarkFactoredSpeed(b *testing.B) {
	const pairs, slice = 9, 300 * time.Millisecond
	for _, key := range []string{"dualConnect4", "double_tictactoe_dengji"} {
		net := propnettest.Load(b, corpusGame(b, key))
		b.Run(key, func(b *testing.B) {
			var its, nexts, fs, ps []float64
			for i := 0; i < b.N; i++ {
				for k := 0; k < pairs; k++ {
					p := New(Options{})
					start(b, p, net, 0, uint64(k))
					if _, _, err := p.Play(context.Background(), net.Initial(), search.Budget{Time: slice}); err != nil {
						b.Fatal(err)
					}
					var fi, fn int64
					for _, ms := range p.LastStats().Searches {
						fi, fn = fi+ms.Iterations, fn+ms.NextCalls
					}
					q := mcts.New(mcts.Options{})
					start(b, q, net, 0, uint64(k))
					if _, err := q.Search(context.Background(), net.Initial(), search.Budget{Time: slice}); err != nil {
						b.Fatal(err)
					}
					qs := q.LastStats()
					its = append(its, float64(fi)/float64(qs.Iterations))
					nexts = append(nexts, float64(fn)/float64(qs.NextCalls))
					fs = append(fs, float64(fi)/slice.Seconds())
					ps = append(ps, qs.IterationsPerSecond())
				}
			}
			b.ReportMetric(median(its), "iter-ratio")
			b.ReportMetric(median(nexts), "next-ratio")
			b.ReportMetric(median(fs), "iter/s-factored")
			b.ReportMetric(median(ps), "iter/s-plain")
		})
	}
}

// median returns the middle value of xs (the upper one of an even count).
func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}
