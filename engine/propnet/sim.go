package propnet

import (
	"errors"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"

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
	cnt    []counter
	state  []uint64  // the current state's base propositions
	next   []uint64  // the next state's, kept up to date by watchers
	target []uint64  // scratch for Advance
	group  [][]int32 // per legal group: its moves whose rest holds, in no particular order
	lpos   []int32   // input proposition -> position in its group's list, or -1
	moves  []int32   // per role: the move set on the inputs, or -1
	stale  bool      // lazy gates may be out of date
	joint  []game.Move
	stack  []int32 // pending flip events: node<<1 | new value
}

// ErrNoLegalMove is returned by Playout when a role has no legal move in a
// non-terminal state, which well-formed rules never allow.
var ErrNoLegalMove = errors.New("propnet: a role has no legal move in a non-terminal state")

// NewSim returns a simulator at the initial state.
func (n *Net) NewSim() *Sim {
	if n.nodes <= copyResetNodes {
		n.startOnce.Do(func() { n.start = n.newSim() })
	}
	return n.newSim()
}

// NewSimulator returns NewSim's simulator as a game.Simulator, so that
// code written against the game contract gets the network's speed.
func (n *Net) NewSimulator() game.Simulator { return n.NewSim() }

// Net returns the network the simulator runs.
func (s *Sim) Net() *Net { return s.net }

// Sim is the network's game.Simulator.
var _ game.Simulator = (*Sim)(nil)

// newSim makes a simulator and loads the initial state by propagation.
func (n *Net) newSim() *Sim {
	s := &Sim{net: n, cnt: append([]counter(nil), n.cnt0...),
		state: make([]uint64, n.words), next: make([]uint64, n.words), target: make([]uint64, n.words),
		group: make([][]int32, len(n.groupGate)), lpos: make([]int32, len(n.legal)), moves: make([]int32, len(n.roles))}
	size := make([]int, len(n.groupGate))
	for _, g := range n.moveGroup {
		size[g]++
	}
	for g := range s.group {
		s.group[g] = make([]int32, 0, size[g])
	}
	for r := range s.moves {
		s.moves[r] = -1
	}
	s.joint = make([]game.Move, len(n.roles))
	s.stack = make([]int32, 0, 64+n.nodes/8)
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

// propagate processes the pending flip events on the stack. An event is
// node<<1 | new value; processing it moves each reader's counter by one and
// queues an event for every reader whose value changes. Counters are sums,
// so events may be processed in any order; a node that flips and flips back
// before its events are processed simply contributes nothing in the end.
func (s *Sim) propagate() {
	net, cnt, fan, off := s.net, s.cnt, s.net.fan, s.net.fanOff
	stack := s.stack
	for len(stack) > 0 {
		e := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		v := e >> 1
		d := int32(1 - 2*(e&1)) // -1 when v became true
		for _, x := range fan[off[v]:off[v+1]] {
			m := x >> 31 // -1 for a negated reader: its step is -d
			t := x & 0x7fffffff
			old := cnt[t]
			nw := old + counter((d^m)-m)
			cnt[t] = nw
			if old^nw < 0 {
				stack = append(stack, t<<1|int32(uint16(nw)>>15))
			}
		}
		if v < net.watched {
			s.notify(v)
		}
	}
	s.stack = stack
}

// notify brings the legal lists and the next state up to date with watched
// node v's current value (not an event's: events of one node may be
// processed out of order).
func (s *Sim) notify(v int32) {
	net := s.net
	to := s.cnt[v] < 0
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
		if on && s.lpos[i] < 0 {
			s.addLegal(i)
		} else if !on && s.lpos[i] >= 0 {
			s.removeLegal(i)
		}
	}
}

func (s *Sim) addLegal(i int32) {
	g := s.net.moveGroup[i]
	s.lpos[i] = int32(len(s.group[g]))
	s.group[g] = append(s.group[g], i)
}

func (s *Sim) removeLegal(i int32) {
	g := s.net.moveGroup[i]
	l := s.group[g]
	p := s.lpos[i]
	last := l[len(l)-1]
	l[p] = last
	s.lpos[last] = p
	s.group[g] = l[:len(l)-1]
	s.lpos[i] = -1
}

