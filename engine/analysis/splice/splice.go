// Package splice lets a search keep some base propositions of a game's
// state as they were while moves are played: after a move, the kept
// propositions get back the values they had before it, and the rest of
// the state is the move's. Factored search holds the other factors of a
// game still this way while it searches one, so that a move elsewhere
// changes nothing but the turn.
//
// Like analysis.Holds, a Keeper works on any simulator and is fast on a
// network's own: there it masks the simulator's saved bits (the base
// propositions in the network's numbering) and restores them, which
// propagates only the propositions that changed; on any other simulator
// it rebuilds the state from its facts (analysis.StateOf).
package splice

import (
	"fmt"
	"slices"

	"gdlab/engine/analysis"
	"gdlab/engine/game"
	"gdlab/engine/propnet"
)

// Keeper keeps a set of base propositions of one simulator's state across
// moves. Mark records their values in the current state; Restore writes
// those values back into the current state. A Keeper is not safe for
// concurrent use, as its simulator is not.
type Keeper struct {
	sim  game.Simulator
	m    game.Machine
	fast *propnet.Sim // the network simulator under sim, or nil
	// The fast path: the kept bases' bits, and the saved states.
	mask, before, after []uint64
	// The general case: the kept bases' facts, and the marked state's.
	kept   map[string]bool
	marked []string
}

// New returns a keeper of the base propositions bases (indexes into
// props, a network's BaseProps) of sim's current state; m is the machine
// sim was made from, used to build states on simulators other than a
// network's own.
func New(m game.Machine, sim game.Simulator, props []string, bases []int) (*Keeper, error) {
	k := &Keeper{sim: sim, m: m}
	for u := sim; ; {
		if ps, ok := u.(*propnet.Sim); ok && slices.Equal(ps.Net().BaseProps(), props) {
			k.fast = ps
			break
		}
		w, ok := u.(interface{ Unwrap() game.Simulator })
		if !ok {
			break
		}
		u = w.Unwrap()
	}
	if k.fast != nil {
		k.mask = make([]uint64, (len(props)+63)/64)
		for _, b := range bases {
			if b < 0 || b >= len(props) {
				return nil, fmt.Errorf("splice: base %d out of range", b)
			}
			k.mask[b>>6] |= 1 << uint(b&63)
		}
		return k, nil
	}
	k.kept = make(map[string]bool, len(bases))
	for _, b := range bases {
		if b < 0 || b >= len(props) {
			return nil, fmt.Errorf("splice: base %d out of range", b)
		}
		k.kept[props[b]] = true
	}
	return k, nil
}

// Mark records the kept propositions' values in the current state.
func (k *Keeper) Mark() {
	if k.fast != nil {
		k.before = k.fast.Save(k.before)
		return
	}
	k.marked = k.marked[:0]
	for _, f := range k.sim.State().Facts() {
		if k.kept[f] {
			k.marked = append(k.marked, f)
		}
	}
}

// Restore gives the kept propositions of the current state the values
// Mark recorded, leaving the others as they are.
func (k *Keeper) Restore() error {
	if k.fast != nil {
		k.after = k.fast.Save(k.after)
		same := true
		for w, m := range k.mask {
			x := k.after[w]&^m | k.before[w]&m
			same = same && x == k.after[w]
			k.after[w] = x
		}
		if same {
			return nil
		}
		return k.fast.Restore(k.after)
	}
	var facts []string
	for _, f := range k.sim.State().Facts() {
		if !k.kept[f] {
			facts = append(facts, f)
		}
	}
	s, err := analysis.StateOf(k.m, append(facts, k.marked...))
	if err != nil {
		return err
	}
	return k.sim.SetState(s)
}
