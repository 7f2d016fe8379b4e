package propnet

import (
	"errors"
	"math/bits"
	"math/rand/v2"

	"gdlab/engine/game"
)

// Sim is a simulator: one goroutine's private view of a Net, holding a
// current state, the moves last played, and every node's counter. Changes
// propagate differentially: setting a proposition updates only the gates
// whose inputs changed, and so on outwards. A Sim is not safe for
// concurrent use; make one per goroutine with Net.NewSim. Its methods
// allocate nothing unless documented otherwise.
type Sim struct {
	net    *Net
	cnt    []int32
	state  []uint64  // the current state's base propositions
	next   []uint64  // the next state's, kept up to date by watchers
	target []uint64  // scratch for Advance
	legal  [][]int32 // per role: its legal moves, in no particular order
	lpos   []int32   // input proposition -> position in its role's legal list, or -1
	moves  []int32   // per role: the move set on the inputs, or -1
}

// ErrNoLegalMove is returned by Playout when a role has no legal move in a
// non-terminal state, which well-formed rules never allow.
var ErrNoLegalMove = errors.New("propnet: a role has no legal move in a non-terminal state")

// NewSim returns a simulator at the initial state.
func (n *Net) NewSim() *Sim {
	s := &Sim{net: n, cnt: append([]int32(nil), n.cnt0...),
		state: make([]uint64, n.words), next: make([]uint64, n.words), target: make([]uint64, n.words),
		legal: make([][]int32, len(n.roles)), lpos: make([]int32, len(n.legal)), moves: make([]int32, len(n.roles))}
	for r := range s.legal {
		s.legal[r] = make([]int32, 0, n.inputOff[r+1]-n.inputOff[r])
		s.moves[r] = -1
	}
	// Watchers report changes only, so read every output once now.
	for i, l := range n.legal {
		s.lpos[i] = -1
		if value(s.cnt, l) {
			s.addLegal(int32(i))
		}
	}
	for b, l := range n.next {
		if value(s.cnt, l) {
			s.next[b>>6] |= 1 << uint(b&63)
		}
	}
	s.load(n.initial)
	return s
}

// flip propagates a change of node v's value to v.
func (s *Sim) flip(v int32, to bool) {
	net := s.net
	d := int32(1)
	if to {
		d = -1
	}
	cnt := s.cnt
	lo, mid, hi := net.fanOff[2*v], net.fanOff[2*v+1], net.fanOff[2*v+2]
	for _, t := range net.fan[lo:mid] {
		old := cnt[t]
		nw := old + d
		cnt[t] = nw
		if old^nw < 0 {
			s.flip(t, nw < 0)
		}
	}
	for _, t := range net.fan[mid:hi] {
		old := cnt[t]
		nw := old - d
		cnt[t] = nw
		if old^nw < 0 {
			s.flip(t, nw < 0)
		}
	}
	if v < net.watched {
		s.notify(v, to)
	}
}

// notify updates the legal lists and the next state for a watched node.
func (s *Sim) notify(v int32, to bool) {
	net := s.net
	for _, w := range net.watch[net.watchOff[v]:net.watchOff[v+1]] {
		on := to != (w&2 != 0)
		i := w >> 2
		if w&1 != 0 {
			if on {
				s.next[i>>6] |= 1 << uint(i&63)
			} else {
				s.next[i>>6] &^= 1 << uint(i&63)
			}
			continue
		}
		if on {
			s.addLegal(i)
		} else {
			s.removeLegal(i)
		}
	}
}

func (s *Sim) addLegal(i int32) {
	r := s.net.flatRole[i]
	s.lpos[i] = int32(len(s.legal[r]))
	s.legal[r] = append(s.legal[r], i)
}

func (s *Sim) removeLegal(i int32) {
	r := s.net.flatRole[i]
	l := s.legal[r]
	p := s.lpos[i]
	last := l[len(l)-1]
	l[p] = last
	s.lpos[last] = p
	s.legal[r] = l[:len(l)-1]
	s.lpos[i] = -1
}

// setProp sets a base or input proposition's node to v.
func (s *Sim) setProp(node int32, v bool) {
	if node < 0 {
		return
	}
	old := s.cnt[node] < 0
	if old == v {
		return
	}
	if v {
		s.cnt[node] = -1
	} else {
		s.cnt[node] = 0
	}
	s.flip(node, v)
}

// load makes bits the current state, changing only the propositions that differ.
func (s *Sim) load(bs []uint64) {
	for w, x := range bs {
		diff := s.state[w] ^ x
		s.state[w] = x
		for diff != 0 {
			b := bits.TrailingZeros64(diff)
			diff &= diff - 1
			s.setProp(s.net.baseNode[w<<6+b], x&(1<<uint(b)) != 0)
		}
	}
}

