package game

import (
	"context"
	"math/rand/v2"
)

// NewRand returns a seeded generator for playouts: the same seed gives the same
// sequence on every platform.
func NewRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)) }

// PlayoutResult is where a depth charge ended.
type PlayoutResult struct {
	Final    State
	Steps    int   // joint moves played
	Terminal bool  // false when the step limit cut the playout short
	Goals    []int // each role's goal in Final, -1 where undefined
}

// Playout plays uniformly random joint moves from s until a terminal state, or
// until maxSteps moves when maxSteps > 0: a depth charge. It checks ctx between
// moves. A non-terminal state where some role has no legal move is an error
// in the rules.
func Playout(ctx context.Context, m Machine, s State, rng *rand.Rand, maxSteps int) (PlayoutResult, error) {
	n := len(m.Roles())
	joint := make([]Move, n)
	var buf []Move
	steps := 0
	for {
		term, err := m.Terminal(s)
		if err != nil {
			return PlayoutResult{}, err
		}
		if term || (maxSteps > 0 && steps >= maxSteps) {
			return PlayoutResult{Final: s, Steps: steps, Terminal: term, Goals: Goals(m, s)}, nil
		}
		if err := ctx.Err(); err != nil {
			return PlayoutResult{}, err
		}
		for r := 0; r < n; r++ {
			if buf, err = m.Legal(s, r, buf); err != nil {
				return PlayoutResult{}, err
			}
			if len(buf) == 0 {
				return PlayoutResult{}, &NoLegalMoveError{Role: m.Roles()[r], Step: steps}
			}
			joint[r] = buf[rng.IntN(len(buf))]
		}
		if s, err = m.Next(s, joint); err != nil {
			return PlayoutResult{}, err
		}
		steps++
	}
}

// NoLegalMoveError reports a non-terminal state in which a role has no legal
// move: the rules are not well formed there.
type NoLegalMoveError struct {
	Role string
	Step int
}

func (e *NoLegalMoveError) Error() string {
	return "role " + e.Role + " has no legal move in a non-terminal state at step " + itoa(e.Step)
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	neg := i < 0
	if neg {
		i = -i
	}
	var b [20]byte
	p := len(b)
	for i > 0 {
		p--
		b[p] = byte('0' + i%10)
		i /= 10
	}
	if neg {
		p--
		b[p] = '-'
	}
	return string(b[p:])
}
