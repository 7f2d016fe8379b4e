package local

import (
	"context"
	"testing"
	"time"

	"gdlab/engine/game"
	"gdlab/engine/search"
)

// midgame returns the state after plies seeded random joint moves and the
// last move played (by the role that moved).
func midgame(t testing.TB, f *fixture, seed uint64, plies int) (game.State, int, game.Move) {
	t.Helper()
	rng := game.NewRand(seed)
	st := f.net.Initial()
	lastRole, last := 1, game.NoMove
	for i := 0; i < plies; i++ {
		joint := make([]game.Move, 2)
		for r := 0; r < 2; r++ {
			ms, _ := f.net.Legal(st, r, nil)
			joint[r] = ms[rng.IntN(len(ms))]
			if len(ms) > 1 {
				lastRole, last = r, joint[r]
			}
		}
		next, err := f.net.Next(st, joint)
		if err != nil {
			t.Fatal(err)
		}
		if over, _ := f.net.Terminal(next); over {
			break
		}
		st = next
	}
	return st, lastRole, last
}

// BenchmarkLocalSearch measures states generated per second by a search
// bounded by nodes from a breakthrough midgame position.
func BenchmarkLocalSearch(b *testing.B) {
	for _, name := range []string{"breakthroughSmall", "breakthrough"} {
		b.Run(name, func(b *testing.B) {
			f := newFixture(b, name)
			st, r, m := midgame(b, f, 3, 20)
			s, _ := New(f.net, f.d, Options{})
			b.ReportAllocs()
			b.ResetTimer()
			var nodes int64
			start := time.Now()
			for i := 0; i < b.N; i++ {
				res, err := s.Search(context.Background(), st, r, m, search.Budget{Nodes: 200000})
				if err != nil {
					b.Fatal(err)
				}
				nodes += res.Stats.Nodes
			}
			b.ReportMetric(float64(nodes)/time.Since(start).Seconds(), "nodes/s")
		})
	}
}
