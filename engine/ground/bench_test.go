package ground_test

import (
	"context"
	"testing"

	"gdlab/engine/gdl"
	"gdlab/engine/ground"
)

// BenchmarkGround measures grounding time on a few corpus games.
func BenchmarkGround(b *testing.B) {
	dir := sharedDir(b)
	for _, key := range []string{"ticTacToe", "connectFour", "breakthrough", "reversi", "speedChess", "hex", "chess_200"} {
		d, err := gdl.ParseFile(kifPath(dir, key))
		if err != nil {
			b.Fatal(err)
		}
		b.Run(key, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := ground.Ground(context.Background(), d, ground.Options{}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
