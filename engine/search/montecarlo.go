package search

import (
	"context"
	"fmt"

	"gdlab/engine/game"
	"gdlab/engine/heuristic"
)

// MonteCarlo is Monte Carlo search as Genesereth teaches it: minimax over
// the first Level joint moves, and at each fringe state the mean goal of
// Charges random playouts (depth charges, heuristic.DepthCharges) in place
// of an evaluation function:
//
//	V(s) = (1/K) Σₖ goal(playoutₖ(s), me)   at depth Level, K = Charges
//
// The playouts draw from the match seed mixed with the fringe state's hash,
// so a given state is always estimated alike within a match. Every playout
// step counts as a node expansion and its Next call as a move-operator call.
// When the budget runs out it plays the best root move it finished.
type MonteCarlo struct {
	Level    int // joint moves searched before the charges; 0 means 1
	Charges  int // playouts per fringe state; 0 means 10
	MaxSteps int // joint moves per playout; 0 means 1000
	p        seat
}

// Name describes the player, such as "mcs(1,10)".
func (mc *MonteCarlo) Name() string {
	return fmt.Sprintf("mcs(%d,%d)", max(mc.Level, 1), mc.charges())
}

func (mc *MonteCarlo) charges() int {
	if mc.Charges <= 0 {
		return 10
	}
	return mc.Charges
}

// Start seeds the depth charges from the setup's seed.
func (mc *MonteCarlo) Start(ctx context.Context, setup Setup) error {
	eval := heuristic.DepthCharges{Count: mc.charges(), MaxSteps: mc.MaxSteps, Seed: heuristic.Mix(setup.Seed)}
	return mc.p.start(ctx, setup, eval)
}

// Play searches to Level and charges the fringe.
func (mc *MonteCarlo) Play(ctx context.Context, s game.State, b Budget) (game.Move, Report, error) {
	d := max(mc.Level, 1)
	return playTree(ctx, &mc.p, s, b, d, d, func(t *tree, order []game.Move, depth int) (rootResult, error) {
		return t.minimaxRoot(s, order, depth)
	})
}
