package gametest

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"

	"gdlab/engine/game"
)

// conformSimulator checks, along the seeded match of conformMatch, that
// game.NewSimulator(m) agrees with m in every state: the state itself and
// its hash, each role's legal moves, terminal, goals, the transition of a
// joint move, random joints made of legal moves, Save and Restore, and a
// playout that ends in a terminal state or at its step limit; and, at the
// first state and halfway, batches of playouts (game.Playouts).
func conformSimulator(m game.Machine, seed uint64, maxSteps int) error {
	sim := game.NewSimulator(m)
	if !sim.State().Equal(m.Initial()) {
		return fmt.Errorf("a new simulator is not at the initial state")
	}
	rng, draw := game.NewRand(seed), game.NewRand(seed+1)
	var saved []uint64
	s := m.Initial()
	for step := 0; step <= maxSteps; step++ {
		if err := sim.SetState(s); err != nil {
			return fmt.Errorf("step %d: SetState: %w", step, err)
		}
		if err := sameAsMachine(m, sim, s); err != nil {
			return fmt.Errorf("step %d: %w", step, err)
		}
		term, err := m.Terminal(s)
		if err != nil || term {
			return err
		}
		if step == 0 || step == maxSteps/2 {
			if err := conformBatch(m, sim, s, draw.Uint64()); err != nil {
				return fmt.Errorf("step %d: %w", step, err)
			}
		}
		saved = sim.Save(saved)
		if err := conformPlayout(m, sim, draw, step); err != nil {
			return err
		}
		if err := sim.Restore(saved); err != nil || !sim.State().Equal(s) {
			return fmt.Errorf("step %d: Restore did not bring back the saved state (%v)", step, err)
		}
		joint, err := sim.RandomJoint(draw, nil)
		if err != nil {
			return fmt.Errorf("step %d: RandomJoint: %w", step, err)
		}
		if err := legalJoint(m, s, joint); err != nil {
			return fmt.Errorf("step %d: RandomJoint: %w", step, err)
		}
		legal, err := game.LegalAll(m, s)
		if err != nil {
			return err
		}
		for r, ms := range legal {
			joint[r] = ms[rng.IntN(len(ms))]
		}
		next, err := m.Next(s, joint)
		if err != nil {
			return err
		}
		if err := sim.Play(joint); err != nil {
			return fmt.Errorf("step %d: Play: %w", step, err)
		}
		if !sim.State().Equal(next) {
			return fmt.Errorf("step %d: Play reached another state than Next", step)
		}
		s = next
	}
	return nil
}

// sameAsMachine compares the simulator's current state with s as m sees it.
func sameAsMachine(m game.Machine, sim game.Simulator, s game.State) error {
	if cur := sim.State(); !cur.Equal(s) || !slices.Equal(cur.Facts(), s.Facts()) {
		return fmt.Errorf("the simulator's state differs from the machine's")
	}
	if sim.Hash() != s.Hash() {
		return fmt.Errorf("Hash %x, the state's %x", sim.Hash(), s.Hash())
	}
	for r := range m.Roles() {
		want, err := m.Legal(s, r, nil)
		if err != nil {
			return err
		}
		got, err := sim.Legal(r, nil)
		if err != nil || !slices.Equal(got, want) {
			return fmt.Errorf("role %d's legal moves %v, the machine's %v (%v)", r, got, want, err)
		}
	}
	want, err := m.Terminal(s)
	if err != nil {
		return err
	}
	if got, err := sim.Terminal(); err != nil || got != want {
		return fmt.Errorf("terminal %v, the machine's %v (%v)", got, want, err)
	}
	if got, err := sim.Goals(nil); err != nil || !slices.Equal(got, game.Goals(m, s)) {
		return fmt.Errorf("goals %v, the machine's %v (%v)", got, game.Goals(m, s), err)
	}
	return nil
}

// conformPlayout plays out from the simulator's state and checks that it
// ended terminal or at its step limit, in a state the machine agrees with.
func conformPlayout(m game.Machine, sim game.Simulator, rng *rand.Rand, step int) error {
	const limit = 50
	n, err := sim.Playout(game.NewRand(uint64(rng.IntN(1<<30))), limit)
	if err != nil {
		return fmt.Errorf("step %d: Playout: %w", step, err)
	}
	end := sim.State()
	term, err := m.Terminal(end)
	if err != nil {
		return err
	}
	if n > limit || (!term && n != limit) {
		return fmt.Errorf("step %d: a playout stopped after %d steps in a non-terminal state (limit %d)", step, n, limit)
	}
	return sameAsMachine(m, sim, end)
}

// legalJoint checks that joint holds one legal move of m per role in s.
func legalJoint(m game.Machine, s game.State, joint []game.Move) error {
	if len(joint) != len(m.Roles()) {
		return fmt.Errorf("%d moves for %d roles", len(joint), len(m.Roles()))
	}
	for r, mv := range joint {
		legal, err := m.Legal(s, r, nil)
		if err != nil {
			return err
		}
		if !slices.Contains(legal, mv) {
			return fmt.Errorf("role %d's move %d is not legal", r, mv)
		}
	}
	return nil
}

// conformBatch runs a batch of playouts from sim's state s (game.Playouts,
// on the simulator's batch method when it has one) and checks that it
// gives a goal in -1..100 per role and playout, no more joint moves than
// its limit allows and s still current, that two new simulators set to s
// give the same results from the same seed, and that batches of 0 and
// MaxBatch+1 are refused.
func conformBatch(m game.Machine, sim game.Simulator, s game.State, seed uint64) error {
	const n, limit = 3, 20
	roles := len(m.Roles())
	goals, steps, err := game.Playouts(sim, game.NewRand(seed), n, limit, nil)
	if err != nil {
		return fmt.Errorf("Playouts: %w", err)
	}
	if len(goals) != n*roles || steps < 0 || steps > n*limit {
		return fmt.Errorf("Playouts of %d: %d goals for %d roles, %d joint moves (limit %d each)", n, len(goals), roles, steps, limit)
	}
	for _, g := range goals {
		if g < -1 || g > 100 {
			return fmt.Errorf("Playouts: goal %d out of range in %v", g, goals)
		}
	}
	if !sim.State().Equal(s) {
		return fmt.Errorf("Playouts changed the current state")
	}
	// A simulator's move order may depend on its history, so the same
	// results are due from simulators with the same history.
	var runs [2][]int
	var moves [2]int
	for i := range runs {
		fresh := game.NewSimulator(m)
		if err := fresh.SetState(s); err != nil {
			return err
		}
		if runs[i], moves[i], err = game.Playouts(fresh, game.NewRand(seed), n, limit, nil); err != nil {
			return fmt.Errorf("Playouts: %w", err)
		}
	}
	if moves[0] != moves[1] || !slices.Equal(runs[0], runs[1]) {
		return fmt.Errorf("Playouts from one seed on two new simulators gave %v (%d moves), then %v (%d moves)", runs[0], moves[0], runs[1], moves[1])
	}
	for _, bad := range []int{0, game.MaxBatch + 1} {
		if _, _, err := game.Playouts(sim, game.NewRand(seed), bad, limit, nil); !errors.Is(err, game.ErrBatchSize) {
			return fmt.Errorf("Playouts of %d: %v, want ErrBatchSize", bad, err)
		}
	}
	return nil
}
