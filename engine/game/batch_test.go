package game_test

import (
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"gdlab/engine/game"
)

// TestSequentialPlayouts: on a simulator without batches, Playouts runs n
// ordinary playouts from the current state, drawing exactly as n Playout
// calls from that state draw, and leaves the state as it was. Nim from a
// state one move in lasts 2 to 4 more moves and ends with one role at 100
// and the other at 0.
func TestSequentialPlayouts(t *testing.T) {
	m := nim(t)
	legal, err := game.LegalAll(m, m.Initial())
	if err != nil {
		t.Fatal(err)
	}
	s, err := m.Next(m.Initial(), []game.Move{legal[0][0], legal[1][0]})
	if err != nil {
		t.Fatal(err)
	}
	sim := game.NewSimulator(m)
	if _, ok := sim.(game.BatchSimulator); ok {
		t.Fatal("the prover's simulator runs batches: this test needs one that does not")
	}
	if err := sim.SetState(s); err != nil {
		t.Fatal(err)
	}
	const n = 40
	goals, steps, err := game.Playouts(sim, game.NewRand(9), n, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(goals) != 2*n || steps < 2*n || steps > 4*n {
		t.Fatalf("%d goals and %d joint moves for %d playouts of 2 to 4 moves", len(goals), steps, n)
	}
	wins := 0
	for i := 0; i < n; i++ {
		g := goals[2*i : 2*i+2]
		if !slices.Equal(g, []int{0, 100}) && !slices.Equal(g, []int{100, 0}) {
			t.Fatalf("playout %d: goals %v end no game of nim", i, g)
		}
		wins += g[0] / 100
	}
	if wins == 0 || wins == n {
		t.Errorf("first won %d of %d random playouts: the playouts do not differ", wins, n)
	}
	if !sim.State().Equal(s) {
		t.Errorf("the current state changed")
	}
	// The same draws, one Playout at a time.
	rng := game.NewRand(9)
	var want []int
	total := 0
	for i := 0; i < n; i++ {
		if err := sim.SetState(s); err != nil {
			t.Fatal(err)
		}
		k, err := sim.Playout(rng, 0)
		if err != nil {
			t.Fatal(err)
		}
		total += k
		g, _ := sim.Goals(nil)
		want = append(want, g...)
	}
	if !slices.Equal(goals, want) || steps != total {
		t.Errorf("Playouts gave %v in %d moves, %d Playout calls %v in %d", goals, steps, n, want, total)
	}
}

// fakeBatch is a simulator with a batch method that reports every
// playout's goals as 7, so that a test sees which way Playouts went.
type fakeBatch struct{ game.Simulator }

func (fakeBatch) Playouts(rng *rand.Rand, n, maxSteps int, dst []int) ([]int, int, error) {
	dst = dst[:0]
	for i := 0; i < 2*n; i++ {
		dst = append(dst, 7)
	}
	return dst, 1, nil
}

// wrapper embeds a simulator, hiding its batch method, and unwraps to it.
type wrapper struct{ game.Simulator }

func (w wrapper) Unwrap() game.Simulator { return w.Simulator }

// TestPlayoutsDispatch: Playouts runs the batch method of a simulator that
// has one, not through a wrapper that hides it (a wrapper may change what
// a playout is), and refuses batches of fewer than 1 or more than MaxBatch
// playouts either way.
func TestPlayoutsDispatch(t *testing.T) {
	m := nim(t)
	batch := fakeBatch{game.NewSimulator(m)}
	goals, steps, err := game.Playouts(batch, game.NewRand(1), 3, 0, nil)
	if err != nil || steps != 1 || !slices.Equal(goals, []int{7, 7, 7, 7, 7, 7}) {
		t.Errorf("a BatchSimulator's batch: %v, %d moves, %v; want its own method's", goals, steps, err)
	}
	goals, _, err = game.Playouts(wrapper{batch}, game.NewRand(1), 3, 0, nil)
	if err != nil || len(goals) != 6 || slices.Contains(goals, 7) {
		t.Errorf("through a wrapper: %v, %v; want three ordinary playouts", goals, err)
	}
	for _, sim := range []game.Simulator{batch, wrapper{batch}} {
		for _, n := range []int{0, -1, game.MaxBatch + 1} {
			if _, _, err := game.Playouts(sim, game.NewRand(1), n, 0, nil); !errors.Is(err, game.ErrBatchSize) {
				t.Errorf("%T, a batch of %d: %v, want ErrBatchSize", sim, n, err)
			}
		}
	}
}
