package factored

import (
	"context"
	"fmt"
	"os"
	"testing"

	"gdlab/engine/game"
	"gdlab/engine/match"
	"gdlab/engine/propnet/propnettest"
	"gdlab/engine/search"
	"gdlab/engine/search/mcts"
	"gdlab/engine/stats"
)

// nextCalls gives its player a budget of n Next calls at every move,
// whatever the match's clock, so a duel's result depends on its seed
// alone and not on the machine's load.
type nextCalls struct {
	search.Player
	n int64
}

// Play plays with the budget of n Next calls.
func (x nextCalls) Play(ctx context.Context, s game.State, _ search.Budget) (game.Move, search.Report, error) {
	return x.Player.Play(ctx, s, search.Budget{NextCalls: x.n})
}

// BenchmarkDuel plays the factored player against plain MCTS on
// dualConnect4 at equal Next calls a move, 40 games a seating, seed 1,
// two matches at a time, and reports the factored player's outcome score
// (win 100, draw 50, loss 0) with its Wilson 95% interval and its wins,
// draws and losses. A sub-benchmark is a budget and a configuration:
// the defaults, or trees not carried across moves (NoTreeReuse). The
// results depend on the seed only, so a rerun reproduces them exactly;
// each takes one to ten minutes, so the benchmark runs only with
// GDLAB_DUEL=1 (make bench leaves it out). Run one with -benchtime 1x, as in
//
//	GDLAB_DUEL=1 go test ./engine/search/factored -run '^$' -bench 'Duel/^next=50000$/' -benchtime 1x
//
// Plain MCTS's playouts run to the end of the game and a factor's end
// with its board, so at equal Next calls the factored player makes more
// iterations than plain MCTS; at equal time both make about as many
// (BenchmarkFactoredSpeed), which notebook 07's duels measure.
func BenchmarkDuel(b *testing.B) {
	if os.Getenv("GDLAB_DUEL") == "" {
		b.Skip("set GDLAB_DUEL=1 to play the duels (minutes each)")
	}
	net := propnettest.Load(b, corpusGame(b, "dualConnect4"))
	configs := []struct {
		name string
		opt  Options
	}{
		{"default", Options{}},
		{"noreuse", Options{NoTreeReuse: true}},
	}
	for _, n := range []int64{50000, 200000, 500000} {
		for _, c := range configs {
			b.Run(fmt.Sprintf("next=%d/%s", n, c.name), func(b *testing.B) {
				for range b.N {
					t := match.Tournament{Game: "dualConnect4", Machine: net, Games: 40, Seed: 1, Workers: 2, Entrants: []match.Entrant{
						{Name: "factored", New: func() search.Player { return nextCalls{New(c.opt), n} }},
						{Name: "plain", New: func() search.Player { return nextCalls{mcts.New(mcts.Options{}), n} }},
					}}
					tab, err := t.Run(context.Background())
					if err != nil {
						b.Fatal(err)
					}
					reportDuel(b, tab, "factored")
				}
			})
		}
	}
}

// reportDuel reports player's outcome score in the table (win 100, draw
// 50, loss 0), its interval, and its wins, draws and losses.
func reportDuel(b *testing.B, tab *match.Table, player string) {
	for _, st := range match.Standings(tab) {
		if st.Player != player {
			continue
		}
		n := st.Wins + st.Draws + st.Losses
		p, lo, hi := stats.Wilson(float64(st.Wins)+float64(st.Draws)/2, n)
		b.ReportMetric(100*p, "score")
		b.ReportMetric(100*lo, "score-low")
		b.ReportMetric(100*hi, "score-high")
		b.ReportMetric(float64(st.Wins), "wins")
		b.ReportMetric(float64(st.Draws), "draws")
		b.ReportMetric(float64(st.Losses), "losses")
	}
}
