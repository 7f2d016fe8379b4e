package propnet

import (
	"context"
	"math"
	"math/bits"
	"os"
	"path/filepath"
	"testing"

	"gdlab/engine/game"
)

// TestRejectionDrawUniform: by rejection and by the default draw, from
// lanes in different states of ticTacToe, after 3 and after 6 random moves (so that a lane's legal
// moves are a part of the moves legal in some lane, and with few of them
// some lanes exhaust their tries and count), each lane draws every one of
// its legal moves about equally often: a chi-square test per lane, at a
// level that a correct draw fails about once in a million lanes.
func TestRejectionDrawUniform(t *testing.T) {
	shared := os.Getenv("GDLAB_SHARED") // as the other corpus tests read it
	if shared == "" {
		shared = filepath.Join("..", "..", "..", "shared")
	}
	dir := filepath.Join(shared, "games", "ticTacToe")
	net, err := Load(context.Background(), filepath.Join(dir, "ticTacToe.kif"), Options{})
	if err != nil {
		t.Skip(err)
	}
	f, err := NewFlat(net)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		depth int
		draw  drawKind
	}{{3, drawRejection}, {6, drawRejection}, {3, drawMixed}, {6, drawMixed}} {
		depth := c.depth
		l := f.NewLanes()
		l.draw = c.draw
		rng := game.NewRand(uint64(depth))
		if _, err := l.Playouts(rng, depth); err != nil {
			t.Fatal(err)
		}
		active := ^l.done
		role := depth % 2 // the role to move: xplayer moves first
		const draws = 3000
		counts := map[[2]int]int{} // (lane, input) -> draws
		legal := [64]uint64{}      // per lane: its legal inputs, as bits of cand index
		var cand []int32
		for range draws {
			if err := l.choose(role, active, rng); err != nil {
				t.Fatal(err)
			}
			if cand == nil {
				cand = append([]int32(nil), l.cand...)
				for j, w := range l.candW {
					for ; w != 0; w &= w - 1 {
						legal[bits.TrailingZeros64(w)] |= 1 << j
					}
				}
			}
			for k, i := range l.set[role] {
				for w := l.setW[role][k]; w != 0; w &= w - 1 {
					counts[[2]int{bits.TrailingZeros64(w), int(i)}]++
				}
			}
			l.clearMoves()
		}
		for k := 0; k < 64; k++ {
			if active>>k&1 == 0 {
				continue
			}
			n := bits.OnesCount64(legal[k])
			if n < 2 {
				continue
			}
			want := float64(draws) / float64(n)
			chi := 0.0
			for j, i := range cand {
				c := float64(counts[[2]int{k, int(i)}])
				if legal[k]>>j&1 == 0 {
					if c != 0 {
						t.Fatalf("depth %d lane %d drew move %d, not legal there", depth, k, i)
					}
					continue
				}
				chi += (c - want) * (c - want) / want
			}
			// The 1-in-a-million quantile of chi-square with n-1 <= 8
			// degrees of freedom is below 5*(n-1)+25.
			if limit := 5*float64(n-1) + 25; chi > limit || math.IsNaN(chi) {
				t.Errorf("depth %d lane %d: chi-square %.1f over %d moves (limit %.0f)", depth, k, chi, n, limit)
			}
		}
	}
}
