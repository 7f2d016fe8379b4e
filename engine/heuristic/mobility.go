package heuristic

import (
	"context"
	"fmt"

	"gdlab/engine/game"
)

// Mobility measures how free role is to move, relative to every move it
// could ever make:
//
//	mobility₀(s) = 100 · min(|legal(role, s)|, F) / F       (0 in terminal states)
//	mobilityₙ(s) = mean over joint moves j of mobilityₙ₋₁(next(s, j))
//
// where F = Feasible[role], the number of role's feasible moves, and the
// mean takes every joint move of all roles in a non-terminal s. Ahead is n.
// In turn-taking games role has one move (noop) on the others' turns, so an
// odd Ahead from role's own turn mostly measures the opponents' replies; use
// an even Ahead there.
type Mobility struct {
	Ahead    int   // joint moves looked ahead; 0 looks at s itself
	Feasible []int // F per role; Prepare estimates it when nil
	Samples  int   // playouts Prepare uses for the estimate; 0 means 16
	Seed     uint64
}

// Evaluate returns mobilityₙ(s) for role.
func (mo Mobility) Evaluate(m game.Machine, s game.State, role int) (float64, error) {
	if role < 0 || role >= len(mo.Feasible) || mo.Feasible[role] <= 0 {
		return 0, ErrNotPrepared
	}
	return mobilityAhead(m, s, role, mo.Ahead, float64(mo.Feasible[role]))
}

// Prepare returns a copy with Feasible estimated by EstimateFeasible, or mo
// itself when Feasible is already set.
func (mo Mobility) Prepare(ctx context.Context, m game.Machine) (Evaluator, error) {
	if mo.Feasible != nil {
		return mo, nil
	}
	n := mo.Samples
	if n <= 0 {
		n = 16
	}
	f, err := EstimateFeasible(ctx, m, n, mo.Seed)
	if f == nil {
		return nil, err
	}
	// A start clock that ends mid-estimate still leaves a usable lower bound.
	mo.Feasible = f
	return mo, nil
}

// String names the evaluator.
func (mo Mobility) String() string { return fmt.Sprintf("mobility(%d)", mo.Ahead) }

// Focus prefers states where role has few options, the opposite of mobility:
//
//	focusₙ(s) = 100 − mobilityₙ(s)
//
// It suits games where forcing lines matter more than freedom.
type Focus Mobility

// Evaluate returns 100 − mobilityₙ(s).
func (f Focus) Evaluate(m game.Machine, s game.State, role int) (float64, error) {
	v, err := Mobility(f).Evaluate(m, s, role)
	if err != nil {
		return 0, err
	}
	return 100 - v, nil
}

// Prepare estimates Feasible as Mobility.Prepare does.
func (f Focus) Prepare(ctx context.Context, m game.Machine) (Evaluator, error) {
	e, err := Mobility(f).Prepare(ctx, m)
	if err != nil {
		return nil, err
	}
	return Focus(e.(Mobility)), nil
}

// String names the evaluator.
func (f Focus) String() string { return fmt.Sprintf("focus(%d)", f.Ahead) }

// mobilityAhead computes mobilityₙ by full-width recursion over joint moves.
func mobilityAhead(m game.Machine, s game.State, role, n int, feasible float64) (float64, error) {
	term, err := m.Terminal(s)
	if err != nil || term {
		return 0, err
	}
	if n <= 0 {
		moves, err := m.Legal(s, role, nil)
		if err != nil {
			return 0, err
		}
		return 100 * min(float64(len(moves)), feasible) / feasible, nil
	}
	legal, err := game.LegalAll(m, s)
	if err != nil {
		return 0, err
	}
	sum, count := 0.0, 0
	err = game.ForEachJoint(legal, func(joint []game.Move) error {
		ns, err := m.Next(s, joint)
		if err != nil {
			return err
		}
		v, err := mobilityAhead(m, ns, role, n-1, feasible)
		sum += v
		count++
		return err
	})
	if err != nil || count == 0 {
		return 0, err
	}
	return sum / float64(count), nil
}

// EstimateFeasible estimates each role's number of feasible moves, the
// denominator of mobility, as the number of distinct moves the role has been
// seen to have in the initial state and along `playouts` random playouts
// (seeded by seed, at most 1000 joint moves each). It is a lower bound of the
// moves the rules' input relation allows, and exact for games whose every
// move turns up in play. When ctx ends it returns the estimate so far, if
// any, together with ctx's error.
func EstimateFeasible(ctx context.Context, m game.Machine, playouts int, seed uint64) ([]int, error) {
	n := len(m.Roles())
	seen := make([]map[game.Move]bool, n)
	for r := range seen {
		seen[r] = map[game.Move]bool{}
	}
	rng := game.NewRand(seed)
	joint := make([]game.Move, n)
	var buf []game.Move
	for p := 0; p < max(playouts, 1); p++ {
		s := m.Initial()
		for step := 0; step < 1000; step++ {
			if err := ctx.Err(); err != nil {
				return feasibleCounts(seen, p+step > 0), err
			}
			term, err := m.Terminal(s)
			if err != nil {
				return nil, err
			}
			if term {
				break
			}
			for r := 0; r < n; r++ {
				if buf, err = m.Legal(s, r, buf); err != nil {
					return nil, err
				}
				if len(buf) == 0 {
					return nil, &game.NoLegalMoveError{Role: m.Roles()[r], Step: step}
				}
				for _, mv := range buf {
					seen[r][mv] = true
				}
				joint[r] = buf[rng.IntN(len(buf))]
			}
			if s, err = m.Next(s, joint); err != nil {
				return nil, err
			}
		}
	}
	return feasibleCounts(seen, true), nil
}

// feasibleCounts turns the sets of seen moves into counts of at least 1, or
// nil when nothing was seen yet.
func feasibleCounts(seen []map[game.Move]bool, any bool) []int {
	if !any {
		return nil
	}
	out := make([]int, len(seen))
	for r := range out {
		out[r] = max(len(seen[r]), 1)
	}
	return out
}
