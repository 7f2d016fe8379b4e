package factored

import (
	"errors"
	"math/rand/v2"
	"slices"
	"sync"

	"gdlab/engine/analysis/splice"
	"gdlab/engine/game"
	"gdlab/engine/heuristic"
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

// withPass keeps, in place, the moves of l in the set and the first move
// of l outside it: the role's pass.
func (ms *moveSet) withPass(l []game.Move) []game.Move {
	out, passed := l[:0], false
	for _, m := range l {
		switch {
		case ms.has(m):
			out = append(out, m)
		case !passed:
			out, passed = append(out, m), true
		}
	}
	return out
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
// (the other roles than the player's only with passes or
// Options.HoldOpponents). Its states are the real game's states and its goals
// are the real goals: with the others held, the goal's combination of the
// factors reduces to the searched factor's part (see Player).
//
// Without passes, the other factors are held in that the player's role
// does not move there, and a state where some restricted role has no
// allowed move is terminal in the subgame: the factor has nothing left to
// play.
//
// With passes (hold not nil), every role may also pass: play one legal
// move outside the factor, its first in the legal order, whose effect on
// the other factors is undone (a Keeper restores their base propositions
// after the move), so that a pass changes the context only (the turn, the
// step). The subgame is then a sum-of-games view of the factor: either
// side may answer elsewhere. Once no role has a legal move of the factor
// that changes no other factor (the factor is played out; a noop the
// analysis counts as a joint move does not keep it open), the
// restriction lifts and the subgame goes on as the whole game, so that a
// factor finished before the others is valued by what the rest of the
// game gives, not by an undefined goal.
//
// The restriction lifts too after a round of passes: as many turns in a
// row as there are roles in which no role moves in the factor and some
// role passes. Nobody then wants to move in the factor (a mutual
// zugzwang, common late in Connect Four), and what follows is decided by
// the rest of the game, so the subgame goes on as the whole game there
// as well. Without the rule, passes would lead back to the state they
// started from (the others held, only the turn moving), and a search
// would go round that cycle instead of growing its tree. A move in the
// factor is, as above, one of the factor's own that changes no other
// factor: the waiting role's noop in nim1 or double_tictactoe_dengji,
// which the analysis counts as a joint move, is none (counted, it would
// let passes answered by such noops make a cycle too). The count of passes and the lifting
// are part of the subgame's state (passState).
type restricted struct {
	game.Machine
	allow []moveSet // per role: the factor's moves and the noops
	own   []moveSet // per role: the factor's moves
	solo  []moveSet // per role: those that change no other factor
	hold  *holding  // nil without passes
}

// holding is what the subgame with passes needs: the other factors' base
// propositions, kept across moves, and simulators for the Machine methods.
type holding struct {
	props  []string // the network's base propositions
	others []int    // the other factors' bases
	carry  bool     // the search keeps its tree across moves (rebase)
	sims   sync.Pool
}

// sim returns a simulator of the subgame at s, from the pool; put it back
// with r.hold.sims.Put.
func (r *restricted) sim(s game.State) (*restrictedSim, error) {
	rs, _ := r.hold.sims.Get().(*restrictedSim)
	if rs == nil {
		var err error
		if rs, err = r.newSim(); err != nil {
			return nil, err
		}
	}
	return rs, rs.SetState(s)
}

// rebase returns the state to search the factor from when the real game
// is at s and the last search started from held (nil before the first):
// s itself, or, when the subgame carries its tree (holding.carry), s
// with the other factors as held holds them. Every state of that search's
// tree holds the others alike (a pass leaves them be), so the real
// position is found there again whichever board the moves since went
// to. Where that state is terminal in the subgame (an other factor's
// part of the terminal reads the context too), or the factor is played
// out there (the subgame goes on as the whole game, which must see the
// others as they are), s is searched instead.
func (r *restricted) rebase(s, held game.State) (game.State, error) {
	if r.hold == nil || !r.hold.carry || held == nil {
		return s, nil
	}
	rs, err := r.sim(held)
	if err != nil {
		return nil, err
	}
	defer r.hold.sims.Put(rs)
	rs.keep.Mark()
	if err := rs.SetState(s); err != nil {
		return nil, err
	}
	if err := rs.keep.Restore(); err != nil {
		return nil, err
	}
	rs.known = false // the keeper changed the state under the cache
	if t, err := rs.Terminal(); t || err != nil || !rs.open {
		return s, err
	}
	return rs.State(), nil
}

// Legal returns role's legal moves in s that the factor allows.
func (r *restricted) Legal(s game.State, role int, dst []game.Move) ([]game.Move, error) {
	if r.hold != nil {
		rs, err := r.sim(s)
		if err != nil {
			return dst[:0], err
		}
		defer r.hold.sims.Put(rs)
		l, err := rs.Legal(role, dst)
		return l, err
	}
	l, err := r.Machine.Legal(s, role, dst)
	if err != nil {
		return l, err
	}
	return r.allow[role].filter(l), nil
}

// Next returns the subgame's next state: the real one, with the other
// factors kept as they were in s when passes are on and the factor is
// still played.
func (r *restricted) Next(s game.State, joint []game.Move) (game.State, error) {
	if r.hold == nil {
		return r.Machine.Next(s, joint)
	}
	rs, err := r.sim(s)
	if err != nil {
		return nil, err
	}
	defer r.hold.sims.Put(rs)
	if err := rs.Play(joint); err != nil {
		return nil, err
	}
	return rs.State(), nil
}

// Terminal reports whether s is terminal in the real game or some role
// has no move left in the factor.
func (r *restricted) Terminal(s game.State) (bool, error) {
	if r.hold != nil {
		rs, err := r.sim(s)
		if err != nil {
			return false, err
		}
		defer r.hold.sims.Put(rs)
		return rs.Terminal()
	}
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

// Goal returns role's goal in s: the real game's, in the real state.
func (r *restricted) Goal(s game.State, role int) (int, error) {
	return r.Machine.Goal(realState(s), role)
}

// Unwrap returns the real machine, so that analyses an MCTS switch asks
// for (analysis.Network, emulate.Of) read the real game's network: its
// latches and goal ranges bound the subgame too, whose states are some of
// the game's.
func (r *restricted) Unwrap() game.Machine { return r.Machine }

// NewSimulator returns a restricted simulator over the real machine's
// own (a network's, at the network's speed).
func (r *restricted) NewSimulator() game.Simulator {
	rs, err := r.newSim()
	if err != nil {
		// The bases were checked when the subgame was made.
		panic(err)
	}
	return rs
}

// newSim makes a restricted simulator, with its keeper when passes are on.
func (r *restricted) newSim() (*restrictedSim, error) {
	rs := &restrictedSim{Simulator: game.NewSimulator(r.Machine), r: r}
	if r.hold != nil {
		k, err := splice.New(r.Machine, rs.Simulator, r.hold.props, r.hold.others)
		if err != nil {
			return nil, err
		}
		rs.keep = k
	}
	return rs, nil
}

// restrictedSim is the restricted subgame's simulator. What the current
// state's queries find (each role's legal moves, whether the factor is
// still played) is computed once per state: a playout step asks for it
// in Terminal, RandomJoint and (with passes) Play, and a network computes
// legal moves by scanning its legal propositions.
type restrictedSim struct {
	game.Simulator
	r     *restricted
	keep  *splice.Keeper // with passes
	joint []game.Move
	// passes counts the turns of passes in a row that led to the current
	// state, or is lifted once they made a round (see restricted).
	passes int
	// known says that open, allowed and raw describe the current state; every
	// method that changes the state clears it.
	known   bool
	open    bool          // the factor is still played (always, without passes)
	allowed [][]game.Move // per role: the moves the subgame allows
	raw     [][]game.Move // per role: the real legal moves
}

// Unwrap returns the real simulator, for analysis.Holds' fast bit test
// of the current state.
func (s *restrictedSim) Unwrap() game.Simulator { return s.Simulator }

// SetState makes st the current state.
func (s *restrictedSim) SetState(st game.State) error {
	s.known, s.passes = false, 0
	if ps, ok := st.(*passState); ok {
		s.passes, st = ps.passes, ps.State
	}
	return s.Simulator.SetState(st)
}

// State returns the current state: the real one, within a passState
// when passes led to it.
func (s *restrictedSim) State() game.State {
	st := s.Simulator.State()
	if s.passes == 0 {
		return st
	}
	return &passState{State: st, passes: s.passes}
}

// Hash returns the current state's hash, State().Hash().
func (s *restrictedSim) Hash() uint64 { return withPasses(s.Simulator.Hash(), s.passes) }

// Save saves the real state's encoding and then the count of passes.
// The real simulator is given dst without that last word, so that a
// buffer this Save filled is reused as the real one's own would be (a
// generic simulator reuses a slot only for its own one-word encoding).
func (s *restrictedSim) Save(dst []uint64) []uint64 {
	if len(dst) > 0 {
		dst = dst[:len(dst)-1]
	}
	return append(s.Simulator.Save(dst), uint64(s.passes))
}

// Restore makes a saved state current again.
func (s *restrictedSim) Restore(saved []uint64) error {
	if len(saved) == 0 {
		return errors.New("factored: empty saved state")
	}
	n := len(saved) - 1
	s.known, s.passes = false, int(saved[n])
	return s.Simulator.Restore(saved[:n])
}

// look computes, once per state, every role's legal moves, whether the
// factor is still played (with passes: some role has a legal move of the
// factor that changes no other), and the moves the subgame allows: the
// factor's and the noops, with passes a role's pass among them (in its
// place in the legal order), or every legal move once the factor is
// played out.
func (s *restrictedSim) look() error {
	if s.known {
		return nil
	}
	n := len(s.r.allow)
	if len(s.raw) != n {
		s.raw, s.allowed = make([][]game.Move, n), make([][]game.Move, n)
	}
	s.open = s.r.hold == nil
	for role := range n {
		l, err := s.Simulator.Legal(role, s.raw[role])
		s.raw[role] = l
		if err != nil {
			return err
		}
		if !s.open && s.passes != lifted && slices.ContainsFunc(l, s.r.solo[role].has) {
			s.open = true
		}
	}
	for role := range n {
		a := append(s.allowed[role][:0], s.raw[role]...)
		switch {
		case !s.open:
		case s.r.hold == nil:
			a = s.r.allow[role].filter(a)
		default:
			a = s.r.allow[role].withPass(a)
		}
		s.allowed[role] = a
	}
	s.known = true
	return nil
}

// Legal returns role's moves that the subgame allows (see look).
func (s *restrictedSim) Legal(role int, dst []game.Move) ([]game.Move, error) {
	if err := s.look(); err != nil {
		return dst[:0], err
	}
	return append(dst[:0], s.allowed[role]...), nil
}

// Terminal is restricted.Terminal on the current state.
func (s *restrictedSim) Terminal() (bool, error) {
	if t, err := s.Simulator.Terminal(); t || err != nil {
		return t, err
	}
	if err := s.look(); err != nil || !s.open {
		return false, err
	}
	for role := range s.r.allow {
		if !s.r.allow[role].all && len(s.allowed[role]) == 0 {
			return true, nil
		}
	}
	return false, nil
}

// Play plays joint; with passes, while the factor is played, the other
// factors keep their base propositions, and a round of passes lifts the
// restriction (see restricted).
func (s *restrictedSim) Play(joint []game.Move) error {
	if s.keep != nil {
		if err := s.look(); err != nil {
			return err
		}
	}
	s.known = false
	passes := 0
	switch {
	case s.passes == lifted:
		passes = lifted
	case s.keep != nil && s.open:
		passes = s.passesAfter(joint)
		s.keep.Mark()
	}
	if err := s.Simulator.Play(joint); err != nil {
		return err
	}
	if s.keep != nil && s.open {
		if err := s.keep.Restore(); err != nil {
			return err
		}
	}
	s.passes = passes // once the move is played: a failed one counts nothing
	return nil
}

// passesAfter is the count of passes once joint is played in the factor:
// one more after a turn of passes (no role plays a move of the factor's
// own that changes no other factor, and some role passes), lifted when
// that makes a round, and none after any other turn.
func (s *restrictedSim) passesAfter(joint []game.Move) int {
	passed := false
	for role, m := range joint {
		switch {
		case s.r.solo[role].has(m):
			return 0
		case !s.r.allow[role].has(m):
			passed = true
		}
	}
	if !passed {
		return 0
	}
	if s.passes+1 >= len(joint) {
		return lifted
	}
	return s.passes + 1
}

// lifted is the count of passes of a state reached after a round of
// them, where the subgame is the whole game.
const lifted = -1

// passState is a state of the subgame with passes that passes led to:
// the real state, and the turns of passes in a row that reached it (or
// lifted). States alike in the real game but not in that count are
// different states of the subgame, whose moves differ, so a search's
// transpositions tell them apart.
type passState struct {
	game.State
	passes int
}

// Hash mixes the count of passes into the real state's hash.
func (ps *passState) Hash() uint64 { return withPasses(ps.State.Hash(), ps.passes) }

// Equal reports whether o is the same real state reached by as many
// passes.
func (ps *passState) Equal(o game.State) bool {
	q, ok := o.(*passState)
	return ok && q.passes == ps.passes && ps.State.Equal(q.State)
}

// withPasses is the hash of a real state of hash h with a count of
// passes: h itself for none.
func withPasses(h uint64, passes int) uint64 {
	if passes == 0 {
		return h
	}
	return h ^ heuristic.Mix(uint64(passes)+0x70a55)
}

// realState returns the real state of a state of the subgame.
func realState(s game.State) game.State {
	if ps, ok := s.(*passState); ok {
		return ps.State
	}
	return s
}

// RandomJoint draws one allowed move per role, with one rng.IntN call
// each, as the Simulator contract asks.
func (s *restrictedSim) RandomJoint(rng *rand.Rand, dst []game.Move) ([]game.Move, error) {
	dst = dst[:0]
	if err := s.look(); err != nil {
		return dst, err
	}
	for role, l := range s.allowed {
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
