package prover_test

import (
	"context"
	"path/filepath"
	"testing"

	"gdlab/engine/game"
	"gdlab/engine/prover"
)

// benchPlayouts measures random matches from the initial state to the end.
func benchPlayouts(b *testing.B, key string) {
	dir := sharedDir(b)
	files, _ := filepath.Glob(filepath.Join(dir, "games", key, "*.kif"))
	if len(files) != 1 {
		b.Skipf("game %s not found", key)
	}
	pr, err := prover.Load(files[0])
	if err != nil {
		b.Fatal(err)
	}
	rng := game.NewRand(1)
	b.ReportAllocs()
	steps := 0
	for b.Loop() {
		res, err := game.Playout(context.Background(), pr, pr.Initial(), rng, 0)
		if err != nil {
			b.Fatal(err)
		}
		steps += res.Steps
	}
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "states/s")
}

func BenchmarkPlayoutTicTacToe(b *testing.B)    { benchPlayouts(b, "ticTacToe") }
func BenchmarkPlayoutConnectFour(b *testing.B)  { benchPlayouts(b, "connectFour") }
func BenchmarkPlayoutBreakthrough(b *testing.B) { benchPlayouts(b, "breakthrough") }
