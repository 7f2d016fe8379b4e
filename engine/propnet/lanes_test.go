package propnet_test

import (
	"context"
	"slices"
	"testing"

	"gdlab/engine/game"
	"gdlab/engine/propnet"
)

// TestLanes steps 64 lanes one joint move at a time and checks that each
// lane's new state follows from its previous one by some legal joint move
// (the network's Next), that a lane stops exactly when the network calls
// its state terminal, that lanes diverge, and that the goals of the final
// states are the network's.
func TestLanes(t *testing.T) {
	dir := sharedDir(t)
	for _, key := range flatGames {
		t.Run(key, func(t *testing.T) {
			net, err := buildNet(dir, key)
			if err != nil {
				t.Fatal(err)
			}
			f, err := propnet.NewFlat(net)
			if err != nil {
				t.Fatal(err)
			}
			checkLanes(t, net, f.NewLanes(), 30)
		})
	}
}

func checkLanes(t *testing.T, m game.Machine, l *propnet.Lanes, steps int) {
	t.Helper()
	rng := game.NewRand(7)
	prev := make([]game.State, propnet.LaneCount)
	for i := range prev {
		prev[i] = laneState(t, l, i)
	}
	for step := 0; step < steps; step++ {
		if _, err := l.Playouts(rng, 1); err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		distinct := checkStep(t, m, l, prev, step)
		if step == 2 && distinct < 2 {
			t.Fatalf("every lane is in the same state after 3 steps: the lanes do not draw apart")
		}
	}
}

// checkStep checks the lanes after one step of Playouts against their
// states before it, prev, which it then replaces with the new ones: a
// lane's new state follows from its previous one by a legal joint move
// (the machine's Next), or equals it when that was terminal, and its
// terminal test and goals are the machine's. It returns how many
// distinct states the lanes hold.
func checkStep(t *testing.T, m game.Machine, l *propnet.Lanes, prev []game.State, step int) int {
	t.Helper()
	distinct := map[uint64]bool{}
	for i := range prev {
		cur := laneState(t, l, i)
		distinct[cur.Hash()] = true
		term, _ := m.Terminal(prev[i])
		switch {
		case term && !cur.Equal(prev[i]):
			t.Fatalf("step %d, lane %d: moved on from a terminal state", step, i)
		case !term && !isSuccessor(t, m, prev[i], cur):
			t.Fatalf("step %d, lane %d: %v does not follow from %v by a legal joint move", step, i, cur, prev[i])
		}
		if now, _ := m.Terminal(cur); now != l.Terminal(i) {
			t.Fatalf("step %d, lane %d: terminal %v, the network's %v", step, i, l.Terminal(i), now)
		}
		if got, want := l.Goals(i, nil), game.Goals(m, cur); !slices.Equal(got, want) {
			t.Fatalf("step %d, lane %d: goals %v, the network's %v", step, i, got, want)
		}
		prev[i] = cur
	}
	return len(distinct)
}

// isSuccessor reports whether some legal joint move leads from s to next.
func isSuccessor(t *testing.T, m game.Machine, s, next game.State) bool {
	legal, err := game.LegalAll(m, s)
	if err != nil {
		t.Fatal(err)
	}
	joint := make([]game.Move, len(legal))
	var try func(r int) bool
	try = func(r int) bool {
		if r == len(legal) {
			n, err := m.Next(s, joint)
			return err == nil && n.Equal(next)
		}
		for _, mv := range legal[r] {
			joint[r] = mv
			if try(r + 1) {
				return true
			}
		}
		return false
	}
	return try(0)
}

// TestLanesStream streams ticTacToe playouts: every playout ends after 5
// to 9 joint moves (so ended lanes really restart from the initial state)
// with the goals of a finished game, and a cancelled context stops it.
func TestLanesStream(t *testing.T) {
	net, err := buildNet(sharedDir(t), "ticTacToe")
	if err != nil {
		t.Fatal(err)
	}
	f, err := propnet.NewFlat(net)
	if err != nil {
		t.Fatal(err)
	}
	l := f.NewLanes()
	var bad [][]int
	outcomes := map[[2]int]int{}
	record := func(g []int) {
		if len(g) != 2 || g[0]+g[1] != 100 || (g[0] != 0 && g[0] != 50 && g[0] != 100) {
			bad = append(bad, slices.Clone(g))
		}
		outcomes[[2]int{g[0], g[1]}]++
	}
	const n = 1000
	got, steps, err := l.Stream(context.Background(), game.NewRand(3), n, record)
	if err != nil || got != n {
		t.Fatalf("Stream: %d playouts, %v; want %d", got, err, n)
	}
	if per := float64(steps) / n; per < 5 || per > 9 {
		t.Errorf("%.2f joint moves a playout, want 5 to 9", per)
	}
	if len(bad) > 0 || len(outcomes) != 3 {
		t.Errorf("goals that end no game of ticTacToe %v; outcomes %v", bad, outcomes)
	}
	if _, err := l.State(propnet.LaneCount); err == nil {
		t.Errorf("State of a lane out of range did not fail")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := l.Stream(ctx, game.NewRand(3), n, nil); err == nil {
		t.Errorf("a cancelled stream did not fail")
	}
}

// TestLanesSlicedScalar: the bit-sliced and the scalar draw take the same
// moves for the same draws, so lanes seeded alike stay in the same states.
func TestLanesSlicedScalar(t *testing.T) {
	dir := sharedDir(t)
	for _, key := range []string{"connectFour", "breakthrough", "reversi"} {
		net, err := buildNet(dir, key)
		if err != nil {
			t.Fatal(err)
		}
		f, err := propnet.NewFlat(net)
		if err != nil {
			t.Fatal(err)
		}
		a, b := f.NewLanesSliced(), f.NewLanesScalar()
		ra, rb := game.NewRand(5), game.NewRand(5)
		for step := range 40 {
			a.Playouts(ra, 1)
			b.Playouts(rb, 1)
			for i := range propnet.LaneCount {
				if !laneState(t, a, i).Equal(laneState(t, b, i)) {
					t.Fatalf("%s: step %d, lane %d: the two draws differ", key, step, i)
				}
			}
		}
	}
}

func laneState(t *testing.T, l *propnet.Lanes, lane int) game.State {
	t.Helper()
	s, err := l.State(lane)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestTranspose8: entry (i, j), bit 8i+j, moves to bit 8j+i, for every
// entry alone and for a dense matrix.
func TestTranspose8(t *testing.T) {
	for i := range 8 {
		for j := range 8 {
			if got, want := propnet.Transpose8(1<<(8*i+j)), uint64(1)<<(8*j+i); got != want {
				t.Fatalf("entry (%d, %d): %#x, want %#x", i, j, got, want)
			}
		}
	}
	x := uint64(0x0123456789abcdef)
	if propnet.Transpose8(propnet.Transpose8(x)) != x {
		t.Error("transposing twice changes the matrix")
	}
}
