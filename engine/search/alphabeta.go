package search

import (
	"cmp"
	"context"
	"slices"

	"gdlab/engine/game"
	"gdlab/engine/heuristic"
)

// AlphaBeta is iterative-deepening alpha-beta search. At every depth it
// computes exactly the paranoid minimax value of that depth, pruning lines
// that cannot change it:
//
//	max node: for each move, v = min-node(α' = max(α, best), β); stop when best ≥ β
//	min node: for each reply, v = max-node(α, β' = min(β, worst)); stop when worst ≤ α
//
// (fail-soft, so a value outside the window is still a bound). Moves are
// ordered to prune more: the transposition table's best move first, then by
// the history heuristic (Σ depth² of the cut-offs a move caused this turn).
// The transposition table keeps results between iterations and moves of a
// match; an entry is reused only at the depth it was made at, or at any
// greater depth when its lines all ended, so the values stay exact.
// Deepening, the budget and the choice of move are as for Deepening.
type AlphaBeta struct {
	Eval       heuristic.Evaluator // nil means heuristic.IntermediateGoal
	MaxDepth   int                 // 0 means no limit but the budget
	TableSize  int                 // transposition-table entries; 0 means 1<<16
	NoTable    bool                // switch the transposition table off
	NoOrdering bool                // switch move ordering off
	p          seat
	tt         *table
}

// Name describes the player.
func (ab *AlphaBeta) Name() string { return "alphabeta(" + evalName(ab.Eval) + ")" }

// Start prepares the evaluator and a fresh transposition table.
func (ab *AlphaBeta) Start(ctx context.Context, setup Setup) error {
	ab.tt = nil
	if !ab.NoTable {
		ab.tt = newTable(ab.TableSize)
	}
	return ab.p.start(ctx, setup, ab.Eval)
}

// Play deepens until the budget ends, MaxDepth is reached or the game below
// is solved.
func (ab *AlphaBeta) Play(ctx context.Context, s game.State, b Budget) (game.Move, Report, error) {
	var a *abSearch
	return playTree(ctx, &ab.p, s, b, 1, ab.MaxDepth, func(t *tree, order []game.Move, depth int) (rootResult, error) {
		if a == nil {
			a = ab.search(t)
		}
		return a.root(s, order, depth)
	})
}

// Value returns the depth-limited paranoid minimax value of s for role,
// computed by alpha-beta with ab's options and a fresh table, and what
// computing it spent.
func (ab *AlphaBeta) Value(ctx context.Context, m game.Machine, s game.State, role, depth int, b Budget) (float64, Usage, error) {
	v, _, u, err := ab.ValueSolved(ctx, m, s, role, depth, b)
	return v, u, err
}

// ValueSolved is Value that also reports whether the value is the same at
// every greater depth (every line ended, or it is a proven win), so that a
// caller deepening Value knows when to stop.
func (ab *AlphaBeta) ValueSolved(ctx context.Context, m game.Machine, s game.State, role, depth int, b Budget) (float64, bool, Usage, error) {
	t, err := valueTree(ctx, m, role, ab.Eval, b)
	if err != nil {
		return 0, false, Usage{}, err
	}
	cp := *ab
	if !ab.NoTable {
		cp.tt = newTable(ab.TableSize)
	}
	v, solved, err := cp.search(t).max(s, depth, -1, 101)
	return v, solved, t.c.Used(), err
}

// abSearch is one turn's alpha-beta search.
type abSearch struct {
	*tree
	tt      *table
	order   bool
	history map[histKey]int
}

type histKey struct {
	role int
	move game.Move
}

func (ab *AlphaBeta) search(t *tree) *abSearch {
	return &abSearch{tree: t, tt: ab.tt, order: !ab.NoOrdering, history: map[histKey]int{}}
}

// root searches the root moves in the given order; the first gets the full
// window, the others a window raised to the best value so far.
func (a *abSearch) root(s game.State, order []game.Move, depth int) (rootResult, error) {
	res := rootResult{move: order[0], solved: true}
	if err := a.c.Expand(); err != nil {
		return res, err
	}
	replies, err := a.replies(s)
	if err != nil {
		return res, err
	}
	a.orderReplies(replies)
	for _, m := range order {
		alpha := -1.0
		if res.done > 0 {
			alpha = res.value
		}
		v, sol, err := a.min(s, m, replies, depth, alpha, 101)
		if err != nil {
			return res, err
		}
		res.record(m, v, sol)
	}
	a.tt.store(s, depth, res.value, exact, res.solved, res.move)
	return res, nil
}

