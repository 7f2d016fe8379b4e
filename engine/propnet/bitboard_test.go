package propnet_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"gdlab/engine/game"
	"gdlab/engine/propnet"
	"gdlab/engine/propnet/internal/bitboard"
)

// TestBitboardsMatchCorpus plays random games with the hand-written
// simulators and the propnet side by side, comparing the legal moves of the
// side to move at every step and the goals at the end, so that the
// benchmark ceiling plays the same game as the corpus.
func TestBitboardsMatchCorpus(t *testing.T) {
	dir := sharedDir(t)
	ctx := context.Background()
	c4, err := propnet.Load(ctx, kifPath(dir, "connectFour"), propnet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	bt, err := propnet.Load(ctx, kifPath(dir, "breakthrough"), propnet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rng := game.NewRand(7)
	for i := 0; i < 40; i++ {
		compareConnectFour(t, c4, rng.IntN)
		compareBreakthrough(t, bt, rng.IntN)
	}
}

func compareConnectFour(t *testing.T, net *propnet.Net, intn func(int) int) {
	var g bitboard.ConnectFour
	g.Reset()
	sim := net.NewSim()
	for {
		var want []string
		for _, c := range g.Open(nil) {
			want = append(want, fmt.Sprintf("(drop %d)", c+1))
		}
		slices.Sort(want)
		mover := g.Turn()
		got := game.MovesText(net, mover, must(sim.Legal(mover, nil)))
		if !slices.Equal(got, want) {
			t.Fatalf("connectFour: propnet legal %v, bitboard %v", got, want)
		}
		pick := want[intn(len(want))]
		joint := make([]game.Move, 2)
		for r := range joint {
			text := "noop"
			if r == mover {
				text = pick
			}
			joint[r], _ = net.ParseMove(r, text)
		}
		var c int
		fmt.Sscanf(pick, "(drop %d)", &c)
		red, black, over := g.Drop(c - 1)
		sim.Play(joint)
		if must(sim.Terminal()) != over {
			t.Fatalf("connectFour: propnet terminal %v, bitboard %v", must(sim.Terminal()), over)
		}
		if over {
			if gs := must(sim.Goals(nil)); gs[0] != red || gs[1] != black {
				t.Fatalf("connectFour: propnet goals %v, bitboard %d %d", gs, red, black)
			}
			return
		}
	}
}

func compareBreakthrough(t *testing.T, net *propnet.Net, intn func(int) int) {
	var g bitboard.Breakthrough
	g.Reset()
	sim := net.NewSim()
	text := func(m bitboard.Move) string {
		return fmt.Sprintf("(move %d %d %d %d)", m.From%8+1, m.From/8+1, m.To%8+1, m.To/8+1)
	}
	for {
		moves := g.Moves(nil)
		slices.SortFunc(moves, func(a, b bitboard.Move) int {
			if text(a) < text(b) {
				return -1
			}
			return 1
		})
		want := make([]string, len(moves))
		for i, m := range moves {
			want[i] = text(m)
		}
		mover := g.Turn()
		got := game.MovesText(net, mover, must(sim.Legal(mover, nil)))
		if !slices.Equal(got, want) {
			t.Fatalf("breakthrough: propnet legal %v, bitboard %v", got, want)
		}
		m := moves[intn(len(moves))]
		joint := make([]game.Move, 2)
		for r := range joint {
			s := "noop"
			if r == mover {
				s = text(m)
			}
			joint[r], _ = net.ParseMove(r, s)
		}
		white, black, over := g.Play(m)
		sim.Play(joint)
		if must(sim.Terminal()) != over {
			t.Fatalf("breakthrough: propnet terminal %v, bitboard %v", must(sim.Terminal()), over)
		}
		if over {
			if gs := must(sim.Goals(nil)); gs[0] != white || gs[1] != black {
				t.Fatalf("breakthrough: propnet goals %v, bitboard %d %d", gs, white, black)
			}
			return
		}
	}
}