// Reset returns the simulator to the initial state with no moves set.
func (s *Sim) Reset() {
	s.clearMoves()
	s.load(s.net.initial)
}

func (s *Sim) clearMoves() {
	for r, m := range s.moves {
		if m >= 0 {
			s.setProp(s.net.inputNode[s.net.inputOff[r]+m], false)
			s.moves[r] = -1
		}
	}
}

// SetState makes st, a state of the same Net, the current state.
func (s *Sim) SetState(st *State) { s.load(st.bits) }

// State returns the current state. It allocates.
func (s *Sim) State() *State { return s.net.newState(append([]uint64(nil), s.state...)) }

// Terminal reports whether the current state is terminal.
func (s *Sim) Terminal() bool { return value(s.cnt, s.net.terminal) }

// Goal returns role's goal value in the current state, or game.ErrNoGoal or
// game.ErrManyGoals.
func (s *Sim) Goal(role int) (int, error) {
	found := -1
	for i, g := range s.net.goals[role] {
		if value(s.cnt, g.l) {
			if found >= 0 {
				return 0, game.ErrManyGoals
			}
			found = i
		}
	}
	if found < 0 {
		return 0, game.ErrNoGoal
	}
	g := &s.net.goals[role][found]
	if !g.ok {
		return 0, errNotInteger
	}
	return g.value, nil
}

var errNotInteger = errors.New("propnet: goal value is not an integer")

// Goals writes every role's goal into dst (-1 where undefined) and returns it.
func (s *Sim) Goals(dst []int) []int {
	dst = dst[:0]
	for r := range s.net.roles {
		g, err := s.Goal(r)
		if err != nil {
			g = -1
		}
		dst = append(dst, g)
	}
	return dst
}

// LegalCount returns how many legal moves role has in the current state.
func (s *Sim) LegalCount(role int) int { return len(s.legal[role]) }

// LegalMove returns role's i-th legal move in the simulator's own order,
// which depends on the history of the simulator; use Legal for sorted moves.
func (s *Sim) LegalMove(role, i int) game.Move {
	return game.Move(s.legal[role][i] - s.net.inputOff[role])
}

// Legal appends role's legal moves in the current state to dst[:0], sorted
// by canonical text (that is, by move number).
func (s *Sim) Legal(role int, dst []game.Move) []game.Move {
	dst = dst[:0]
	lo, hi := s.net.inputOff[role], s.net.inputOff[role+1]
	for i := lo; i < hi; i++ {
		if s.lpos[i] >= 0 {
			dst = append(dst, game.Move(i-lo))
		}
	}
	return dst
}

// IsLegal reports whether role may play m in the current state.
func (s *Sim) IsLegal(role int, m game.Move) bool {
	lo, hi := s.net.inputOff[role], s.net.inputOff[role+1]
	i := lo + int32(m)
	return m >= 0 && i < hi && s.lpos[i] >= 0
}

// SetMove sets role's input propositions to move m (which must be a valid
// move number of the role; see Net.ParseMove), replacing the previous one.
func (s *Sim) SetMove(role int, m game.Move) {
	if s.moves[role] == int32(m) {
		return
	}
	off := s.net.inputOff[role]
	if old := s.moves[role]; old >= 0 {
		s.setProp(s.net.inputNode[off+old], false)
	}
	s.moves[role] = int32(m)
	s.setProp(s.net.inputNode[off+int32(m)], true)
}

// Advance makes the state that follows the current one under the moves set
// the current state.
func (s *Sim) Advance() {
	copy(s.target, s.next)
	s.load(s.target)
}

// Play sets the joint move, one valid move per role, and advances.
func (s *Sim) Play(joint []game.Move) {
	for r, m := range joint {
		s.SetMove(r, m)
	}
	s.Advance()
}

// Playout plays uniformly random legal joint moves from the current state
// until a terminal state, or for at most maxSteps joint moves when
// maxSteps > 0, and returns the number of joint moves played. The final
// state is the simulator's current state, so Terminal and Goal read it.
// It allocates nothing.
func (s *Sim) Playout(rng *rand.Rand, maxSteps int) (int, error) {
	for steps := 0; ; steps++ {
		if value(s.cnt, s.net.terminal) || (maxSteps > 0 && steps >= maxSteps) {
			return steps, nil
		}
		for r := range s.legal {
			l := s.legal[r]
			switch len(l) {
			case 0:
				return steps, ErrNoLegalMove
			case 1:
				s.SetMove(r, game.Move(l[0]-s.net.inputOff[r]))
			default:
				s.SetMove(r, game.Move(l[rng.IntN(len(l))]-s.net.inputOff[r]))
			}
		}
		s.Advance()
	}
}
