package local

import (
	"context"
	"fmt"
	"os"
	"strconv"
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

// BenchmarkLocalDepth measures what notebook 06 reports: the depth N
// completed (for both roles) by one search with a time budget on one
// thread, from the positions after 16 seeded random plies (seeds 1-3, or
// 1 to GDLAB_LOCAL_POSITIONS), the last move as the seed. The budget is
// GDLAB_LOCAL_BUDGET (a duration, default 1s; the notebook's figure is
// 15s). Run it with -benchtime=1x: each position is searched once per
// iteration. The metric "resolved" is 1 when the search resolved every
// move before the budget ran out (its N then says nothing of depth).
func BenchmarkLocalDepth(b *testing.B) {
	budget := time.Second
	if v := os.Getenv("GDLAB_LOCAL_BUDGET"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil {
			b.Fatal(err)
		}
		budget = d
	}
	depthPositions(b, Options{}, search.Budget{Time: budget}, func(b *testing.B, st Stats) {
		resolved := 0.0
		if st.Stopped == search.StopNone {
			resolved = 1
		}
		b.ReportMetric(resolved, "resolved")
		b.ReportMetric(float64(st.Depth), "N")
		b.ReportMetric(float64(st.Plies()), "plies")
		b.ReportMetric(float64(st.WinDepth), "win-N")
		b.ReportMetric(float64(st.WinPlies()), "win-plies")
		if n := len(st.DepthTime); n > 0 {
			b.ReportMetric(st.DepthTime[n-1].Seconds(), "s-to-N")
		}
	})
}

// BenchmarkLocalStates measures the work to complete N=6 for both roles
// from the positions of BenchmarkLocalDepth: states generated (the same
// on every machine and run, so a change's effect on the search shows
// without timing noise) and the time and states per second it took.
func BenchmarkLocalStates(b *testing.B) {
	depthPositions(b, Options{MaxDepth: 6}, search.Budget{}, func(b *testing.B, st Stats) {
		b.ReportMetric(float64(st.Nodes), "states")
	})
}

// depthPositions runs one search per iteration from each depth-test
// position with a new searcher, reporting states per second and what
// report adds.
func depthPositions(b *testing.B, opt Options, budget search.Budget, report func(*testing.B, Stats)) {
	positions := uint64(3)
	if v := os.Getenv("GDLAB_LOCAL_POSITIONS"); v != "" {
		n, err := strconv.ParseUint(v, 10, 8)
		if err != nil || n == 0 {
			b.Fatalf("GDLAB_LOCAL_POSITIONS=%q: want a count from 1 to 255", v)
		}
		positions = n
	}
	for _, name := range []string{"breakthroughSmall", "breakthrough"} {
		f := newFixture(b, name)
		for seed := uint64(1); seed <= positions; seed++ {
			b.Run(fmt.Sprintf("%s/%d", name, seed), func(b *testing.B) {
				st, r, m := midgame(b, f, seed, 16)
				for i := 0; i < b.N; i++ {
					s, _ := New(f.net, f.d, opt)
					res, err := s.Search(context.Background(), st, r, m, budget)
					if err != nil {
						b.Fatal(err)
					}
					report(b, res.Stats)
					b.ReportMetric(float64(res.Stats.Nodes)/res.Stats.Elapsed.Seconds(), "nodes/s")
				}
			})
		}
	}
}
