// Package analysis lets the analyses of a game's propositional network
// (in its subpackages latch, emulate and distance) serve a searcher that
// holds any game.Machine.
package analysis

import (
	"context"
	"fmt"
	"slices"

	"gdlab/engine/game"
	"gdlab/engine/gdl"
	"gdlab/engine/propnet"
)

// The analyses read a propositional network, but searchers hold a
// game.Machine: a network, a prover, a metering or emulating wrapper. The
// functions here let a searcher use the analyses on any machine: Network
// finds or builds the network of the machine's game, and Holds reads a
// simulator's current state in the network's numbering of base
// propositions, at the network's speed when the simulator is one of its
// own.

// Network returns the propositional network of m's game: m itself or the
// network under its wrappers (anything with an Unwrap() game.Machine
// method, such as search.Counter, or a Net() *propnet.Net method, such as
// the emulating machine), or, for a machine that knows its rules (a
// Rules() *gdl.Description method, such as the prover), a network built
// from them.
func Network(ctx context.Context, m game.Machine) (*propnet.Net, error) {
	for u := m; u != nil; {
		switch v := u.(type) {
		case *propnet.Net:
			return v, nil
		case interface{ Net() *propnet.Net }:
			return v.Net(), nil
		case interface{ Rules() *gdl.Description }:
			return propnet.Build(ctx, v.Rules(), propnet.Options{})
		case interface{ Unwrap() game.Machine }:
			u = v.Unwrap()
			continue
		}
		break
	}
	return nil, fmt.Errorf("analysis: no propositional network for a %T: it is not one, wraps none and does not give its rules", m)
}

// Holds returns a test of whether sim's current state holds a base
// proposition, numbered as in props (a network's BaseProps). When sim is
// a network simulator with exactly these base propositions, under any
// wrappers with an Unwrap() game.Simulator method, the test is the
// simulator's own bit test and allocates nothing; otherwise it reads the
// state's facts whenever the state has changed.
func Holds(sim game.Simulator, props []string) func(b int) bool {
	for u := sim; ; {
		if ps, ok := u.(*propnet.Sim); ok && slices.Equal(ps.Net().BaseProps(), props) {
			return ps.Has
		}
		w, ok := u.(interface{ Unwrap() game.Simulator })
		if !ok {
			break
		}
		u = w.Unwrap()
	}
	return factReader(sim, props)
}

// factReader is Holds' general case: the facts of sim's state, read again
// when its hash changes.
func factReader(sim game.Simulator, props []string) func(b int) bool {
	index := make(map[string]int, len(props))
	for i, f := range props {
		index[f] = i
	}
	var (
		hash  uint64
		valid bool
		set   = map[int]bool{}
	)
	return func(b int) bool {
		if h := sim.Hash(); !valid || h != hash {
			clear(set)
			for _, f := range sim.State().Facts() {
				if i, ok := index[f]; ok {
					set[i] = true
				}
			}
			hash, valid = h, true
		}
		return set[b]
	}
}

// StateOf returns the state of m holding exactly the given facts
// (canonical text), for constructing positions: through the network under
// m's wrappers, or m's own StateOf method (the prover has one). A network
// fails on a fact that is not one of its base propositions.
func StateOf(m game.Machine, facts []string) (game.State, error) {
	for u := m; u != nil; {
		switch v := u.(type) {
		case *propnet.Net:
			return v.StateOf(facts)
		case interface{ Net() *propnet.Net }:
			return v.Net().StateOf(facts)
		case interface {
			StateOf([]string) (game.State, error)
		}:
			return v.StateOf(facts)
		case interface{ Unwrap() game.Machine }:
			u = v.Unwrap()
			continue
		}
		break
	}
	return nil, fmt.Errorf("analysis: a %T cannot make a state from facts", m)
}

// StateIn returns s as a state of net: s itself when it is one of net's,
// otherwise net's state with the same facts.
func StateIn(net *propnet.Net, s game.State) (game.State, error) {
	if ps, ok := s.(*propnet.State); ok && ps.Net() == net {
		return s, nil
	}
	return net.StateOf(s.Facts())
}
