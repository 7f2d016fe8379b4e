package mcts

import (
	"context"
	"testing"
	"time"

	"gdlab/engine/game"
	"gdlab/engine/propnet"
	"gdlab/engine/propnet/propnettest"
	"gdlab/engine/search"
	"gdlab/engine/stats"
)

// BenchmarkLeafBatch measures what batches of playouts on lanes give MCTS:
// on connectFour and breakthrough it alternates, in rounds, one-thread
// searches of a fixed time from the initial state, each with a fresh
// player: plain MCTS on the network (net: one playout a leaf, the
// differential simulator), LeafBatch 64 on the network (net-batch64: 64
// playouts a leaf one after another, the fallback), plain MCTS on the
// straight-line machine (flat) and LeafBatch 64 on it (flat-batch64: 64
// playouts a leaf at once, on lanes). Alternating keeps the load of a
// shared machine the same, on average, for all. It reports the medians
// over the rounds of each configuration's playouts and iterations per
// second, and of flat-batch64's rates over net's in the same round.
func BenchmarkLeafBatch(b *testing.B) {
	const rounds, slice = 5, 300 * time.Millisecond
	for _, name := range []string{"connectFour", "breakthrough"} {
		net := propnettest.Curated(b, name)
		f, err := propnet.NewFlat(net)
		if err != nil {
			b.Fatal(err)
		}
		configs := []struct {
			name string
			m    game.Machine
			opt  Options
		}{
			{"net", net, Options{}},
			{"net-batch64", net, Options{LeafBatch: 64}},
			{"flat", f, Options{}},
			{"flat-batch64", f, Options{LeafBatch: 64}},
		}
		b.Run(name, func(b *testing.B) {
			playouts := make([][]float64, len(configs))
			iters := make([][]float64, len(configs))
			var playoutRatio, iterRatio []float64
			for i := 0; i < b.N; i++ {
				for k := 0; k < rounds; k++ {
					for c, cf := range configs {
						p := started(b, cf.m, 0, cf.opt, uint64(k))
						if _, err := p.Search(context.Background(), cf.m.Initial(), search.Budget{Time: slice}); err != nil {
							b.Fatal(err)
						}
						st := p.LastStats()
						playouts[c] = append(playouts[c], float64(st.Playouts)/st.Time.Seconds())
						iters[c] = append(iters[c], st.IterationsPerSecond())
					}
					last := len(playouts[0]) - 1
					playoutRatio = append(playoutRatio, playouts[3][last]/playouts[0][last])
					iterRatio = append(iterRatio, iters[3][last]/iters[0][last])
				}
			}
			for c, cf := range configs {
				b.ReportMetric(median(playouts[c]), "playouts/s-"+cf.name)
				b.ReportMetric(median(iters[c]), "iter/s-"+cf.name)
			}
			b.ReportMetric(median(playoutRatio), "playouts-x")
			b.ReportMetric(median(iterRatio), "iter-x")
		})
	}
}

// BenchmarkLeafBatchDuel is a small strength check at equal time: games
// of connectFour between LeafBatch 64 on the straight-line machine and
// plain MCTS on the network, one thread each, 100 ms a move, seats
// swapped every game, the player to move alone searching. It reports the
// batch player's score (a win 1, a draw 1/2) with its 95% Wilson interval
// over the games (b.N pairs of games, so run it with -benchtime 10x for
// twenty games). The players' machines are their own, unmetered: a
// search.Counter, which the match referee puts around every player's
// machine, hides the batch method.
func BenchmarkLeafBatchDuel(b *testing.B) {
	const perMove = 100 * time.Millisecond
	net := propnettest.Curated(b, "connectFour")
	f, err := propnet.NewFlat(net)
	if err != nil {
		b.Fatal(err)
	}
	points, games := 0.0, 0
	for i := 0; i < b.N; i++ {
		for seat := 0; seat < 2; seat++ {
			batch := started(b, f, seat, Options{LeafBatch: 64}, uint64(2*i+seat))
			plain := started(b, net, 1-seat, Options{}, uint64(2*i+seat))
			players := []*Player{plain, plain}
			players[seat] = batch
			goals := duel(b, net, players, perMove)
			points += float64(goals[seat]) / 100
			games++
		}
	}
	score, lo, hi := stats.Wilson(points, games)
	b.ReportMetric(score, "score")
	b.ReportMetric(lo, "low95")
	b.ReportMetric(hi, "high95")
	b.ReportMetric(float64(games), "games")
}

// duel plays a turn-taking game between players (one per role, each
// started on a machine sharing net's states) at perMove a move and
// returns the goals of its end.
func duel(b *testing.B, net *propnet.Net, players []*Player, perMove time.Duration) []int {
	s := net.Initial()
	for {
		if term, err := net.Terminal(s); err != nil || term {
			return game.Goals(net, s)
		}
		legal, err := game.LegalAll(net, s)
		if err != nil {
			b.Fatal(err)
		}
		joint := make([]game.Move, len(legal))
		for r, p := range players {
			joint[r] = legal[r][0]
			if len(legal[r]) > 1 {
				if joint[r], _, err = p.Play(context.Background(), s, search.Budget{Time: perMove}); err != nil {
					b.Fatal(err)
				}
			}
		}
		if s, err = net.Next(s, joint); err != nil {
			b.Fatal(err)
		}
	}
}
