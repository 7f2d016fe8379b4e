package factored

import (
	"math/rand/v2"

	"gdlab/engine/game"
)

// moveSet is a set of one role's moves in a machine's numbering: a bit per
// move for the small non-negative numbers every network uses, a map for
// any other numbering, so that filtering legal moves in a playout costs
// an index, not a hash, on the fast path.
type moveSet struct {
	all  bool // every move: a role the subgame does not restrict
	bits []bool
	big  map[game.Move]bool
}

// maxBits bounds the move numbers a moveSet keeps as bits.
const maxBits = 1 << 16

func (ms *moveSet) add(m game.Move) {
	if m >= 0 && m < maxBits {
		for int(m) >= len(ms.bits) {
			ms.bits = append(ms.bits, false)
		}
		ms.bits[m] = true
		return
	}
	if ms.big == nil {
		ms.big = map[game.Move]bool{}
	}
	ms.big[m] = true
}

func (ms *moveSet) has(m game.Move) bool {
	if m >= 0 && int(m) < len(ms.bits) {
		return ms.bits[m]
	}
	return ms.big[m]
}

// filter keeps, in place, the moves of l in the set.
func (ms *moveSet) filter(l []game.Move) []game.Move {
	if ms.all {
		return l
	}
	out := l[:0]
	for _, m := range l {
		if ms.has(m) {
			out = append(out, m)
		}
	}
	return out
}

// restricted is the subgame of one factor: the real machine whose roles
// may play only the factor's moves and the moves that change no factor
// (the other roles than the player's only when Options.HoldOpponents).
// Its states are the real game's states, so every other factor is held as
// it is (Sancho's search of a factor with the others held), and its goals
// are the real goals: with the others held, the goal's combination of
// the factors reduces to the searched factor's part (see Player). A state
// where some role has no allowed move is terminal in the subgame: the
// factor has nothing left to play.
type restricted struct {
	game.Machine
	allow []moveSet // per role
}

// Legal returns role's legal moves in s that the factor allows.
func (r *restricted) Legal(s game.State, role int, dst []game.Move) ([]game.Move, error) {
	l, err := r.Machine.Legal(s, role, dst)
	if err != nil {
		return l, err
	}
	return r.allow[role].filter(l), nil
}

// Terminal reports whether s is terminal in the real game or some role
// has no move left in the factor.
func (r *restricted) Terminal(s game.State) (bool, error) {
	if t, err := r.Machine.Terminal(s); t || err != nil {
		return t, err
	}
	var buf []game.Move
	for role := range r.allow {
		if r.allow[role].all {
			continue // a free role has a legal move wherever the game goes on
		}
		l, err := r.Legal(s, role, buf)
		if err != nil || len(l) == 0 {
			return true, err
		}
		buf = l
	}
	return false, nil
}

// Unwrap returns the real machine, so that analyses an MCTS switch asks
// for (analysis.Network, emulate.Of) read the real game's network: its
// latches and goal ranges bound the subgame too, whose states are some of
// the game's.
func (r *restricted) Unwrap() game.Machine { return r.Machine }

// NewSimulator returns a restricted simulator over the real machine's
// own (a network's, at the network's speed).
func (r *restricted) NewSimulator() game.Simulator {
	return &restrictedSim{Simulator: game.NewSimulator(r.Machine), r: r}
}

// restrictedSim is the restricted subgame's simulator.
type restrictedSim struct {
	game.Simulator
	r     *restricted
	buf   []game.Move
	joint []game.Move
}

// Unwrap returns the real simulator, for analysis.Holds' fast bit test
// of the current state.
func (s *restrictedSim) Unwrap() game.Simulator { return s.Simulator }

// Legal returns role's legal moves that the factor allows.
func (s *restrictedSim) Legal(role int, dst []game.Move) ([]game.Move, error) {
	l, err := s.Simulator.Legal(role, dst)
	if err != nil {
		return l, err
	}
	return s.r.allow[role].filter(l), nil
}

// Terminal is restricted.Terminal on the current state.
func (s *restrictedSim) Terminal() (bool, error) {
	if t, err := s.Simulator.Terminal(); t || err != nil {
		return t, err
	}
	for role := range s.r.allow {
		if s.r.allow[role].all {
			continue
		}
		l, err := s.Legal(role, s.buf)
		s.buf = l
		if err != nil || len(l) == 0 {
			return true, err
		}
	}
	return false, nil
}

// RandomJoint draws one allowed move per role, with one rng.IntN call
// each, as the Simulator contract asks.
func (s *restrictedSim) RandomJoint(rng *rand.Rand, dst []game.Move) ([]game.Move, error) {
	dst = dst[:0]
	for role := range s.r.allow {
		l, err := s.Legal(role, s.buf)
		s.buf = l
		if err != nil {
			return dst, err
		}
		if len(l) == 0 {
			return dst, &game.NoLegalMoveError{Role: s.r.Roles()[role]}
		}
		dst = append(dst, l[rng.IntN(len(l))])
	}
	return dst, nil
}

// Playout plays random allowed joint moves until the subgame ends or
// maxSteps (when above 0) joint moves are played.
func (s *restrictedSim) Playout(rng *rand.Rand, maxSteps int) (int, error) {
	steps := 0
	for maxSteps <= 0 || steps < maxSteps {
		t, err := s.Terminal()
		if err != nil || t {
			return steps, err
		}
		if s.joint, err = s.RandomJoint(rng, s.joint); err != nil {
			return steps, err
		}
		if err := s.Play(s.joint); err != nil {
			return steps, err
		}
		steps++
	}
	return steps, nil
}
