package mmapprox

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"

	"gdlab/engine/game"
	"gdlab/engine/heuristic"
	"gdlab/engine/search"
)

// DefaultMaxTree is the node limit of a tree when Player.MaxTree is 0.
const DefaultMaxTree = 1 << 21

// StopTree is the Report.Stopped of a search that filled its tree.
const StopTree search.Stop = "tree"

// Player is Rivest's min/max-approximation searcher as a search.Player. It
// grows a fresh tree for every move, one expansion at a time (see the
// package comment), until the budget runs out, the tree is solved or it
// holds MaxTree nodes, and plays the root move with the best backed-up
// value. The zero value uses p = 0 (the geometric mean); Rivest's
// experiments used larger p, such as 10.
type Player struct {
	Eval    heuristic.Evaluator // nil means heuristic.IntermediateGoal
	P       float64             // the mean's exponent: M_p at max nodes, M_−p at min nodes; very large values approach minimax
	Reverse bool                // reverse approximation: back up true minimax values, use the means for weights only
	Penalty float64             // a constant added to every edge's weight, favouring shallow tips
	MaxTree int                 // most nodes in a tree; 0 means DefaultMaxTree

	m    game.Machine
	role int
	rng  *rand.Rand
	eval heuristic.Evaluator
	t    tree
}

// Name describes the player: "mm(p=10,eval)", "mmrev(...)" for reverse
// approximation, with the penalty when there is one.
func (pl *Player) Name() string {
	name := "mm"
	if pl.Reverse {
		name = "mmrev"
	}
	name += "(p=" + strconv.FormatFloat(pl.P, 'g', -1, 64)
	if pl.Penalty != 0 {
		name += ",penalty=" + strconv.FormatFloat(pl.Penalty, 'g', -1, 64)
	}
	ev := pl.Eval
	if ev == nil {
		ev = heuristic.IntermediateGoal{}
	}
	return name + "," + heuristic.Name(ev) + ")"
}

// Start records the machine and role, seeds the tie-breaking generator and
// prepares the evaluator under the start clock.
func (pl *Player) Start(ctx context.Context, setup search.Setup) error {
	if setup.Machine == nil {
		return errors.New("mmapprox: Setup has no Machine")
	}
	if setup.Role < 0 || setup.Role >= len(setup.Machine.Roles()) {
		return fmt.Errorf("mmapprox: role %d out of range", setup.Role)
	}
	if math.IsNaN(pl.P) || math.IsInf(pl.P, 0) {
		return fmt.Errorf("mmapprox: p = %v; use a large finite value to approach minimax", pl.P)
	}
	pl.m, pl.role, pl.rng = setup.Machine, setup.Role, game.NewRand(setup.Seed)
	pl.t = tree{}
	ev := pl.Eval
	if ev == nil {
		ev = heuristic.IntermediateGoal{}
	}
	ctx, cancel := setup.Budget.Context(ctx)
	defer cancel()
	e, err := heuristic.Prepare(ctx, pl.m, ev)
	if err != nil {
		pl.eval = heuristic.IntermediateGoal{}
		return fmt.Errorf("mmapprox: preparing %s (playing on with intermediate goals): %w", heuristic.Name(ev), err)
	}
	pl.eval = e
	return nil
}

// Play grows a tree from s under the budget and returns the root move with
// the best backed-up value. It stops within one machine call of the
// budget's end or of ctx's.
func (pl *Player) Play(ctx context.Context, s game.State, b search.Budget) (game.Move, search.Report, error) {
	rep := search.Report{Value: -1}
	if pl.m == nil {
		return game.NoMove, rep, search.ErrNotStarted
	}
	c := search.NewCounter(ctx, pl.m, b)
	moves, err := pl.m.Legal(s, pl.role, nil)
	if err == nil && len(moves) == 0 {
		err = &game.NoLegalMoveError{Role: pl.m.Roles()[pl.role]}
	}
	if err != nil {
		rep.Used = c.Used()
		return game.NoMove, rep, err
	}
	pl.rng.Shuffle(len(moves), func(i, j int) { moves[i], moves[j] = moves[j], moves[i] })
	if len(moves) == 1 {
		rep.Used = c.Used()
		return moves[0], rep, nil
	}
	t := &pl.t
	t.c, t.eval, t.role = c, pl.eval, pl.role
	t.p, t.reverse, t.penalty = pl.P, pl.Reverse, pl.Penalty
	t.limit = pl.MaxTree
	if t.limit <= 0 {
		t.limit = DefaultMaxTree
	}
	t.reset(s)
	err = t.grow(moves)
	move, v := t.choose(moves[0])
	rep.Value = v
	rep.Depth = t.maxDepth()
	rep.Used, rep.Stopped = c.Used(), c.Stopped()
	rep.Complete = t.solved() && pl.Reverse
	var full errTreeFull
	switch {
	case errors.As(err, &full):
		rep.Stopped = StopTree
	case err != nil && !errors.Is(err, search.ErrBudget):
		return move, rep, err
	}
	return move, rep, nil
}

// grow expands until the tree is solved or a step fails.
func (t *tree) grow(rootMoves []game.Move) error {
	for {
		more, err := t.step(rootMoves)
		if err != nil || !more {
			return err
		}
	}
}

// solved reports whether every line of the tree reached a terminal state.
func (t *tree) solved() bool {
	return t.nodes[0].expanded() && math.IsInf(t.nodes[0].pi, 1)
}

// choose returns the root's move with the best backed-up value and that
// value on the goal scale, or fallback and -1 before the first expansion.
// Among equal values the first in the (shuffled) order wins.
func (t *tree) choose(fallback game.Move) (game.Move, float64) {
	root := &t.nodes[0]
	if !root.expanded() || root.kind != maxNode {
		return fallback, -1
	}
	best := root.first
	for c := root.first + 1; c < root.first+root.count; c++ {
		if t.nodes[c].v > t.nodes[best].v {
			best = c
		}
	}
	return t.nodes[best].mv, unvalue(t.nodes[best].v)
}

// maxDepth returns the depth of the deepest state in the tree.
func (t *tree) maxDepth() int {
	d := 0
	for i := range t.nodes {
		d = max(d, int(t.nodes[i].depth))
	}
	return d
}