// legalIn reports whether input proposition i is a legal move now.
func (s *Sim) legalIn(i int32) bool {
	return s.lpos[i] >= 0 && value(s.cnt, s.net.groupGate[s.net.moveGroup[i]])
}

// setProp sets a base or input proposition's node to v and propagates.
func (s *Sim) setProp(node int32, v bool) {
	s.queue(node, v)
	s.propagate()
}

// queue sets a base or input proposition's node to v and pushes its flip
// event without propagating it. Events queued together are propagated
// last in, first out, each with all it causes before the one queued before
// it: queue what must take effect first last.
func (s *Sim) queue(node int32, v bool) {
	if node < 0 {
		return
	}
	old := s.cnt[node] < 0
	if old == v {
		return
	}
	s.stale = true
	if v {
		s.cnt[node] = -1
		s.stack = append(s.stack, node<<1|1)
	} else {
		s.cnt[node] = 0
		s.stack = append(s.stack, node<<1)
	}
}

// load makes bits the current state, changing only the propositions that
// differ, in one propagation. Facts that become true take effect before
// facts that become false (they are queued last): a piece that captures
// replaces another on its cell, and "the cell is occupied" then stays true
// instead of flickering through every line that crosses the cell.
func (s *Sim) load(bs []uint64) {
	for w, x := range bs {
		for off := s.state[w] &^ x; off != 0; off &= off - 1 {
			s.queue(s.net.baseNode[w<<6+bits.TrailingZeros64(off)], false)
		}
	}
	for w, x := range bs {
		for on := x &^ s.state[w]; on != 0; on &= on - 1 {
			s.queue(s.net.baseNode[w<<6+bits.TrailingZeros64(on)], true)
		}
		s.state[w] = x
	}
	s.propagate()
}

// Reset returns the simulator to the initial state with no moves set.
//
// A small network is reset by copying the Net's initial simulator: a
// playout changes most of it, and copying a few kilobytes of flat arrays
// beats replaying those changes one counter at a time (measured per CPU
// second, side by side: ticTacToe 1.31×, connectFour 1.28×, breakthrough
// 1.15× the playout rate). A large one propagates the way back, which
// touches only what the playout changed; copying showed no gain there
// (speedChess 0.98×, reversi 0.96×, hex 0.93×, all within the noise).
func (s *Sim) Reset() {
	st := s.net.start
	if st == nil {
		s.clearMoves()
		s.load(s.net.initial)
		return
	}
	copy(s.cnt, st.cnt)
	copy(s.state, st.state)
	copy(s.next, st.next)
	copy(s.lpos, st.lpos)
	for g, l := range st.group {
		s.group[g] = append(s.group[g][:0], l...)
	}
	copy(s.moves, st.moves)
	s.stale = true
}

// copyResetNodes is the largest network, in nodes, that Reset copies. The
// networks measured lie on both sides with room: breakthrough has about
// 1,100 nodes, speedChess 18,000 and reversi 21,000.
const copyResetNodes = 8192

func (s *Sim) clearMoves() {
	for r, m := range s.moves {
		if m >= 0 {
			s.setProp(s.net.inputNode[s.net.inputOff[r]+m], false)
			s.moves[r] = -1
		}
	}
}

// SetState makes st, a state of the simulator's Net, the current state.
func (s *Sim) SetState(st game.State) error {
	ps, err := s.net.own(st)
	if err != nil {
		return err
	}
	s.load(ps.bits)
	return nil
}

var errForeignState = errors.New("propnet: the state belongs to another network")

// own returns st as a state of n, or errForeignState when it is not one.
func (n *Net) own(st game.State) (*State, error) {
	ps, ok := st.(*State)
	if !ok || ps == nil || ps.net != n {
		return nil, errForeignState
	}
	return ps, nil
}

// State returns the current state, a *State. It allocates.
func (s *Sim) State() game.State { return s.net.newState(append([]uint64(nil), s.state...)) }

// Has reports whether the current state holds base proposition b (an
// index into Net.BaseProps). Analyses that read a state's facts during a
// playout (goal emulation) use it, as State allocates.
func (s *Sim) Has(b int) bool { return s.state[b>>6]&(1<<uint(b&63)) != 0 }

// Terminal reports whether the current state is terminal. It never fails.
func (s *Sim) Terminal() (bool, error) { return s.terminal(), nil }

func (s *Sim) terminal() bool { return value(s.cnt, s.net.terminal) }

