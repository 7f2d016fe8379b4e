package mcts

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"gdlab/engine/game"
)

// errSolveBudget is returned when an exhaustive solve needs more nodes than
// its budget allows.
var errSolveBudget = errors.New("solve: node budget exhausted")

// solveMaxDepth bounds a solve's recursion: the regression-set games have
// no cycles, so a deeper line means a game the solver should not be used on.
const solveMaxDepth = 400

// solver computes exact values of a two-role constant-sum game (the goals
// of every terminal state sum to 100, checked) by alpha-beta over the whole
// game, with no depth limit and a transposition table of bounds. Values
// are for role me on the goal scale.
//
// Where both roles choose at once, the roles commit in a fixed order and
// the second answers knowing the first's choice: meFirst gives me's pure
// maximin (lower) value, max_a min_b V(next(a, b)), at every such node below
// too; !meFirst gives the pure minimax (upper) value, min_b max_a V. The
// value of the game in mixed strategies lies between the two, so where they
// are equal at a position that is its value. At a node where one role has
// a single move both orders are ordinary minimax.
type solver struct {
	ctx     context.Context
	m       game.Machine
	me      int
	meFirst bool
	budget  int64 // nodes expanded at most
	nodes   int64
	tt      map[uint64][]bounds
	// history scores each role's moves by the cut-offs they caused, to try
	// them first elsewhere: ordering changes what is pruned, never a value.
	history [2]map[game.Move]int
}

// bounds are what the table knows of a state's value: lo ≤ value ≤ hi.
type bounds struct {
	s      game.State
	lo, hi float64
}

func newSolver(ctx context.Context, m game.Machine, me int, meFirst bool, budget int64) *solver {
	return &solver{ctx: ctx, m: m, me: me, meFirst: meFirst, budget: budget, tt: map[uint64][]bounds{},
		history: [2]map[game.Move]int{{}, {}}}
}

// ordered returns role's moves sorted by history, best first (stable).
func (z *solver) ordered(role int, moves []game.Move) []game.Move {
	out := slices.Clone(moves)
	h := z.history[role]
	slices.SortStableFunc(out, func(a, b game.Move) int { return h[b] - h[a] })
	return out
}

// entry returns the table's bounds for s, adding [0, 100] when it has none.
func (z *solver) entry(s game.State) *bounds {
	list := z.tt[s.Hash()]
	for i := range list {
		if list[i].s.Equal(s) {
			return &z.tt[s.Hash()][i]
		}
	}
	z.tt[s.Hash()] = append(list, bounds{s: s, lo: 0, hi: 100})
	l := z.tt[s.Hash()]
	return &l[len(l)-1]
}

// terminalValue returns me's goal in terminal s, checking constant sum.
func (z *solver) terminalValue(s game.State) (float64, error) {
	sum := 0
	var mine int
	for r := range z.m.Roles() {
		g, err := z.m.Goal(s, r)
		if err != nil {
			return 0, err
		}
		sum += g
		if r == z.me {
			mine = g
		}
	}
	if sum != 100 {
		return 0, fmt.Errorf("solve: goals sum to %d, not 100, in a terminal state", sum)
	}
	return float64(mine), nil
}

// value returns me's value of s within (alpha, beta), or a bound outside
// it (fail-soft).
func (z *solver) value(s game.State, alpha, beta float64, depth int) (float64, error) {
	term, err := z.m.Terminal(s)
	if err != nil || term {
		if err != nil {
			return 0, err
		}
		return z.terminalValue(s)
	}
	e := z.entry(s)
	switch {
	case e.lo == e.hi, e.lo >= beta:
		return e.lo, nil
	case e.hi <= alpha:
		return e.hi, nil
	}
	alpha, beta = max(alpha, e.lo), min(beta, e.hi)
	v, err := z.expand(s, alpha, beta, depth)
	if err != nil {
		return 0, err
	}
	e = z.entry(s) // the table may have grown
	switch {
	case v <= alpha:
		e.hi = min(e.hi, v)
	case v >= beta:
		e.lo = max(e.lo, v)
	default:
		e.lo, e.hi = v, v
	}
	return v, nil
}

