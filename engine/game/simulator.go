package game

import (
	"errors"
	"math/rand/v2"
	"slices"
)

// Simulator is one goroutine's private, mutable view of a game: a current
// state that moves are played into, for playouts and searches that would
// otherwise allocate a State per step. A Simulator is not safe for
// concurrent use; make one per goroutine with NewSimulator. States and
// moves passed to it must come from the Machine it was made from.
//
// A fast simulator (a propositional network's) allocates nothing in any
// method but State. Errors are the machine's: a resource limit, or a state
// or move of another machine; well-formed calls on a well-formed game never
// fail.
type Simulator interface {
	// SetState makes s the current state.
	SetState(s State) error
	// State returns the current state as an immutable State. It allocates.
	State() State
	// Hash returns the current state's hash, equal to State().Hash().
	Hash() uint64
	// Legal appends role's legal moves in the current state to dst[:0],
	// sorted as Machine.Legal sorts them, and returns the extended slice.
	Legal(role int, dst []Move) ([]Move, error)
	// RandomJoint writes into dst[:0] one legal move per role, each drawn
	// with exactly one rng.IntN(n) call (n the role's legal move count) from
	// the role's legal moves in the simulator's own order, which may depend
	// on its history. It fails with a *NoLegalMoveError when a role has none.
	RandomJoint(rng *rand.Rand, dst []Move) ([]Move, error)
	// Play makes the state that follows the current one under joint, one
	// move per role, the current state.
	Play(joint []Move) error
	// Terminal reports whether the current state is terminal.
	Terminal() (bool, error)
	// Goals appends every role's goal in the current state to dst[:0], -1
	// where the rules give no single value, and returns the extended slice.
	Goals(dst []int) ([]int, error)
	// Playout plays uniformly random joint moves from the current state
	// until a terminal state, or for at most maxSteps joint moves when
	// maxSteps > 0, and returns the number played (each one Next call). The
	// final state is the current state. The same generator state gives the
	// same playout from the same state reached the same way (the moves are
	// drawn in the simulator's own order, as RandomJoint's, which may
	// depend on its history).
	Playout(rng *rand.Rand, maxSteps int) (int, error)
	// Save appends an encoding of the current state to dst[:0] and returns
	// it; Restore makes the state saved there current again. Reusing dst
	// for a later Save reuses its storage. An encoding is valid only on the
	// simulator that made it. Together they let a search undo moves.
	Save(dst []uint64) []uint64
	Restore(saved []uint64) error
}

// SimulatorMaker is implemented by a Machine with a simulator of its own,
// faster than the generic one NewSimulator builds on any Machine.
type SimulatorMaker interface {
	NewSimulator() Simulator
}

// NewSimulator returns a simulator for m at its initial state: m's own when
// m implements SimulatorMaker, otherwise one that calls m's methods.
func NewSimulator(m Machine) Simulator {
	if sm, ok := m.(SimulatorMaker); ok {
		return sm.NewSimulator()
	}
	return &machineSim{m: m, cur: m.Initial(), roles: len(m.Roles())}
}

// machineSim is the generic simulator: a current State and m's methods.
// Playout follows Playout's choices exactly, so a search gets the same
// playouts from it as from the free function.
type machineSim struct {
	m     Machine
	cur   State
	roles int
	legal []Move
	saved []State // states that Save handed out, by index
}

func (s *machineSim) SetState(st State) error { s.cur = st; return nil }
func (s *machineSim) State() State            { return s.cur }
func (s *machineSim) Hash() uint64            { return s.cur.Hash() }

func (s *machineSim) Legal(role int, dst []Move) ([]Move, error) {
	return s.m.Legal(s.cur, role, dst)
}

func (s *machineSim) RandomJoint(rng *rand.Rand, dst []Move) ([]Move, error) {
	dst = dst[:0]
	for r := 0; r < s.roles; r++ {
		var err error
		if s.legal, err = s.m.Legal(s.cur, r, s.legal); err != nil {
			return dst, err
		}
		if len(s.legal) == 0 {
			return dst, &NoLegalMoveError{Role: s.m.Roles()[r]}
		}
		dst = append(dst, s.legal[rng.IntN(len(s.legal))])
	}
	return dst, nil
}

func (s *machineSim) Play(joint []Move) error {
	next, err := s.m.Next(s.cur, joint)
	if err != nil {
		return err
	}
	s.cur = next
	return nil
}

func (s *machineSim) Terminal() (bool, error) { return s.m.Terminal(s.cur) }

func (s *machineSim) Goals(dst []int) ([]int, error) {
	dst = dst[:0]
	for r := 0; r < s.roles; r++ {
		g, err := s.m.Goal(s.cur, r)
		if err != nil {
			g = -1
		}
		dst = append(dst, g)
	}
	return dst, nil
}

func (s *machineSim) Playout(rng *rand.Rand, maxSteps int) (int, error) {
	joint := make([]Move, s.roles)
	for steps := 0; ; steps++ {
		term, err := s.m.Terminal(s.cur)
		if err != nil || term || (maxSteps > 0 && steps >= maxSteps) {
			return steps, err
		}
		for r := 0; r < s.roles; r++ {
			if s.legal, err = s.m.Legal(s.cur, r, s.legal); err != nil {
				return steps, err
			}
			if len(s.legal) == 0 {
				return steps, &NoLegalMoveError{Role: s.m.Roles()[r], Step: steps}
			}
			joint[r] = s.legal[rng.IntN(len(s.legal))]
		}
		if s.cur, err = s.m.Next(s.cur, joint); err != nil {
			return steps, err
		}
	}
}

// Save keeps the current state in a slot named by the one word it writes;
// a dst that already names a slot of this simulator reuses that slot, so a
// search that saves into one buffer per ply keeps one state per ply.
func (s *machineSim) Save(dst []uint64) []uint64 {
	if len(dst) == 1 && dst[0] < uint64(len(s.saved)) {
		s.saved[dst[0]] = s.cur
		return dst
	}
	s.saved = append(s.saved, s.cur)
	return append(dst[:0], uint64(len(s.saved)-1))
}

func (s *machineSim) Restore(saved []uint64) error {
	if len(saved) != 1 || saved[0] >= uint64(len(s.saved)) {
		return errForeignSave
	}
	s.cur = s.saved[saved[0]]
	return nil
}

var errForeignSave = errors.New("game: Restore of an encoding this simulator did not Save")

// SimulatorPlayout is Playout run on a simulator: it sets s, plays out with
// sim.Playout, and reports where the playout ended, the final state
// included (which allocates).
func SimulatorPlayout(sim Simulator, s State, rng *rand.Rand, maxSteps int) (PlayoutResult, error) {
	if err := sim.SetState(s); err != nil {
		return PlayoutResult{}, err
	}
	steps, err := sim.Playout(rng, maxSteps)
	if err != nil {
		return PlayoutResult{}, err
	}
	term, err := sim.Terminal()
	if err != nil {
		return PlayoutResult{}, err
	}
	goals, err := sim.Goals(nil)
	if err != nil {
		return PlayoutResult{}, err
	}
	return PlayoutResult{Final: sim.State(), Steps: steps, Terminal: term, Goals: slices.Clone(goals)}, nil
}
