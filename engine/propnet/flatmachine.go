package propnet

import (
	"fmt"
	"slices"
	"sync"

	"gdlab/engine/game"
)

// Flat is a network run by straight-line simulators (FlatSim) instead of
// differential ones: a game.Machine whose every method, and every
// simulator it makes, evaluates the network gate by gate. It shares its
// Net's states, moves and texts, and is safe for concurrent use.
type Flat struct {
	*Net
	p    *program
	pool sync.Pool
}

// Flat is a game.Machine with a simulator of its own.
var (
	_ game.Machine        = (*Flat)(nil)
	_ game.SimulatorMaker = (*Flat)(nil)
)

// NewFlat compiles n into straight-line code. It fails only on a network
// that Build did not make as it does (a gate that is not an AND or an OR,
// a cycle).
func NewFlat(n *Net) (*Flat, error) {
	p, err := compileProgram(n, true)
	if err != nil {
		return nil, err
	}
	f := &Flat{Net: n, p: p}
	f.pool.New = func() any { return f.NewFlatSim() }
	return f, nil
}

// NewFlatSim returns a straight-line simulator at the initial state.
func (f *Flat) NewFlatSim() *FlatSim { return newFlatSim(f.p, false) }

// NewSimulator returns NewFlatSim's simulator as a game.Simulator.
func (f *Flat) NewSimulator() game.Simulator { return f.NewFlatSim() }

// Gates returns how many gates the straight-line code evaluates: those
// that read only the state (every step), those that read moves (every
// step, once the moves are set) and those only goals read (when a goal is
// asked for).
func (f *Flat) Gates() (state, move, goal int) {
	return len(f.p.stateCode.gates), len(f.p.moveCode.gates), len(f.p.goalCode.gates)
}

// borrow returns a pooled simulator set to s.
func (f *Flat) borrow(s game.State) (*FlatSim, error) {
	st, err := f.state(s)
	if err != nil {
		return nil, err
	}
	sim := f.pool.Get().(*FlatSim)
	sim.load(st.bits)
	return sim, nil
}

// Legal appends role's legal moves in s to dst[:0], sorted by text.
func (f *Flat) Legal(s game.State, role int, dst []game.Move) ([]game.Move, error) {
	if err := f.checkRole(role); err != nil {
		return dst[:0], err
	}
	sim, err := f.borrow(s)
	if err != nil {
		return dst[:0], err
	}
	defer f.pool.Put(sim)
	return sim.Legal(role, dst)
}

// Next returns the state after joint, one move per role.
func (f *Flat) Next(s game.State, joint []game.Move) (game.State, error) {
	if len(joint) != len(f.roles) {
		return nil, fmt.Errorf("propnet: joint move has %d moves for %d roles", len(joint), len(f.roles))
	}
	for r, m := range joint {
		if m < 0 || int(m) >= len(f.moves[r]) {
			return nil, fmt.Errorf("propnet: %d is not a move of %s", m, f.roles[r])
		}
	}
	sim, err := f.borrow(s)
	if err != nil {
		return nil, err
	}
	defer f.pool.Put(sim)
	sim.setJoint(joint)
	sim.advance()
	return f.newState(slices.Clone(sim.state)), nil
}

// Terminal reports whether s is terminal.
func (f *Flat) Terminal(s game.State) (bool, error) {
	sim, err := f.borrow(s)
	if err != nil {
		return false, err
	}
	defer f.pool.Put(sim)
	return sim.Terminal()
}

// Goal returns role's single goal value in s, or game.ErrNoGoal or
// game.ErrManyGoals, or an error for a value that is not an integer.
func (f *Flat) Goal(s game.State, role int) (int, error) {
	if err := f.checkRole(role); err != nil {
		return 0, err
	}
	sim, err := f.borrow(s)
	if err != nil {
		return 0, err
	}
	defer f.pool.Put(sim)
	sim.evalGoals()
	found := -1
	for i, l := range f.p.goals[role] {
		if sim.val[l] == 0 {
			continue
		}
		if found >= 0 {
			return 0, game.ErrManyGoals
		}
		found = i
	}
	if found < 0 {
		return 0, game.ErrNoGoal
	}
	if g := f.goals[role][found]; !g.ok {
		return 0, fmt.Errorf("goal value %q of %s is not an integer", g.text, f.roles[role])
	}
	return f.goals[role][found].value, nil
}
