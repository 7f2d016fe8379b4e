package propnet_test

import (
	"context"
	"math/rand/v2"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"gdlab/engine/game"
	"gdlab/engine/propnet"
	"gdlab/engine/propnet/internal/bitboard"
	"gdlab/engine/propnet/internal/draw"
)

// benchGames are the games of the speed targets, with Sancho's published
// single-thread playout rates, and chess_200, which must build and run.
var benchGames = []struct {
	key    string
	sancho float64
}{
	{"ticTacToe", 98_000},
	{"connectFour", 49_000},
	{"breakthrough", 11_200},
	{"breakthroughSmall", 31_000},
	{"reversi", 1_000},
	{"speedChess", 3_800},
	{"hex", 950},
	{"chess_200", 0},
}

func loadBench(b *testing.B, key string) *propnet.Net {
	b.Helper()
	dir := sharedDir(b)
	net, err := propnet.Load(context.Background(), kifPath(dir, key), propnet.Options{})
	if err != nil {
		b.Fatal(err)
	}
	return net
}

// BenchmarkPlayout measures single-thread random playouts from the initial
// state to a terminal state, goals read at the end.
func BenchmarkPlayout(b *testing.B) {
	for _, g := range benchGames {
		b.Run(g.key, func(b *testing.B) {
			net := loadBench(b, g.key)
			sim := net.NewSim()
			rng := game.NewRand(1)
			goals := make([]int, 0, 8)
			steps := 0
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				sim.Reset()
				n, err := sim.Playout(rng, 0)
				if err != nil {
					b.Fatal(err)
				}
				steps += n
				goals, _ = sim.Goals(goals)
			}
			sec := b.Elapsed().Seconds()
			b.ReportMetric(float64(b.N)/sec, "playouts/s")
			b.ReportMetric(float64(steps)/sec, "states/s")
			if g.sancho > 0 {
				b.ReportMetric(float64(b.N)/sec/g.sancho, "x-sancho")
			}
			st := net.Stats()
			b.ReportMetric(float64(st.StateBytes), "state-B")
			b.ReportMetric(float64(st.TotalTime.Microseconds())/1000, "build-ms")
		})
	}
}

func kifPath(dir, key string) string {
	files, _ := filepath.Glob(filepath.Join(dir, "games", key, "*.kif"))
	if len(files) == 1 {
		return files[0]
	}
	return filepath.Join(dir, "games", key, key+".kif")
}

// BenchmarkCeiling runs propnet playouts and hand-written bitboard playouts
// of the same game, interleaved in blocks so that both see the same machine
// load, and reports the propnet's rate as a fraction of the bitboard's.
func BenchmarkCeiling(b *testing.B) {
	b.Run("connectFour", func(b *testing.B) {
		var g bitboard.ConnectFour
		var src *draw.Source
		ceiling(b, "connectFour", func(rng *rand.Rand) {
			if src == nil {
				src = draw.NewSource(rng)
			}
			g.Reset()
			g.Playout(src)
		})
	})
	b.Run("breakthrough", func(b *testing.B) {
		var g bitboard.Breakthrough
		var src *draw.Source
		ceiling(b, "breakthrough", func(rng *rand.Rand) {
			if src == nil {
				src = draw.NewSource(rng)
			}
			g.Reset()
			g.Playout(src)
		})
	})
}

func ceiling(b *testing.B, key string, hand func(*rand.Rand)) {
	net := loadBench(b, key)
	sim := net.NewSim()
	rng := game.NewRand(1)
	var goals []int
	const block = 16
	var pnTime, bbTime time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		for i := 0; i < block; i++ {
			sim.Reset()
			if _, err := sim.Playout(rng, 0); err != nil {
				b.Fatal(err)
			}
			goals, _ = sim.Goals(goals)
		}
		mid := time.Now()
		for i := 0; i < block; i++ {
			hand(rng)
		}
		pnTime += mid.Sub(start)
		bbTime += time.Since(mid)
	}
	pn := float64(b.N*block) / pnTime.Seconds()
	bb := float64(b.N*block) / bbTime.Seconds()
	b.ReportMetric(pn, "propnet-playouts/s")
	b.ReportMetric(bb, "bitboard-playouts/s")
	b.ReportMetric(pn/bb, "fraction")
}

// BenchmarkPlayoutParallel measures total playouts per second with one
// simulator per goroutine on every core (GOMAXPROCS goroutines).
func BenchmarkPlayoutParallel(b *testing.B) {
	for _, g := range benchGames {
		b.Run(g.key, func(b *testing.B) {
			net := loadBench(b, g.key)
			var seed atomic.Uint64
			b.ReportAllocs()
			b.ResetTimer()
			b.RunParallel(func(pb *testing.PB) {
				sim := net.NewSim()
				rng := game.NewRand(seed.Add(1))
				var goals []int
				for pb.Next() {
					sim.Reset()
					if _, err := sim.Playout(rng, 0); err != nil {
						b.Error(err)
						return
					}
					goals, _ = sim.Goals(goals)
				}
			})
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
		})
	}
}
