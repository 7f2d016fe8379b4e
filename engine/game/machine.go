// Package game is gdlab's shared vocabulary for reasoners: the Machine
// interface that the prover and the propnet implement, the canonical text of
// states and moves, and free functions built on any Machine: random playouts
// (depth charges), perft counts and match traces in the shared JSON-lines format.
package game

import "errors"

// Move is one role's move in the numbering of the Machine that produced it.
// Only that machine can interpret it; MoveText gives its canonical KIF text.
type Move int32

// NoMove is never a legal move of any machine.
const NoMove Move = -1

// State is an immutable game state made by a Machine. States may be shared
// freely between goroutines. Facts lists the state's facts (the contents of
// `true`) as canonical KIF text in byte order, so that the states of two
// different reasoners can be compared line by line.
type State interface {
	Facts() []string
	// Hash is a 64-bit hash of the state's facts in the machine's own encoding:
	// equal states of one machine hash alike.
	Hash() uint64
	// Equal reports whether o, a state of the same machine, has the same facts.
	Equal(o State) bool
}

// Machine is a GDL reasoner: a game's roles, initial state, legal moves,
// transitions, terminal test and goals. Implementations are safe for
// concurrent use. States and moves passed to a machine must come from the same
// machine. Methods that compute return an error when the rules do not define
// an answer or the reasoner hits one of its resource limits; they never panic
// on a well-formed state.
type Machine interface {
	// Roles returns the roles in the order of the (role ...) declarations.
	Roles() []string
	// Initial returns the initial state.
	Initial() State
	// Legal appends role's legal moves in s to dst[:0], sorted by canonical
	// text, without duplicates, and returns the extended slice.
	Legal(s State, role int, dst []Move) ([]Move, error)
	// Next returns the state that follows s when each role i plays joint[i].
	Next(s State, joint []Move) (State, error)
	// Terminal reports whether s is terminal.
	Terminal(s State) (bool, error)
	// Goal returns role's goal value in s. It fails with ErrNoGoal when the
	// rules give no value and ErrManyGoals when they give several.
	Goal(s State, role int) (int, error)
	// MoveText returns the canonical KIF text of a move of role, such as "(mark 1 3)".
	MoveText(role int, m Move) string
	// ParseMove returns role's move with the given KIF text; the move need not be legal.
	ParseMove(role int, text string) (Move, error)
}

// ErrNoGoal and ErrManyGoals are the two ways a goal can be undefined.
var (
	ErrNoGoal    = errors.New("no goal value defined")
	ErrManyGoals = errors.New("several goal values defined")
)

// RoleIndex returns the index of the named role, or -1.
func RoleIndex(m Machine, name string) int {
	for i, r := range m.Roles() {
		if r == name {
			return i
		}
	}
	return -1
}

// Goals returns every role's goal in s; a role without a single value gets -1.
func Goals(m Machine, s State) []int {
	n := len(m.Roles())
	out := make([]int, n)
	for r := 0; r < n; r++ {
		g, err := m.Goal(s, r)
		if err != nil {
			g = -1
		}
		out[r] = g
	}
	return out
}

// LegalAll returns every role's legal moves in s.
func LegalAll(m Machine, s State) ([][]Move, error) {
	n := len(m.Roles())
	out := make([][]Move, n)
	for r := 0; r < n; r++ {
		ms, err := m.Legal(s, r, nil)
		if err != nil {
			return nil, err
		}
		out[r] = ms
	}
	return out, nil
}