// evalLazy brings the lazy gates up to date.
func (s *Sim) evalLazy() {
	net, cnt := s.net, s.cnt
	for i, v := range net.lazyNode {
		and := net.lazyAnd[i]
		out := and
		for _, l := range net.lazyIn[net.lazyOff[i]:net.lazyOff[i+1]] {
			if value(cnt, l) != and {
				out = !and
				break
			}
		}
		cnt[v] = 0
		if out {
			cnt[v] = -1
		}
	}
	s.stale = false
}

// Goal returns role's goal value in the current state, or game.ErrNoGoal or
// game.ErrManyGoals.
func (s *Sim) Goal(role int) (int, error) {
	if role < 0 || role >= len(s.net.goals) {
		return 0, fmt.Errorf("propnet: no role %d", role)
	}
	if s.stale && len(s.net.lazyNode) > 0 {
		s.evalLazy()
	}
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

// Goals appends every role's goal to dst[:0] (-1 where undefined) and
// returns it. It never fails.
func (s *Sim) Goals(dst []int) ([]int, error) { return s.goals(dst), nil }

func (s *Sim) goals(dst []int) []int {
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
func (s *Sim) LegalCount(role int) int {
	if role < 0 || role >= len(s.moves) {
		return 0
	}
	n := 0
	for g := s.net.groupOff[role]; g < s.net.groupOff[role+1]; g++ {
		if value(s.cnt, s.net.groupGate[g]) {
			n += len(s.group[g])
		}
	}
	return n
}

// LegalMove returns role's i-th legal move, 0 <= i < LegalCount(role), in
// the simulator's own order, which depends on its history; use Legal for
// sorted moves.
func (s *Sim) LegalMove(role, i int) game.Move {
	if role < 0 || role >= len(s.moves) || i < 0 {
		return game.NoMove
	}
	for g := s.net.groupOff[role]; g < s.net.groupOff[role+1]; g++ {
		if !value(s.cnt, s.net.groupGate[g]) {
			continue
		}
		if l := s.group[g]; i < len(l) {
			return game.Move(l[i] - s.net.inputOff[role])
		} else {
			i -= len(l)
		}
	}
	return game.NoMove
}

// Legal appends role's legal moves in the current state to dst[:0], sorted
// by canonical text (that is, by move number). It never fails.
func (s *Sim) Legal(role int, dst []game.Move) ([]game.Move, error) { return s.legal(role, dst), nil }

func (s *Sim) legal(role int, dst []game.Move) []game.Move {
	dst = dst[:0]
	if role < 0 || role >= len(s.moves) {
		return dst
	}
	lo, hi := s.net.inputOff[role], s.net.inputOff[role+1]
	if n := s.LegalCount(role); n*gatherFactor < int(hi-lo) {
		// Few legal moves among many inputs (the waiting role's noop, a
		// piece game's moves): gathering them from the groups and sorting
		// is cheaper than testing every input.
		for g := s.net.groupOff[role]; g < s.net.groupOff[role+1]; g++ {
			if value(s.cnt, s.net.groupGate[g]) {
				for _, i := range s.group[g] {
					dst = append(dst, game.Move(i-lo))
				}
			}
		}
		slices.Sort(dst)
		return dst
	}
	for i := lo; i < hi; i++ {
		if s.legalIn(i) {
			dst = append(dst, game.Move(i-lo))
		}
	}
	return dst
}

// gatherFactor is how many inputs per legal move make Legal gather the
// moves from their groups and sort them rather than test every input.
const gatherFactor = 8

// IsLegal reports whether role may play m in the current state.
func (s *Sim) IsLegal(role int, m game.Move) bool {
	if role < 0 || role >= len(s.moves) {
		return false
	}
	lo, hi := s.net.inputOff[role], s.net.inputOff[role+1]
	i := lo + int32(m)
	return m >= 0 && i < hi && s.legalIn(i)
}

// SetMove sets role's input proposition to move m, a move number of the
// role (see Net.ParseMove), replacing the previous one. It fails, changing
// nothing, when role or m is out of range.
func (s *Sim) SetMove(role int, m game.Move) error {
	if !s.validMove(role, m) {
		return ErrBadMove
	}
	old := s.moves[role]
	if old == int32(m) {
		return nil
	}
	off := s.net.inputOff[role]
	s.moves[role] = int32(m)
	s.setProp(s.net.inputNode[off+int32(m)], true) // new first: see setJoint
	if old >= 0 {
		s.setProp(s.net.inputNode[off+old], false)
	}
	return nil
}

// ErrBadMove is returned for a move number or role out of range.
var ErrBadMove = errors.New("propnet: no such move")

func (s *Sim) validMove(role int, m game.Move) bool {
	return role >= 0 && role < len(s.moves) && m >= 0 && int32(m) < s.net.inputOff[role+1]-s.net.inputOff[role]
}

// SetMoves sets every role's move, joint[r] for role r. It fails, changing
// nothing, when joint does not hold one valid move per role.
func (s *Sim) SetMoves(joint []game.Move) error {
	if len(joint) != len(s.moves) {
		return ErrBadMove
	}
	for r, m := range joint {
		if !s.validMove(r, m) {
			return ErrBadMove
		}
	}
	s.setJoint(joint)
	return nil
}

// setJoint sets a valid joint move in one propagation. All new moves take
// effect before any old one is cleared (they are queued last), so that a
// gate fed by the moves of several roles (such as "no move touches this
// cell") does not flicker when roles take turns.
func (s *Sim) setJoint(joint []game.Move) {
	for r, m := range joint {
		if old := s.moves[r]; old != int32(m) && old >= 0 {
			s.queue(s.net.inputNode[s.net.inputOff[r]+old], false)
		}
	}
	for r, m := range joint {
		if s.moves[r] != int32(m) {
			s.queue(s.net.inputNode[s.net.inputOff[r]+int32(m)], true)
			s.moves[r] = int32(m)
		}
	}
	s.propagate()
}

// Advance makes the state that follows the current one under the moves set
// the current state. A role without a move set contributes no move.
func (s *Sim) Advance() {
	copy(s.target, s.next)
	s.load(s.target)
	if s.net.stateReadsMoves {
		s.clearMoves() // so that legal, goal and terminal see no move
	}
}

// Play sets the joint move, one valid move per role, and advances.
func (s *Sim) Play(joint []game.Move) error {
	if err := s.SetMoves(joint); err != nil {
		return err
	}
	s.Advance()
	return nil
}

// RandomJoint writes one uniformly drawn legal move per role into dst[:0],
// one rng.IntN call per role over its moves in LegalMove's order.
func (s *Sim) RandomJoint(rng *rand.Rand, dst []game.Move) ([]game.Move, error) {
	dst = dst[:0]
	for r := range s.moves {
		n := s.LegalCount(r)
		if n == 0 {
			return dst, ErrNoLegalMove
		}
		dst = append(dst, s.LegalMove(r, rng.IntN(n)))
	}
	return dst, nil
}

// randomMove picks one of role's legal moves uniformly.
func (s *Sim) randomMove(role int, rng *rand.Rand) (game.Move, bool) {
	net := s.net
	lo, hi := net.groupOff[role], net.groupOff[role+1]
	if hi-lo == 1 { // one group: no need to count
		if l := s.group[lo]; len(l) > 0 && value(s.cnt, net.groupGate[lo]) {
			return game.Move(l[pick(rng, len(l))] - net.inputOff[role]), true
		}
		return game.NoMove, false
	}
	n := s.LegalCount(role)
	if n == 0 {
		return game.NoMove, false
	}
	return s.LegalMove(role, pick(rng, n)), true
}

// pick returns a uniform index below n without drawing when n is 1.
func pick(rng *rand.Rand, n int) int {
	if n == 1 {
		return 0
	}
	return rng.IntN(n)
}

// Playout plays uniformly random legal joint moves from the current state
// until a terminal state, or for at most maxSteps joint moves when
// maxSteps > 0, and returns the number of joint moves played. The final
// state is the simulator's current state, so Terminal and Goal read it.
// It allocates nothing.
func (s *Sim) Playout(rng *rand.Rand, maxSteps int) (int, error) {
	for steps := 0; ; steps++ {
		if s.terminal() || (maxSteps > 0 && steps >= maxSteps) {
			return steps, nil
		}
		for r := range s.joint {
			m, ok := s.randomMove(r, rng)
			if !ok {
				return steps, ErrNoLegalMove
			}
			s.joint[r] = m
		}
		s.setJoint(s.joint)
		s.Advance()
	}
}
