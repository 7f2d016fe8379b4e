package propnet

import (
	"fmt"
	"math/bits"
	"math/rand/v2"

	"gdlab/engine/game"
)

// FlatSim is a straight-line simulator: one goroutine's private view of a
// Flat machine. Where a Sim propagates each change through counters, a
// FlatSim evaluates every gate once per step, in an order where inputs come
// first, into an array of byte values: the gates that read only the state
// after each transition, the gates that read moves once the moves are set.
// It is not safe for concurrent use; make one per goroutine with
// Flat.NewFlatSim. Its methods allocate nothing but State.
type FlatSim struct {
	p       *program
	net     *Net
	val     []uint8  // slot 2v: node v's value; 2v+1: its negation
	state   []uint64 // the current state's base propositions
	target  []uint64 // scratch for Advance
	moves   []int32  // per role: the move set on the inputs, or -1
	legal   [][]int32
	legalOK bool // legal lists are up to date
	goalsOK bool // goal gates are up to date
	generic bool // run the generic kernel rather than the specialised ones
	joint   []game.Move
	lanes   *Lanes // for Playouts, made at its first call
}

// FlatSim is a game.Simulator that runs batches of playouts on lanes.
var _ game.BatchSimulator = (*FlatSim)(nil)

func newFlatSim(p *program, generic bool) *FlatSim {
	n := p.net
	s := &FlatSim{p: p, net: n, generic: generic,
		val:   make([]uint8, p.slots()),
		state: make([]uint64, n.words), target: make([]uint64, n.words),
		moves: make([]int32, len(n.roles)), legal: make([][]int32, len(n.roles)),
		joint: make([]game.Move, len(n.roles))}
	for v := 1; v < len(s.val); v += 2 {
		s.val[v] = 1 // every node false, the constant included
	}
	for r := range s.moves {
		s.moves[r] = -1
		s.legal[r] = make([]int32, 0, n.inputOff[r+1]-n.inputOff[r])
	}
	s.Reset()
	return s
}

// run evaluates c's gates in order.
func (s *FlatSim) run(c *code) {
	if s.generic {
		runGeneric(c, s.val)
		return
	}
	runSpecialised(c, s.val)
}

// runGeneric evaluates c.gates one by one, stopping at an AND's first false
// input and an OR's first true one.
func runGeneric(c *code, val []uint8) {
	ins := c.ins
	for _, g := range c.gates {
		want := uint8(0)
		if g.and {
			want = 1
		}
		v := want
		for _, l := range ins[g.lo:g.hi] {
			if val[l] != want {
				v = want ^ 1
				break
			}
		}
		val[2*g.out] = v
		val[2*g.out+1] = v ^ 1
	}
}

// runSpecialised evaluates c.segs, one loop per kind of gate.
func runSpecialised(c *code, val []uint8) {
	for _, sg := range c.segs {
		ops := c.ops[sg.lo:sg.hi]
		switch sg.kind {
		case segAnd2:
			for i := 0; i+2 < len(ops); i += 3 {
				v := val[ops[i+1]] & val[ops[i+2]]
				val[ops[i]] = v
				val[ops[i]+1] = v ^ 1
			}
		case segOr2:
			for i := 0; i+2 < len(ops); i += 3 {
				v := val[ops[i+1]] | val[ops[i+2]]
				val[ops[i]] = v
				val[ops[i]+1] = v ^ 1
			}
		case segAnd:
			for i := 0; i < len(ops); {
				out, k := ops[i], int(ops[i+1])
				v := uint8(1)
				for _, l := range ops[i+2 : i+2+k] {
					v &= val[l]
				}
				val[out], val[out+1] = v, v^1
				i += 2 + k
			}
		case segOr:
			for i := 0; i < len(ops); {
				out, k := ops[i], int(ops[i+1])
				v := uint8(0)
				for _, l := range ops[i+2 : i+2+k] {
					v |= val[l]
				}
				val[out], val[out+1] = v, v^1
				i += 2 + k
			}
		}
	}
}

// setNode sets a proposition's value slots; node -1 (read by nothing) is
// ignored.
func (s *FlatSim) setNode(node int32, v bool) {
	if node < 0 {
		return
	}
	b := uint8(0)
	if v {
		b = 1
	}
	s.val[2*node], s.val[2*node+1] = b, b^1
}

