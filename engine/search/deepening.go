package search

import (
	"context"
	"errors"
	"fmt"

	"gdlab/engine/game"
	"gdlab/engine/heuristic"
)

// Deepening is iterative deepening minimax under a budget: it searches to
// depth 1, 2, 3, ... with plain minimax, trying the previous depth's best
// move first, until the budget runs out, MaxDepth is reached, or a depth's
// result is exact (every line reached a terminal state). It then plays the
// best move of the deepest depth it completed, or of the depth it was
// cutting short when that depth had already searched at least one move (the
// previous best, which it searches first). It stops early, too, when the
// best move is a proven win. It returns within one machine call of its
// deadline.
type Deepening struct {
	Eval     heuristic.Evaluator // nil means heuristic.IntermediateGoal
	MaxDepth int                 // 0 means no limit but the budget
	p        seat
}

// Name describes the player.
func (d *Deepening) Name() string { return "deepening(" + evalName(d.Eval) + ")" }

// Start prepares the evaluator under the start clock.
func (d *Deepening) Start(ctx context.Context, setup Setup) error {
	return d.p.start(ctx, setup, d.Eval)
}

// Play searches ever deeper until the budget ends.
func (d *Deepening) Play(ctx context.Context, s game.State, b Budget) (game.Move, Report, error) {
	return playTree(ctx, &d.p, s, b, 1, d.MaxDepth, func(t *tree, order []game.Move, depth int) (rootResult, error) {
		return t.minimaxRoot(s, order, depth)
	})
}

// rootSearch searches from the root to one depth.
type rootSearch func(t *tree, order []game.Move, depth int) (rootResult, error)

// playTree is the move loop shared by the minimax family: it shuffles the
// root moves, plays a lone legal move at once, and otherwise deepens from
// first to last (0: no limit).
func playTree(ctx context.Context, p *seat, s game.State, b Budget, first, last int, search rootSearch) (game.Move, Report, error) {
	if p.m == nil {
		return game.NoMove, Report{Value: -1}, ErrNotStarted
	}
	c := NewCounter(ctx, p.m, b)
	order, err := p.legal(s)
	if err != nil {
		return game.NoMove, noSearch(c), err
	}
	if len(order) == 1 {
		return order[0], noSearch(c), nil
	}
	return deepen(newTree(c, p.role, p.eval), order, first, last, search)
}

// deepen runs search at increasing depths and picks the move to play.
func deepen(t *tree, order []game.Move, first, last int, search rootSearch) (game.Move, Report, error) {
	rep := Report{Value: -1}
	move := order[0]
	for depth := first; last <= 0 || depth <= last; depth++ {
		res, err := search(t, order, depth)
		if err != nil {
			if res.done > 0 {
				move, rep.Value = res.move, res.value
			}
			rep.Used, rep.Stopped = t.c.Used(), t.c.Stopped()
			if errors.Is(err, ErrBudget) {
				return move, rep, nil
			}
			return move, rep, fmt.Errorf("search at depth %d: %w", depth, err)
		}
		move, rep.Value, rep.Depth, rep.Complete = res.move, res.value, depth, res.final()
		order = bestFirst(order, move)
		if rep.Complete {
			break
		}
	}
	rep.Used = t.c.Used()
	return move, rep, nil
}

// bestFirst moves best to the front of order, keeping the others' order.
func bestFirst(order []game.Move, best game.Move) []game.Move {
	for i, m := range order {
		if m == best {
			copy(order[1:i+1], order[:i])
			order[0] = best
			break
		}
	}
	return order
}
