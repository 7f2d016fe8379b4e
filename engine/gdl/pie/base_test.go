package pie_test

import (
	"fmt"
	"slices"

	"gdlab/engine/game"
	"gdlab/engine/gdl/pie"
)

// followBase plays one seeded random game of v, the variant of g, and
// checks it against g at every step: without a swap the two agree move for
// move, save the swap offered to the second player at step 1; after a swap
// at step 1 g stays where it was, and each player of v has the moves and
// goals of the other role of g from then on.
func followBase(v, g game.Machine, seed uint64, swap bool) error {
	rng := game.NewRand(seed)
	sv, sg := v.Initial(), g.Initial()
	swapped := false
	for step := 0; step < maxSteps; step++ {
		got, err := observe(v, sv)
		if err != nil {
			return fmt.Errorf("step %d: variant: %w", step, err)
		}
		want, err := observe(g, sg)
		if err != nil {
			return fmt.Errorf("step %d: base: %w", step, err)
		}
		if msg := got.differs(want.asPlayed(swapped, step == 1)); msg != "" {
			return fmt.Errorf("step %d (swapped %v): %s", step, swapped, msg)
		}
		if got.terminal {
			return nil
		}
		joint := randomJoint(got, rng.IntN, func(_ int, m string) bool { return m == pie.DefaultSwap })
		if step == 1 && swap {
			joint[1], swapped = pie.DefaultSwap, true
		}
		if sv, err = playText(v, sv, joint); err != nil {
			return fmt.Errorf("step %d: variant plays %v: %w", step, joint, err)
		}
		if joint[1] == pie.DefaultSwap {
			continue // the base game does not move
		}
		if sg, err = playText(g, sg, permute(joint, swapped)); err != nil {
			return fmt.Errorf("step %d: base plays %v: %w", step, joint, err)
		}
	}
	return fmt.Errorf("no end after %d steps", maxSteps)
}

// asPlayed returns what the players of the variant should see in a state of
// the base game: the roles' moves and goals exchanged after a swap, and the
// swap added to the second player's moves where it is offered.
func (o outcome) asPlayed(swapped, offer bool) outcome {
	p := outcome{terminal: o.terminal, goals: permute(o.goals, swapped)}
	if o.legal == nil {
		return p
	}
	p.legal = permute(o.legal, swapped)
	if offer {
		p.legal[1] = append(slices.Clone(p.legal[1]), pie.DefaultSwap)
		slices.Sort(p.legal[1])
	}
	return p
}

// permute exchanges the two entries of a per-role pair after a swap.
func permute[T any](xs []T, swapped bool) []T {
	if !swapped {
		return xs
	}
	return []T{xs[1], xs[0]}
}