// load makes bs the current state with no moves set and evaluates the
// gates that read the state.
func (s *FlatSim) load(bs []uint64) {
	for w, x := range bs {
		for d := s.state[w] ^ x; d != 0; d &= d - 1 {
			b := w<<6 + bits.TrailingZeros64(d)
			s.setNode(s.net.baseNode[b], x&(1<<uint(b&63)) != 0)
		}
		s.state[w] = x
	}
	s.clearMoves()
	s.run(&s.p.stateCode)
	if s.net.stateReadsMoves {
		s.run(&s.p.moveCode)
	}
	s.legalOK, s.goalsOK = false, false
}

func (s *FlatSim) clearMoves() {
	s.setPseudos(0)
	for r, m := range s.moves {
		if m >= 0 {
			s.setNode(s.net.inputNode[s.net.inputOff[r]+m], false)
			s.moves[r] = -1
		}
	}
}

// Reset returns the simulator to the initial state.
func (s *FlatSim) Reset() { s.load(s.net.initial) }

// setJoint sets a valid joint move on the inputs and evaluates the gates
// that read moves.
func (s *FlatSim) setJoint(joint []game.Move) {
	n := s.net
	for r, m := range s.moves {
		if m >= 0 {
			s.setNode(n.inputNode[n.inputOff[r]+m], false)
		}
	}
	s.setPseudos(0)
	for r, m := range joint {
		s.moves[r] = int32(m)
		s.setNode(n.inputNode[n.inputOff[r]+int32(m)], true)
	}
	s.setPseudos(1)
	s.run(&s.p.moveCode)
}

// setPseudos sets the pseudo-nodes the moves set feed to v.
func (s *FlatSim) setPseudos(v uint8) {
	p := s.p
	for r, m := range s.moves {
		if m < 0 {
			continue
		}
		i := s.net.inputOff[r] + m
		for _, ps := range p.sets[p.setOff[i]:p.setOff[i+1]] {
			s.val[2*ps] = v // no gate reads a pseudo-node negated
		}
	}
}

// advance makes the state the moves set lead to the current one.
func (s *FlatSim) advance() {
	clear(s.target)
	for b, l := range s.p.next {
		s.target[b>>6] |= uint64(s.val[l]) << uint(b&63)
	}
	s.load(s.target)
}

// legalOf returns role's legal moves, as input propositions counted from
// the role's first, in move order.
func (s *FlatSim) legalOf(role int) []int32 {
	if !s.legalOK {
		p, n := s.p, s.net
		for r := range s.legal {
			l := s.legal[r][:0]
			lo := n.inputOff[r]
			for _, run := range p.runs[r] {
				if s.val[run.gate] == 0 {
					continue
				}
				for i := run.lo; i < run.hi; i++ {
					if s.val[p.legal[i]] != 0 {
						l = append(l, i-lo)
					}
				}
			}
			s.legal[r] = l
		}
		s.legalOK = true
	}
	return s.legal[role]
}

// SetState makes st, a state of the simulator's network, the current state.
func (s *FlatSim) SetState(st game.State) error {
	ps, err := s.net.own(st)
	if err != nil {
		return err
	}
	s.load(ps.bits)
	return nil
}

// State returns the current state, a *State. It allocates.
func (s *FlatSim) State() game.State { return s.net.newState(append([]uint64(nil), s.state...)) }

// Hash returns the current state's hash.
func (s *FlatSim) Hash() uint64 { return hashBits(s.state) }

// Legal appends role's legal moves to dst[:0] in move order. It fails for
// a role out of range.
func (s *FlatSim) Legal(role int, dst []game.Move) ([]game.Move, error) {
	dst = dst[:0]
	if role < 0 || role >= len(s.moves) {
		return dst, fmt.Errorf("propnet: no role %d", role)
	}
	for _, m := range s.legalOf(role) {
		dst = append(dst, game.Move(m))
	}
	return dst, nil
}

