package sweep

import (
	"context"
	"testing"
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
