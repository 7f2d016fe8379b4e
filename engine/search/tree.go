package search

import (
	"slices"

	"gdlab/engine/game"
	"gdlab/engine/heuristic"
)

// tree holds what the minimax family needs during one search by one role:
// the metered machine, the evaluator and a scratch joint move.
type tree struct {
	c     *Counter
	role  int
	n     int
	eval  heuristic.Evaluator
	joint []game.Move
}

func newTree(c *Counter, role int, eval heuristic.Evaluator) *tree {
	n := len(c.Roles())
	return &tree{c: c, role: role, n: n, eval: eval, joint: make([]game.Move, n)}
}

// children are a max node's successors, generated once: the searching
// role's moves and the coalition's joint replies (with the role's own slot
// left as NoMove).
type children struct {
	mine    []game.Move
	replies [][]game.Move
}

// leaf returns the value of s when the search ends there: the goal in a
// terminal state (0 where undefined, solved) or the evaluation when depth is
// used up (not solved). ok is false when s must be expanded.
func (t *tree) leaf(s game.State, depth int) (v float64, ok, solved bool, err error) {
	term, err := t.c.Terminal(s)
	if err != nil {
		return 0, true, false, err
	}
	if term {
		g, err := t.c.Goal(s, t.role)
		if err != nil {
			g = 0
		}
		return float64(g), true, true, nil
	}
	if depth > 0 {
		return 0, false, false, nil
	}
	t.c.CountEval()
	v, err = heuristic.Eval(t.eval, t.c, s, t.role)
	return v, true, false, err
}

// expand counts one node expansion and generates the children of s.
func (t *tree) expand(s game.State) (children, error) {
	if err := t.c.Expand(); err != nil {
		return children{}, err
	}
	mine, err := t.c.Legal(s, t.role, nil)
	if err == nil && len(mine) == 0 {
		err = &game.NoLegalMoveError{Role: t.c.Roles()[t.role]}
	}
	if err != nil {
		return children{}, err
	}
	replies, err := t.replies(s)
	return children{mine: mine, replies: replies}, err
}

// next returns the state after the role plays a and the others play reply.
func (t *tree) next(s game.State, a game.Move, reply []game.Move) (game.State, error) {
	copy(t.joint, reply)
	t.joint[t.role] = a
	return t.c.Next(s, t.joint)
}

// rootResult is the outcome of one search from the root.
type rootResult struct {
	move   game.Move
	value  float64
	done   int  // root moves whose value (or bound) is known
	solved bool // every searched line reached its end
	proven bool // the best move's lines all reached their end: its value is exact
}

// record notes the outcome v (solved or not) of root move m.
func (r *rootResult) record(m game.Move, v float64, solved bool) {
	if r.better(v) {
		r.move, r.value, r.proven = m, v, solved
	}
	r.done++
	r.solved = r.solved && solved
}

// final reports whether deeper search cannot change the choice: every line
// ended, or the best move is a proven win (100 is the top of the goal scale).
func (r *rootResult) final() bool { return r.solved || (r.proven && r.value >= 100) }

// better reports whether a root move with value v replaces the best so far:
// strictly better only, so among equal moves the first in the (shuffled)
// order wins.
func (r *rootResult) better(v float64) bool { return r.done == 0 || v > r.value }

// minimax returns the depth-limited paranoid minimax value of s and whether
// it is exact for every greater depth too.
func (t *tree) minimax(s game.State, depth int) (float64, bool, error) {
	if v, ok, solved, err := t.leaf(s, depth); ok || err != nil {
		return v, solved, err
	}
	ch, err := t.expand(s)
	if err != nil {
		return 0, false, err
	}
	var b backup
	for _, a := range ch.mine {
		v, sol, err := t.minReply(s, a, ch.replies, depth)
		if err != nil {
			return 0, false, err
		}
		b.max(v, sol)
	}
	return b.value, b.solved(100), nil
}

// minReply returns the coalition's best answer to the role's move a.
func (t *tree) minReply(s game.State, a game.Move, replies [][]game.Move, depth int) (float64, bool, error) {
	w := backup{value: 101}
	for _, b := range replies {
		ns, err := t.next(s, a, b)
		if err != nil {
			return 0, false, err
		}
		v, sol, err := t.minimax(ns, depth-1)
		if err != nil {
			return 0, false, err
		}
		w.min(v, sol)
	}
	return w.value, w.solved(0), nil
}

// backup accumulates a node's value from its children's, and whether it is
// solved: the same at every greater depth. It is when every child is, or
// when the extreme child is solved at the end of the goal scale (a proven
// win at a max node, a proven loss at a min node), which no other child can
// beat.
type backup struct {
	value    float64
	some     bool // a child has been seen
	unsolved bool // some child is not solved
	extreme  bool // the child that set value is solved
}

// max takes a child's value at a max node.
func (b *backup) max(v float64, solved bool) {
	if !b.some || v > b.value {
		b.value, b.extreme = v, solved
	}
	b.some, b.unsolved = true, b.unsolved || !solved
}

// min takes a child's value at a min node.
func (b *backup) min(v float64, solved bool) {
	if !b.some || v < b.value {
		b.value, b.extreme = v, solved
	}
	b.some, b.unsolved = true, b.unsolved || !solved
}

// solved reports whether the node's value is settled; end is 100 at max
// nodes and 0 at min nodes.
func (b *backup) solved(end float64) bool { return !b.unsolved || (b.extreme && b.value == end) }

// minimaxRoot searches each root move in order to depth and keeps the best.
// When the budget runs out it returns what it has with the error.
func (t *tree) minimaxRoot(s game.State, order []game.Move, depth int) (rootResult, error) {
	res := rootResult{move: order[0], solved: true}
	if err := t.c.Expand(); err != nil {
		return res, err
	}
	replies, err := t.replies(s)
	if err != nil {
		return res, err
	}
	for _, a := range order {
		v, sol, err := t.minReply(s, a, replies, depth)
		if err != nil {
			return res, err
		}
		res.record(a, v, sol)
	}
	return res, nil
}

// replies returns the coalition's joint moves in s.
func (t *tree) replies(s game.State) ([][]game.Move, error) {
	legal := make([][]game.Move, t.n)
	for r := range legal {
		if r == t.role {
			legal[r] = []game.Move{game.NoMove}
			continue
		}
		ms, err := t.c.Legal(s, r, nil)
		if err != nil {
			return nil, err
		}
		if len(ms) == 0 {
			return nil, &game.NoLegalMoveError{Role: t.c.Roles()[r]}
		}
		legal[r] = ms
	}
	var out [][]game.Move
	err := game.ForEachJoint(legal, func(j []game.Move) error {
		out = append(out, slices.Clone(j))
		return nil
	})
	return out, err
}
