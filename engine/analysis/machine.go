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

// EmulationOf returns the emulation of an emulating machine, found under
// wrappers as Network finds a network, or nil.
func EmulationOf(m game.Machine) *Emulation {
	for u := m; u != nil; {
		switch v := u.(type) {
		case interface{ Emulation() *Emulation }:
			return v.Emulation()
		case interface{ Unwrap() game.Machine }:
			u = v.Unwrap()
			continue
		}
		break
	}
	return nil
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

// BaseProps returns the base propositions of the network the analysis
// read, in that network's numbering: the props Holds needs.
func (a *Analysis) BaseProps() []string { return propsOf(a.factIndex) }

// RangeHolding is Range for the state whose base propositions has
// reports, as Holds gives it for a simulator.
func (a *Analysis) RangeHolding(has func(b int) bool, role int) (min, max int) {
	if role < 0 || role >= len(a.goals) || len(a.goals[role]) == 0 {
		return 0, 100
	}
	return a.rangeWith(has, role)
}

// BaseProps returns the base propositions of the network the emulation
// was computed on, in its numbering: the props Holds needs for Decided.
func (v *VirtualTerminal) BaseProps() []string { return propsOf(v.factIndex) }

// propsOf lists the facts of an index by their numbers.
func propsOf(index map[string]int) []string {
	props := make([]string, len(index))
	for f, i := range index {
		props[i] = f
	}
	return props
}

// NewSimulator returns a simulator of the emulating machine: the network's
// own, without goal logic, with goals read from the emulation. It allocates
// nothing but State.
func (m *EmulatedMachine) NewSimulator() game.Simulator {
	return &emulatedSim{Sim: m.net.NewSim(), m: m}
}

// emulatedSim is the emulating machine's simulator.
type emulatedSim struct {
	*propnet.Sim
	m *EmulatedMachine
}

// Goals appends the emulated goals of the current state to dst[:0].
func (s *emulatedSim) Goals(dst []int) ([]int, error) { return s.m.SimGoals(s.Sim, dst), nil }

// Unwrap returns the network's simulator, whose base propositions Holds
// reads.
func (s *emulatedSim) Unwrap() game.Simulator { return s.Sim }

// Machine returns the network the distances were measured on. Moves and
// base propositions in the distances are numbered as in it.
func (d *Distances) Machine() game.Machine { return d.net }

// NewSimulator returns a simulator of the network the distances were
// measured on. Its Save encoding is the state's base propositions as a
// bitset, which SavedHolds reads.
func (d *Distances) NewSimulator() game.Simulator { return d.net.NewSim() }

// SavedHolds reports whether base proposition b holds in saved, a Save
// encoding of a simulator from NewSimulator.
func (d *Distances) SavedHolds(saved []uint64, b int) bool {
	return saved[b>>6]&(1<<uint(b&63)) != 0
}

// StateOf returns s as a state of the network the distances were measured
// on: s itself when it is one, otherwise the network's state with the same
// facts.
func (d *Distances) StateOf(s game.State) (game.State, error) { return stateIn(d.net, s) }

// WinValue returns role's largest goal value, or -1 when it has none.
func (d *Distances) WinValue(role int) int {
	if v, idx := winValue(d.net, role); idx >= 0 {
		return v
	}
	return -1
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

// stateIn returns s as a state of net.
func stateIn(net *propnet.Net, s game.State) (game.State, error) {
	if ps, ok := s.(*propnet.State); ok && ps.Net() == net {
		return s, nil
	}
	return net.StateOf(s.Facts())
}
