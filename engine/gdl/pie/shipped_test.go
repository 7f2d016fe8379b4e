package pie_test

import (
	"fmt"
	"slices"

	"gdlab/engine/game"
	"gdlab/engine/gdl/pie"
)

// shipped pairs the generated variant of a game with a pie-rule game
// written by hand, to be compared on move texts: roles by position (the
// hand-written games often rename them), legal moves as sets of text,
// terminal and goals.
type shipped struct {
	gen, hand game.Machine
	// decline is the hand-written game's move by which the second player
	// declines the swap in a ply of its own before it moves, or "" when
	// the swap is offered beside its moves, as the generic rule does.
	decline string
}

// playout plays one seeded random game of the generated variant, with the
// swap at step 1 when swap is set and no more often than chance otherwise,
// and follows it in the hand-written game, returning the joint moves played
// and the first disagreement. Where the hand-written game has its own ply
// to decline the swap, any move but the swap is played there after the
// decline, and the swap before it.
func (p shipped) playout(seed uint64, swap bool) (int, error) {
	rng := game.NewRand(seed)
	sg, sh := p.gen.Initial(), p.hand.Initial()
	for step := 0; step < maxSteps; step++ {
		got, err := observe(p.gen, sg)
		if err != nil {
			return step, fmt.Errorf("step %d: generated: %w", step, err)
		}
		view, want, err := p.observeHand(sh)
		if err != nil {
			return step, fmt.Errorf("step %d: hand-written: %w", step, err)
		}
		if msg := got.differs(want); msg != "" {
			return step, fmt.Errorf("step %d: %s", step, msg)
		}
		if got.terminal {
			return step, nil
		}
		joint := randomJoint(got, rng.IntN, func(int, string) bool { return false })
		if step == 1 && swap {
			joint[1] = pie.DefaultSwap
		}
		if sg, err = playText(p.gen, sg, joint); err != nil {
			return step, err
		}
		if joint[1] == pie.DefaultSwap {
			view = sh
		}
		if sh, err = playText(p.hand, view, joint); err != nil {
			return step, fmt.Errorf("step %d: hand-written plays %v: %w", step, joint, err)
		}
	}
	return maxSteps, fmt.Errorf("no end after %d steps", maxSteps)
}

// observeHand returns the hand-written game's state to play the next
// move from, past a decline ply, and what it shows there: at a decline
// ply, the moves after the decline with the swap beside them.
func (p shipped) observeHand(s game.State) (game.State, outcome, error) {
	view, declined, err := p.declined(s)
	if err != nil {
		return nil, outcome{}, err
	}
	o, err := observe(p.hand, view)
	if err == nil && declined && !o.terminal {
		o.legal[1] = append(o.legal[1], pie.DefaultSwap)
		slices.Sort(o.legal[1])
	}
	return view, o, err
}

// declined returns the state after the decline ply when s is one, where
// the second player may only swap or decline and the first must wait.
func (p shipped) declined(s game.State) (game.State, bool, error) {
	if p.decline == "" {
		return s, false, nil
	}
	second, err := legalTexts(p.hand, s, 1)
	if err != nil || !slices.Contains(second, p.decline) {
		return s, false, err
	}
	want := []string{p.decline, pie.DefaultSwap}
	slices.Sort(want)
	first, err := legalTexts(p.hand, s, 0)
	if err != nil {
		return nil, false, err
	}
	if !slices.Equal(second, want) || len(first) != 1 {
		return nil, false, fmt.Errorf("decline ply: legal %v and %v, want one move and %v", first, second, want)
	}
	next, err := playText(p.hand, s, []string{first[0], p.decline})
	return next, true, err
}

// perft counts the hand-written game's joint-move sequences and terminal
// sequences per depth, depth first, with a decline ply not counted as a
// ply: what game.Perft counts in the generated variant.
func (p shipped) perft(depth int) ([][2]int64, error) {
	counts := make([][2]int64, depth)
	err := p.walk(p.hand.Initial(), 0, counts)
	return counts, err
}

func (p shipped) walk(s game.State, d int, counts [][2]int64) error {
	if d == len(counts) {
		return nil
	}
	view, o, err := p.observeHand(s)
	if err != nil || o.terminal {
		return err
	}
	for _, a := range o.legal[0] {
		for _, b := range o.legal[1] {
			from := view
			if b == pie.DefaultSwap {
				from = s
			}
			next, err := playText(p.hand, from, []string{a, b})
			if err != nil {
				return err
			}
			if err := p.count(next, d, counts); err != nil {
				return err
			}
		}
	}
	return nil
}

// count adds a sequence of d+1 joint moves ending in s and walks on.
func (p shipped) count(s game.State, d int, counts [][2]int64) error {
	counts[d][0]++
	over, err := p.hand.Terminal(s)
	if err != nil {
		return err
	}
	if over {
		counts[d][1]++
		return nil
	}
	return p.walk(s, d+1, counts)
}