// expand searches the joint moves of s: the outer role commits first, the
// inner answers; me maximises, the other role minimises.
func (z *solver) expand(s game.State, alpha, beta float64, depth int) (float64, error) {
	if z.nodes++; z.nodes > z.budget {
		return 0, errSolveBudget
	}
	if depth > solveMaxDepth {
		return 0, fmt.Errorf("solve: deeper than %d joint moves", solveMaxDepth)
	}
	if err := z.ctx.Err(); err != nil {
		return 0, err
	}
	legal, err := game.LegalAll(z.m, s)
	if err != nil {
		return 0, err
	}
	outer, inner := z.me, 1-z.me
	if !z.meFirst {
		outer, inner = inner, outer
	}
	outerMax := outer == z.me
	best := worst(outerMax)
	joint := make([]game.Move, 2)
	for _, a := range z.ordered(outer, legal[outer]) {
		lo, hi := alpha, beta
		if outerMax {
			lo = max(lo, best)
		} else {
			hi = min(hi, best)
		}
		joint[outer] = a
		w, err := z.answer(s, joint, inner, z.ordered(inner, legal[inner]), !outerMax, lo, hi, depth)
		if err != nil {
			return 0, err
		}
		if outerMax {
			best = max(best, w)
		} else {
			best = min(best, w)
		}
		if (outerMax && best >= beta) || (!outerMax && best <= alpha) {
			z.history[outer][a]++
			break
		}
	}
	return best, nil
}

// answer is the inner role's best reply to joint's outer move, within
// (lo, hi) or a bound outside it.
func (z *solver) answer(s game.State, joint []game.Move, inner int, moves []game.Move, innerMax bool, lo, hi float64, depth int) (float64, error) {
	w := worst(innerMax)
	for _, b := range moves {
		joint[inner] = b
		next, err := z.m.Next(s, joint)
		if err != nil {
			return 0, err
		}
		a2, b2 := lo, hi
		if innerMax {
			a2 = max(a2, w)
		} else {
			b2 = min(b2, w)
		}
		v, err := z.value(next, a2, b2, depth+1)
		if err != nil {
			return 0, err
		}
		if innerMax {
			w = max(w, v)
		} else {
			w = min(w, v)
		}
		if (innerMax && w >= hi) || (!innerMax && w <= lo) {
			z.history[inner][b]++
			break
		}
	}
	return w, nil
}

// worst is the starting value of a maximising (−1) or minimising (101) loop.
func worst(maximise bool) float64 {
	if maximise {
		return -1
	}
	return 101
}

// exactValue returns me's value of s, solved with the full window.
func (z *solver) exactValue(s game.State) (float64, error) { return z.value(s, -1, 101, 0) }

// rootValues returns, for each legal move a of role me at s, the value me
// secures by committing to a when the other role answers knowing it:
// min_b V(next(a, b)), V solved with me committing first below (the pure
// maximin). In a turn-taking position the other role's only move is its
// noop, and this is each move's minimax value.
func rootValues(ctx context.Context, m game.Machine, s game.State, me int, budget int64) ([]game.Move, []float64, error) {
	z := newSolver(ctx, m, me, true, budget)
	legal, err := game.LegalAll(m, s)
	if err != nil {
		return nil, nil, err
	}
	if len(legal) != 2 {
		return nil, nil, fmt.Errorf("solve: %d roles; the solver takes two", len(legal))
	}
	vals := make([]float64, len(legal[me]))
	joint := make([]game.Move, 2)
	for i, a := range legal[me] {
		joint[me] = a
		w := 101.0
		for _, b := range legal[1-me] {
			joint[1-me] = b
			next, err := m.Next(s, joint)
			if err != nil {
				return nil, nil, err
			}
			v, err := z.value(next, -1, w, 1)
			if err != nil {
				return nil, nil, err
			}
			w = min(w, v)
		}
		vals[i] = w
	}
	return legal[me], vals, nil
}

// upperValue returns me's pure minimax value of s (the other role commits
// first wherever both choose).
func upperValue(ctx context.Context, m game.Machine, s game.State, me int, budget int64) (float64, error) {
	return newSolver(ctx, m, me, false, budget).exactValue(s)
}

// bruteValue is the solver's reference: me's pure maximin (meFirst) or
// minimax value of s by plain recursion, no pruning and no table.
func bruteValue(m game.Machine, s game.State, me int, meFirst bool) (float64, error) {
	if term, err := m.Terminal(s); err != nil || term {
		if err != nil {
			return 0, err
		}
		g, err := m.Goal(s, me)
		return float64(g), err
	}
	legal, err := game.LegalAll(m, s)
	if err != nil {
		return 0, err
	}
	outer, inner := me, 1-me
	if !meFirst {
		outer, inner = inner, outer
	}
	best := worst(outer == me)
	joint := make([]game.Move, 2)
	for _, a := range legal[outer] {
		w := worst(inner == me)
		for _, b := range legal[inner] {
			joint[outer], joint[inner] = a, b
			next, err := m.Next(s, joint)
			if err != nil {
				return 0, err
			}
			v, err := bruteValue(m, next, me, meFirst)
			if err != nil {
				return 0, err
			}
			if inner == me {
				w = max(w, v)
			} else {
				w = min(w, v)
			}
		}
		if outer == me {
			best = max(best, w)
		} else {
			best = min(best, w)
		}
	}
	return best, nil
}
