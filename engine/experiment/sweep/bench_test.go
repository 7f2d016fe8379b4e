package sweep

import (
	"context"
	"flag"
	"testing"
	"time"

	"gdlab/engine/experiment/rivest"
)

// benchSpec is 40 Connect Four matches of MCTS against alpha-beta under
// Next-call budgets, about a second of play each on one core.
func benchSpec() *Spec {
	return &Spec{Name: "bench", Games: []string{"connectFour"}, Seeds: 20, Seed: 1,
		Players: []PlayerSpec{
			{Kind: "mcts", Params: map[string]float64{"iterations": 300}},
			{Label: "ab", Kind: "alphabeta", Params: map[string]float64{"nextcalls": 3000}},
		},
		Axes: []Axis{{Param: "mcts.iterations", Values: []float64{200, 400}}}}
}

// BenchmarkRunners plays the same sweep on one local worker, on two, and on
// the embedded Prism runner: the first against the second is what a second
// core gives, the second against the third what the pipeline costs. Run
// them alternated, several times, in one sitting:
//
//	go test ./engine/experiment/sweep -run '^$' -bench Runners -benchtime 1x -count 5
func BenchmarkRunners(b *testing.B) {
	for _, c := range []struct {
		name string
		opt  Options
	}{
		{"local-1", Options{Runner: RunnerLocal, Workers: 1}},
		{"local-2", Options{Runner: RunnerLocal, Workers: 2}},
		{"prism", Options{Runner: RunnerPrism}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := Run(context.Background(), benchSpec(), c.opt); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// rivestOpeningsFlag sets the openings of BenchmarkRivestDirect: 49 is
// notebook 03's full p sweep.
var rivestOpeningsFlag = flag.Int("rivest.openings", 4, "openings of BenchmarkRivestDirect (49: notebook 03's full p sweep)")

// BenchmarkRivestDirect plays notebook 03's sweep of p (seven values at
// the middle move bound, 3000 Next calls, and the middle time bound, 9 ms)
// through rivest.Run's direct loop on two workers and through the sweep on
// the embedded Prism runner, side by side: the second over the first is the
// pipeline's overhead. The full experiment:
//
//	go test ./engine/experiment/sweep -run '^$' -bench RivestDirect -benchtime 1x -count 3 -rivest.openings 49
func BenchmarkRivestDirect(b *testing.B) {
	ps := []float64{1, 2, 5, 10, 20, 50, 1e6}
	bounds := []rivest.Bound{rivest.MoveBounds()[2], rivest.TimeBounds(3 * time.Millisecond)[2]}
	n := *rivestOpeningsFlag
	b.Run("direct", func(b *testing.B) {
		m, err := rivest.Machine(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		for i := 0; i < b.N; i++ {
			for _, bd := range bounds {
				for _, p := range ps {
					if _, _, err := rivest.Run(context.Background(), m, rivest.Config{P: p, Openings: n, Seed: 1, Workers: 2}, []rivest.Bound{bd}); err != nil {
						b.Fatal(err)
					}
				}
			}
		}
	})
	b.Run("prism", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			for _, bd := range bounds {
				spec := rivestSpec(n, float64(bd.Budget.NextCalls), ps...)
				if bd.Kind == "time" {
					for j := range spec.Players {
						spec.Players[j].Params = map[string]float64{"ms": float64(bd.Budget.Time) / float64(time.Millisecond)}
					}
				}
				if _, err := Run(context.Background(), spec, Options{Runner: RunnerPrism}); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}
