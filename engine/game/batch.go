package game

import (
	"errors"
	"math/rand/v2"
)

// MaxBatch is the most playouts one call of Playouts runs: one per bit of
// a 64-bit word, which is how a bit-parallel simulator runs them.
const MaxBatch = 64

// ErrBatchSize is the error of Playouts and BatchSimulator.Playouts for a
// batch of fewer than 1 or more than MaxBatch playouts.
var ErrBatchSize = errors.New("game: a batch holds 1 to 64 playouts")

// BatchSimulator is a Simulator that runs a batch of playouts at once,
// faster than one after another (a straight-line network simulator runs 64
// as one, a bit of a word each). Use it through Playouts, which falls back
// to SequentialPlayouts on a simulator without it.
//
// A wrapper that embeds a Simulator hides the batch method of the
// simulator it wraps, and Playouts does not look through Unwrap methods:
// a wrapper may change what a playout is (search.Counter's simulator meters
// every joint move, a factored subgame's restricts the moves), so batches
// pass through a wrapper only when it implements BatchSimulator itself,
// doing to a batch what it does to a playout.
type BatchSimulator interface {
	Simulator
	// Playouts runs n (1 to MaxBatch) uniformly random playouts from the
	// current state, each until a terminal state or, when maxSteps > 0,
	// for at most maxSteps joint moves, as Simulator.Playout plays one.
	// It appends each playout's goals, one per role (-1 where the rules
	// give no single value, as Goals gives them), to dst[:0], playout i's
	// at [i*roles, (i+1)*roles), and returns the extended slice with the
	// joint moves played by all n playouts together (each one Next call,
	// as Playout counts them). The current state is left as it was. Its
	// draws come from rng alone, so the same generator state gives the
	// same results from the same state and history (as RandomJoint's
	// order may, the results may depend on the simulator's history); they
	// need not be those of n Playout calls.
	Playouts(rng *rand.Rand, n, maxSteps int, dst []int) ([]int, int, error)
}

// Playouts runs n (1 to MaxBatch) uniformly random playouts from sim's
// current state, each to a terminal state or for at most maxSteps joint
// moves when maxSteps > 0, and appends their goals to dst[:0], one per
// role and playout (playout i's at [i*roles, (i+1)*roles), -1 where the
// rules give no single value). It returns them with the joint moves played
// by all n together, each one Next call, and leaves sim's current state as
// it was. It runs sim's batch method when sim is a BatchSimulator and
// SequentialPlayouts otherwise.
//
// Randomness: every draw comes from rng, so the same calls on simulators
// made alike (the same machine's, set to the same states in the same
// order) give the same results for the same seed: a search seeded alike
// is reproducible. A simulator's move order may depend on its history
// (Simulator.RandomJoint), so the same state reached another way may draw
// other playouts. The batch and the fallback draw different playouts from
// the same generator state; only their distribution is the same.
func Playouts(sim Simulator, rng *rand.Rand, n, maxSteps int, dst []int) ([]int, int, error) {
	if n < 1 || n > MaxBatch {
		return dst[:0], 0, ErrBatchSize
	}
	if b, ok := sim.(BatchSimulator); ok {
		return b.Playouts(rng, n, maxSteps, dst)
	}
	return SequentialPlayouts(sim, rng, n, maxSteps, dst)
}

// SequentialPlayouts is Playouts one playout at a time on any simulator:
// n calls of sim.Playout, each from the current state, which it sets back
// with SetState after each (so it allocates the one State that State
// returns), drawing from rng exactly as those calls draw. It is the
// fallback of Playouts and what a wrapper that cannot pass a batch on
// runs instead.
func SequentialPlayouts(sim Simulator, rng *rand.Rand, n, maxSteps int, dst []int) ([]int, int, error) {
	dst = dst[:0]
	if n < 1 || n > MaxBatch {
		return dst, 0, ErrBatchSize
	}
	start := sim.State()
	total := 0
	for i := 0; i < n; i++ {
		if i > 0 {
			if err := sim.SetState(start); err != nil {
				return dst, total, err
			}
		}
		steps, err := sim.Playout(rng, maxSteps)
		total += steps
		if err == nil {
			var g []int
			g, err = sim.Goals(dst[len(dst):])
			dst = append(dst, g...) // in place when g shares dst's array
		}
		if err != nil {
			if back := sim.SetState(start); back != nil {
				err = errors.Join(err, back)
			}
			return dst, total, err
		}
	}
	return dst, total, sim.SetState(start)
}