// RandomJoint writes one uniformly drawn legal move per role into dst[:0],
// one rng.IntN call per role over its moves in move order.
func (s *FlatSim) RandomJoint(rng *rand.Rand, dst []game.Move) ([]game.Move, error) {
	dst = dst[:0]
	for r := range s.moves {
		l := s.legalOf(r)
		if len(l) == 0 {
			return dst, &game.NoLegalMoveError{Role: s.net.roles[r]}
		}
		dst = append(dst, game.Move(l[rng.IntN(len(l))]))
	}
	return dst, nil
}

// Play makes the state after joint, one valid move per role, current.
func (s *FlatSim) Play(joint []game.Move) error {
	if len(joint) != len(s.moves) {
		return ErrBadMove
	}
	for r, m := range joint {
		if !s.validMove(r, m) {
			return ErrBadMove
		}
	}
	s.setJoint(joint)
	s.advance()
	return nil
}

func (s *FlatSim) validMove(role int, m game.Move) bool {
	n := s.net
	return m >= 0 && int32(m) < n.inputOff[role+1]-n.inputOff[role]
}

// Terminal reports whether the current state is terminal. It never fails.
func (s *FlatSim) Terminal() (bool, error) { return s.val[s.p.terminal] != 0, nil }

// Goals appends every role's goal to dst[:0], -1 where the rules give no
// single integer value. It never fails.
func (s *FlatSim) Goals(dst []int) ([]int, error) {
	dst = dst[:0]
	s.evalGoals()
	for r, gs := range s.p.goals {
		g := -1
		for i, l := range gs {
			if s.val[l] == 0 {
				continue
			}
			if g != -1 || !s.net.goals[r][i].ok {
				g = -2
				break
			}
			g = s.net.goals[r][i].value
		}
		dst = append(dst, max(g, -1))
	}
	return dst, nil
}

// evalGoals computes the goal propositions of the current state, once.
func (s *FlatSim) evalGoals() {
	if !s.goalsOK {
		s.run(&s.p.goalCode)
		s.goalsOK = true
	}
}

// Playout plays uniformly random legal joint moves until a terminal state,
// or for at most maxSteps joint moves when maxSteps > 0, and returns the
// number played. It allocates nothing.
func (s *FlatSim) Playout(rng *rand.Rand, maxSteps int) (int, error) {
	for steps := 0; ; steps++ {
		if s.val[s.p.terminal] != 0 || (maxSteps > 0 && steps >= maxSteps) {
			return steps, nil
		}
		for r := range s.joint {
			l := s.legalOf(r)
			if len(l) == 0 {
				return steps, ErrNoLegalMove
			}
			s.joint[r] = game.Move(l[pick(rng, len(l))])
		}
		s.setJoint(s.joint)
		s.advance()
	}
}

// Save appends the current state's bits to dst[:0].
func (s *FlatSim) Save(dst []uint64) []uint64 { return append(dst[:0], s.state...) }

// Restore makes a state saved by Save current again.
func (s *FlatSim) Restore(saved []uint64) error {
	if len(saved) != len(s.state) {
		return errForeignState
	}
	s.load(saved)
	return nil
}

// Playouts runs n (1 to LaneCount) uniformly random playouts from the
// current state on lanes of its own, one playout a lane (a Lanes, made at
// the first call: two words per node), and appends their goals to dst[:0],
// playout i's at [i*roles, (i+1)*roles), -1 where the rules give no single
// value. It returns them with the joint moves the n playouts played in
// all. The current state does not change. Each lane draws its own moves
// from rng (see Lanes.Playouts), so n Playout calls from the same
// generator state draw other playouts: this is
// game.BatchSimulator's method, which game.Playouts calls. It allocates
// nothing after the first call but dst's growth.
func (s *FlatSim) Playouts(rng *rand.Rand, n, maxSteps int, dst []int) ([]int, int, error) {
	dst = dst[:0]
	if n < 1 || n > LaneCount {
		return dst, 0, game.ErrBatchSize
	}
	if s.lanes == nil {
		s.lanes = newLanes(s.p)
	}
	l := s.lanes
	l.load(s.state)
	steps, err := l.playouts(rng, maxSteps, ^uint64(0)>>uint(LaneCount-n))
	if err != nil {
		return dst, steps, err
	}
	for lane := 0; lane < n; lane++ {
		dst = l.appendGoals(lane, dst)
	}
	return dst, steps, nil
}
