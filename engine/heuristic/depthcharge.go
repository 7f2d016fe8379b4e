package heuristic

import (
	"fmt"
	"math/rand/v2"

	"gdlab/engine/game"
)

// DepthCharges estimates a state by random play, the evaluator of Monte
// Carlo search:
//
//	charges(s) = (1/K) Σₖ goal(zₖ, role)
//
// where z₁..z_K are the final states of K playouts from s in which every role
// moves uniformly at random. A playout cut short by MaxSteps scores role's
// goal where it stopped, 0 where that is undefined. The generator is seeded
// with Seed mixed with s.Hash(), so a state always gets the same estimate
// whatever order a search visits it in; vary Seed to vary the estimates.
// Each playout step counts as one node expansion when m is an Expander.
type DepthCharges struct {
	Count    int // K; 0 means 1
	MaxSteps int // joint moves per playout; 0 means 1000
	Seed     uint64
}

// Evaluate returns the mean goal of role over Count random playouts from s.
func (d DepthCharges) Evaluate(m game.Machine, s game.State, role int) (float64, error) {
	k := max(d.Count, 1)
	steps := d.MaxSteps
	if steps <= 0 {
		steps = 1000
	}
	rng := game.NewRand(d.Seed ^ Mix(s.Hash()))
	exp, _ := m.(Expander)
	sum := 0.0
	for i := 0; i < k; i++ {
		v, err := charge(m, s, role, steps, rng, exp)
		if err != nil {
			return 0, err
		}
		sum += v
	}
	return sum / float64(k), nil
}

// String names the evaluator.
func (d DepthCharges) String() string { return fmt.Sprintf("charges(%d)", max(d.Count, 1)) }

// charge plays one random playout and returns role's goal where it ends.
func charge(m game.Machine, s game.State, role, maxSteps int, rng *rand.Rand, exp Expander) (float64, error) {
	n := len(m.Roles())
	joint := make([]game.Move, n)
	var buf []game.Move
	for step := 0; step < maxSteps; step++ {
		term, err := m.Terminal(s)
		if err != nil {
			return 0, err
		}
		if term {
			break
		}
		if exp != nil {
			if err := exp.Expand(); err != nil {
				return 0, err
			}
		}
		for r := 0; r < n; r++ {
			if buf, err = m.Legal(s, r, buf); err != nil {
				return 0, err
			}
			if len(buf) == 0 {
				return 0, &game.NoLegalMoveError{Role: m.Roles()[r], Step: step}
			}
			joint[r] = buf[rng.IntN(len(buf))]
		}
		if s, err = m.Next(s, joint); err != nil {
			return 0, err
		}
	}
	return goalOr(m, s, role, 0), nil
}

// Mix scrambles a 64-bit value (the splitmix64 finaliser), so that nearby
// seeds and hashes give unrelated generators.
func Mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
