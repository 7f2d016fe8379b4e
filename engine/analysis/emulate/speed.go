package emulate

import (
	"context"
	"math/rand/v2"
	"time"

	"gdlab/engine/game"
	"gdlab/engine/propnet"
)

// PlayoutSpeed compares random playouts (from the initial state to a
// terminal state, every role's goal read at the end) on the full network
// and on an emulating machine, measured side by side.
type PlayoutSpeed struct {
	Full, Emulated float64 // playouts per second
	Ratio          float64 // Emulated / Full
	Rounds         int     // alternating rounds measured
}

// MeasurePlayouts runs playouts on full and on em's network for about d
// in all, alternating rounds of about 50 ms between the two so that both
// see the same machine load (the measuring machine is shared and noisy),
// one goroutine, seeded by seed. It stops early when ctx ends.
func MeasurePlayouts(ctx context.Context, full *propnet.Net, em *Machine, d time.Duration, seed uint64) (PlayoutSpeed, error) {
	sides := [2]*speedSide{
		{sim: full.NewSim(), rng: game.NewRand(seed)},
		{sim: em.Net().NewSim(), rng: game.NewRand(seed), em: em},
	}
	var ps PlayoutSpeed
	const round = 50 * time.Millisecond
	for deadline := time.Now().Add(d); time.Now().Before(deadline) && ctx.Err() == nil; ps.Rounds++ {
		for _, s := range sides {
			if err := s.run(round); err != nil {
				return ps, err
			}
		}
	}
	ps.Full, ps.Emulated = sides[0].rate(), sides[1].rate()
	if ps.Full > 0 {
		ps.Ratio = ps.Emulated / ps.Full
	}
	return ps, nil
}

// speedSide is one machine's simulator and tally.
type speedSide struct {
	sim      *propnet.Sim
	rng      *rand.Rand
	em       *Machine
	goals    []int
	playouts int
	elapsed  time.Duration
}

// run plays out repeatedly for about d.
func (s *speedSide) run(d time.Duration) error {
	start := time.Now()
	for time.Since(start) < d {
		s.sim.Reset()
		if _, err := s.sim.Playout(s.rng, 0); err != nil {
			return err
		}
		if s.em != nil {
			s.goals = s.em.SimGoals(s.sim, s.goals)
		} else {
			s.goals, _ = s.sim.Goals(s.goals)
		}
		s.playouts++
	}
	s.elapsed += time.Since(start)
	return nil
}

func (s *speedSide) rate() float64 {
	if s.elapsed <= 0 {
		return 0
	}
	return float64(s.playouts) / s.elapsed.Seconds()
}
