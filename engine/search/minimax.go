package search

import (
	"context"
	"fmt"

	"gdlab/engine/game"
	"gdlab/engine/heuristic"
)

// Minimax is depth-limited minimax: it looks Depth joint moves ahead,
// scores terminal states by their goals and the states where it stops by
// Eval, and backs the values up by the paranoid rule of the package comment.
// When the budget runs out before the search ends it plays the best of the
// root moves it finished, or a random one. OneStep and TwoStep are Minimax
// with Depth 1 and 2.
type Minimax struct {
	Depth int                 // joint moves to look ahead; 0 means 1
	Eval  heuristic.Evaluator // nil means heuristic.IntermediateGoal
	p     seat
}

// OneStep returns the one-step lookahead player: the move whose successor,
// after the other roles' worst reply in the same joint move, evaluates best.
func OneStep(eval heuristic.Evaluator) *Minimax { return &Minimax{Depth: 1, Eval: eval} }

// TwoStep returns the two-step lookahead player.
func TwoStep(eval heuristic.Evaluator) *Minimax { return &Minimax{Depth: 2, Eval: eval} }

// Name describes the player, such as "minimax(2,goal)".
func (mm *Minimax) Name() string {
	return fmt.Sprintf("minimax(%d,%s)", max(mm.Depth, 1), evalName(mm.Eval))
}

// Start prepares the evaluator under the start clock.
func (mm *Minimax) Start(ctx context.Context, setup Setup) error {
	return mm.p.start(ctx, setup, mm.Eval)
}

// Play searches to the fixed depth.
func (mm *Minimax) Play(ctx context.Context, s game.State, b Budget) (game.Move, Report, error) {
	d := max(mm.Depth, 1)
	return playTree(ctx, &mm.p, s, b, d, d, func(t *tree, order []game.Move, depth int) (rootResult, error) {
		return t.minimaxRoot(s, order, depth)
	})
}

// MinimaxValue returns the depth-limited paranoid minimax value of s for
// role (0..100), computed by plain minimax, and what computing it spent. eval
// nil means heuristic.IntermediateGoal; it is prepared first, unmetered.
func MinimaxValue(ctx context.Context, m game.Machine, s game.State, role, depth int, eval heuristic.Evaluator, b Budget) (float64, Usage, error) {
	t, err := valueTree(ctx, m, role, eval, b)
	if err != nil {
		return 0, Usage{}, err
	}
	v, _, err := t.minimax(s, depth)
	return v, t.c.Used(), err
}

// valueTree prepares a tree for a one-off value computation.
func valueTree(ctx context.Context, m game.Machine, role int, eval heuristic.Evaluator, b Budget) (*tree, error) {
	var p seat
	if err := p.start(ctx, Setup{Machine: m, Role: role}, eval); err != nil {
		return nil, err
	}
	return newTree(NewCounter(ctx, m, b), role, p.eval), nil
}
