package search

import (
	"context"
	"errors"

	"gdlab/engine/game"
	"gdlab/engine/heuristic"
)

// FlatMonteCarlo is flat Monte Carlo search under a clock: it plays depth
// charges from each of its legal moves in turn (round robin, the other
// roles' moves drawn at random), until the budget ends, and plays the
// move with the best mean goal. Unlike MonteCarlo, whose charges are a
// fixed number, it spends all the time it is given, which makes it the
// baseline to measure MCTS against at equal clocks: the same playouts,
// without the tree.
type FlatMonteCarlo struct {
	// Charges bounds the depth charges per legal move; 0 means no bound
	// but the budget, or 100 when the budget sets no limit either.
	Charges  int
	MaxSteps int // joint moves per playout; 0 means 1000
	p        seat
}

// Name returns "flat-mc".
func (*FlatMonteCarlo) Name() string { return "flat-mc" }

// Start seeds the player's random choices from the setup's seed.
func (f *FlatMonteCarlo) Start(ctx context.Context, setup Setup) error {
	return f.p.start(ctx, setup, heuristic.IntermediateGoal{})
}

// Play charges the legal moves in turn until the budget ends.
func (f *FlatMonteCarlo) Play(ctx context.Context, s game.State, b Budget) (game.Move, Report, error) {
	if f.p.m == nil {
		return game.NoMove, Report{Value: -1}, ErrNotStarted
	}
	c := NewCounter(ctx, f.p.m, b)
	moves, err := f.p.legal(s)
	if err != nil {
		return game.NoMove, noSearch(c), err
	}
	if len(moves) == 1 {
		return moves[0], noSearch(c), nil
	}
	limit := f.Charges
	if limit <= 0 && b == (Budget{}) {
		limit = 100
	}
	sums, counts := make([]float64, len(moves)), make([]int, len(moves))
	for round := 0; limit <= 0 || round < limit; round++ {
		for i, mv := range moves {
			v, err := f.charge(c, s, mv)
			if errors.Is(err, ErrBudget) {
				return f.done(moves, sums, counts, c, nil)
			}
			if err != nil {
				return f.done(moves, sums, counts, c, err)
			}
			// A charge that completed counts, even when it used the last
			// of the budget.
			sums[i] += v
			counts[i]++
			if c.Check() != nil {
				return f.done(moves, sums, counts, c, nil)
			}
		}
	}
	return f.done(moves, sums, counts, c, nil)
}

// charge plays mv with random moves for the other roles, then one random
// playout, and returns the player's goal at its end.
func (f *FlatMonteCarlo) charge(c *Counter, s game.State, mv game.Move) (float64, error) {
	roles := len(c.Roles())
	joint := make([]game.Move, roles)
	for r := range joint {
		if r == f.p.role {
			joint[r] = mv
			continue
		}
		legal, err := c.Legal(s, r, nil)
		if err != nil {
			return 0, err
		}
		if len(legal) == 0 {
			return 0, &game.NoLegalMoveError{Role: c.Roles()[r]}
		}
		joint[r] = legal[f.p.rng.IntN(len(legal))]
	}
	next, err := c.Next(s, joint)
	if err != nil {
		return 0, err
	}
	return heuristic.DepthCharges{MaxSteps: f.MaxSteps, Seed: f.p.rng.Uint64()}.Evaluate(c, next, f.p.role)
}

// done returns the move with the highest mean goal (the first legal move,
// in the shuffled order, when none was charged) and the report.
func (f *FlatMonteCarlo) done(moves []game.Move, sums []float64, counts []int, c *Counter, err error) (game.Move, Report, error) {
	at, value := 0, -1.0
	for i := range moves {
		if counts[i] > 0 && sums[i]/float64(counts[i]) > value {
			at, value = i, sums[i]/float64(counts[i])
		}
	}
	return moves[at], Report{Used: c.Used(), Stopped: c.Stopped(), Value: value}, err
}