// max returns the value of s within (alpha, beta), or a bound outside it.
func (a *abSearch) max(s game.State, depth int, alpha, beta float64) (float64, bool, error) {
	if v, ok, solved, err := a.leaf(s, depth); ok || err != nil {
		return v, solved, err
	}
	hint := game.NoMove
	if e := a.tt.probe(s); e != nil {
		if v, ok := e.cut(depth, alpha, beta); ok {
			return v, e.solved, nil
		}
		hint = e.best
	}
	ch, err := a.expand(s)
	if err != nil {
		return 0, false, err
	}
	a.orderMine(ch.mine, hint)
	a.orderReplies(ch.replies)
	b := backup{value: -1}
	bestMove := ch.mine[0]
	for _, m := range ch.mine {
		v, sol, err := a.min(s, m, ch.replies, depth, max(alpha, b.value), beta)
		if err != nil {
			return 0, false, err
		}
		if !b.some || v > b.value {
			bestMove = m
		}
		b.max(v, sol)
		if b.value >= beta {
			a.reward(a.role, m, depth)
			break
		}
	}
	solved := b.solved(100)
	a.tt.store(s, depth, b.value, flagOf(b.value, alpha, beta), solved, bestMove)
	return b.value, solved, nil
}

// min returns the coalition's best answer to the role's move m, within
// (alpha, beta) or as a bound outside it.
func (a *abSearch) min(s game.State, m game.Move, replies [][]game.Move, depth int, alpha, beta float64) (float64, bool, error) {
	w := backup{value: 101}
	for _, b := range replies {
		ns, err := a.next(s, m, b)
		if err != nil {
			return 0, false, err
		}
		v, sol, err := a.max(ns, depth-1, alpha, min(beta, w.value))
		if err != nil {
			return 0, false, err
		}
		w.min(v, sol)
		if w.value <= alpha {
			a.rewardReply(b, depth)
			break
		}
	}
	return w.value, w.solved(0), nil
}

// cut returns the stored value when it settles a search of (alpha, beta)
// at depth: an exact value, a lower bound at or above beta, or an upper
// bound at or below alpha.
func (e *entry) cut(depth int, alpha, beta float64) (float64, bool) {
	if !e.usable(depth) {
		return 0, false
	}
	switch {
	case e.flag == exact, e.flag == lower && e.value >= beta, e.flag == upper && e.value <= alpha:
		return e.value, true
	}
	return 0, false
}

// flagOf classifies a fail-soft result against its window.
func flagOf(v, alpha, beta float64) bound {
	switch {
	case v <= alpha:
		return upper
	case v >= beta:
		return lower
	}
	return exact
}

// reward credits a move that caused a cut-off.
func (a *abSearch) reward(role int, m game.Move, depth int) {
	if a.order {
		a.history[histKey{role, m}] += depth * depth
	}
}

// rewardReply credits every move of a joint reply that caused a cut-off.
func (a *abSearch) rewardReply(b []game.Move, depth int) {
	for r, m := range b {
		if r != a.role {
			a.reward(r, m, depth)
		}
	}
}

// orderMine puts hint first and the rest by history, best first; the sort
// is stable so equal moves keep the machine's order.
func (a *abSearch) orderMine(moves []game.Move, hint game.Move) {
	if !a.order {
		return
	}
	slices.SortStableFunc(moves, func(x, y game.Move) int {
		if x == hint || y == hint {
			return cmp.Compare(boolInt(y == hint), boolInt(x == hint))
		}
		return cmp.Compare(a.history[histKey{a.role, y}], a.history[histKey{a.role, x}])
	})
}

// orderReplies sorts joint replies by the summed history of their moves.
func (a *abSearch) orderReplies(replies [][]game.Move) {
	if !a.order || len(replies) < 2 {
		return
	}
	score := func(b []game.Move) int {
		sum := 0
		for r, m := range b {
			if r != a.role {
				sum += a.history[histKey{r, m}]
			}
		}
		return sum
	}
	slices.SortStableFunc(replies, func(x, y []game.Move) int { return cmp.Compare(score(y), score(x)) })
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}
