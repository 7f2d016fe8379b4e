package emulate

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"gdlab/engine/game"
	"gdlab/engine/gdl"
	"gdlab/engine/propnet"
)

// Machine is a game.Machine that plays on a network built without
// the game's goal rules and computes goals with an Emulation's accepted
// hypothesis: the network computes legality, transitions and termination,
// which the goals never influence, and the goal logic (a large counting
// circuit in Reversi) is gone. Its states are those of its own network;
// their facts are the full network's. Safe for concurrent use.
type Machine struct {
	net *propnet.Net
	em  *Emulation
}

// ErrNoEmulation is returned by NewMachine when the emulation has
// no accepted goal hypothesis.
var ErrNoEmulation = errors.New("analysis: no accepted goal hypothesis to emulate the goals with")

// NewMachine builds the network of d without its goal rules and
// pairs it with em, which must come from the network of d. It refuses
// games whose other rules read goal (dropping goal would change them) and
// checks that the two networks have the same roles and base propositions.
func NewMachine(ctx context.Context, d *gdl.Description, em *Emulation, opt propnet.Options) (*Machine, error) {
	if em == nil || em.Goal == nil {
		return nil, ErrNoEmulation
	}
	stripped, err := withoutGoals(d)
	if err != nil {
		return nil, err
	}
	net, err := propnet.Build(ctx, stripped, opt)
	if err != nil {
		return nil, err
	}
	if !slices.Equal(net.Roles(), em.Roles) || !slices.Equal(net.BaseProps(), em.Facts) {
		return nil, errors.New("analysis: the network without goals has other roles or base propositions than the emulation's")
	}
	return &Machine{net: net, em: em}, nil
}

// withoutGoals returns d without the rules whose head is goal.
func withoutGoals(d *gdl.Description) (*gdl.Description, error) {
	out := &gdl.Description{File: d.File}
	for _, r := range d.Rules {
		if r.Head.Name == "goal" {
			continue
		}
		for _, l := range r.Body {
			if readsGoal(l) {
				return nil, fmt.Errorf("analysis: %s reads goal, so the goal rules cannot be dropped", r.Head.Name)
			}
		}
		out.Rules = append(out.Rules, r)
	}
	return out, nil
}

func readsGoal(l gdl.Literal) bool {
	switch l := l.(type) {
	case *gdl.Atom:
		return l.Name == "goal"
	case *gdl.Not:
		return readsGoal(l.Arg)
	case *gdl.Or:
		for _, x := range l.Args {
			if readsGoal(x) {
				return true
			}
		}
	}
	return false
}

// Net returns the network without goals, on which playouts run.
func (m *Machine) Net() *propnet.Net { return m.net }

// Emulation returns the emulation that computes the goals.
func (m *Machine) Emulation() *Emulation { return m.em }

// SimGoals writes every role's goal in sim's current state (a simulator of
// Net) into dst, -1 where undefined, and returns it. It allocates nothing.
func (m *Machine) SimGoals(sim *propnet.Sim, dst []int) []int {
	return m.em.Goals(sim.Has, !m.em.Goal.TerminalOnly || terminal(sim), dst)
}

// terminal reports whether sim's current state is terminal; a network's
// simulator never fails.
func terminal(sim *propnet.Sim) bool {
	t, _ := sim.Terminal()
	return t
}

// Roles returns the roles.
func (m *Machine) Roles() []string { return m.net.Roles() }

// Initial returns the initial state.
func (m *Machine) Initial() game.State { return m.net.Initial() }

// Legal appends role's legal moves in s to dst[:0].
func (m *Machine) Legal(s game.State, role int, dst []game.Move) ([]game.Move, error) {
	return m.net.Legal(s, role, dst)
}

// Next returns the state after joint.
func (m *Machine) Next(s game.State, joint []game.Move) (game.State, error) {
	return m.net.Next(s, joint)
}

// Terminal reports whether s is terminal.
func (m *Machine) Terminal(s game.State) (bool, error) { return m.net.Terminal(s) }

// Goal returns role's emulated goal in s.
func (m *Machine) Goal(s game.State, role int) (int, error) {
	if role < 0 || role >= len(m.em.Roles) {
		return 0, fmt.Errorf("analysis: no role %d", role)
	}
	term := true
	if m.em.Goal.TerminalOnly {
		var err error
		if term, err = m.net.Terminal(s); err != nil {
			return 0, err
		}
	}
	var buf [8]int
	g := m.em.Goals(m.em.has(s), term, buf[:0])[role]
	if g < 0 {
		return 0, game.ErrNoGoal
	}
	return g, nil
}

// MoveText returns the canonical text of role's move m.
func (m *Machine) MoveText(role int, mv game.Move) string { return m.net.MoveText(role, mv) }

// ParseMove returns role's move with the given text.
func (m *Machine) ParseMove(role int, text string) (game.Move, error) {
	return m.net.ParseMove(role, text)
}

// NewSimulator returns a simulator of the emulating machine: the network's
// own, without goal logic, with goals read from the emulation. It allocates
// nothing but State.
func (m *Machine) NewSimulator() game.Simulator {
	return &emulatedSim{Sim: m.net.NewSim(), m: m}
}

// emulatedSim is the emulating machine's simulator.
type emulatedSim struct {
	*propnet.Sim
	m *Machine
}

// Goals appends the emulated goals of the current state to dst[:0].
func (s *emulatedSim) Goals(dst []int) ([]int, error) { return s.m.SimGoals(s.Sim, dst), nil }

// Unwrap returns the network's simulator, whose base propositions
// analysis.Holds reads.
func (s *emulatedSim) Unwrap() game.Simulator { return s.Sim }

// Of returns the emulation of an emulating machine, found under wrappers
// (an Unwrap() game.Machine method, such as search.Counter's), or nil.
func Of(m game.Machine) *Emulation {
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
