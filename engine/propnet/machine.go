package propnet

import (
	"fmt"
	"slices"

	"gdlab/engine/game"
	"gdlab/engine/gdl"
)

// State is a propnet state: the bitset of its base propositions.
type State struct {
	net  *Net
	bits []uint64
	hash uint64
}

// Net returns the network the state belongs to.
func (st *State) Net() *Net { return st.net }

func (n *Net) newState(bs []uint64) *State {
	return &State{net: n, bits: bs, hash: hashBits(bs)}
}

// hashBits hashes a state's bits.
func hashBits(bs []uint64) uint64 {
	h := uint64(0xcbf29ce484222325)
	for _, w := range bs {
		h = (h ^ w) * 0x100000001b3
		h ^= h >> 31
	}
	return h
}

// Facts returns the state's facts as canonical text in byte order.
func (st *State) Facts() []string {
	var out []string
	for b := range st.net.facts {
		if st.Has(b) {
			out = append(out, st.net.facts[b])
		}
	}
	return out // base propositions are numbered in byte order of their text
}

// Has reports whether the state holds base proposition b.
func (st *State) Has(b int) bool { return st.bits[b>>6]&(1<<uint(b&63)) != 0 }

// Hash returns a hash of the state's facts.
func (st *State) Hash() uint64 { return st.hash }

// Equal reports whether o, a state of the same Net, has the same facts.
func (st *State) Equal(o game.State) bool {
	t, ok := o.(*State)
	return ok && t.net == st.net && t.hash == st.hash && slices.Equal(t.bits, st.bits)
}

// String renders the state as its sorted facts on one line.
func (st *State) String() string { return fmt.Sprint(st.Facts()) }

// Roles returns the roles in declaration order.
func (n *Net) Roles() []string { return slices.Clone(n.roles) }

// Initial returns the initial state.
func (n *Net) Initial() game.State { return n.newState(slices.Clone(n.initial)) }

func (n *Net) state(s game.State) (*State, error) {
	st, ok := s.(*State)
	if !ok || st.net != n {
		return nil, fmt.Errorf("propnet: state %T does not belong to this network", s)
	}
	return st, nil
}

// borrow returns a pooled simulator set to s.
func (n *Net) borrow(s game.State) (*Sim, error) {
	st, err := n.state(s)
	if err != nil {
		return nil, err
	}
	sim := n.pool.Get().(*Sim)
	sim.load(st.bits)
	if n.stateReadsMoves {
		sim.clearMoves()
	}
	return sim, nil
}

func (n *Net) checkRole(role int) error {
	if role < 0 || role >= len(n.roles) {
		return fmt.Errorf("propnet: no role %d (the game has %d)", role, len(n.roles))
	}
	return nil
}

// Legal appends role's legal moves in s to dst[:0], sorted by canonical text.
func (n *Net) Legal(s game.State, role int, dst []game.Move) ([]game.Move, error) {
	if err := n.checkRole(role); err != nil {
		return dst[:0], err
	}
	sim, err := n.borrow(s)
	if err != nil {
		return dst[:0], err
	}
	dst = sim.legal(role, dst)
	n.pool.Put(sim)
	return dst, nil
}

// Next returns the state after joint, one move per role.
func (n *Net) Next(s game.State, joint []game.Move) (game.State, error) {
	if len(joint) != len(n.roles) {
		return nil, fmt.Errorf("propnet: joint move has %d moves for %d roles", len(joint), len(n.roles))
	}
	for r, m := range joint {
		if m < 0 || int(m) >= len(n.moves[r]) {
			return nil, fmt.Errorf("propnet: %d is not a move of %s", m, n.roles[r])
		}
	}
	sim, err := n.borrow(s)
	if err != nil {
		return nil, err
	}
	sim.setJoint(joint)
	sim.Advance()
	next := n.newState(slices.Clone(sim.state))
	n.pool.Put(sim)
	return next, nil
}

// Terminal reports whether s is terminal.
func (n *Net) Terminal(s game.State) (bool, error) {
	sim, err := n.borrow(s)
	if err != nil {
		return false, err
	}
	t := sim.terminal()
	n.pool.Put(sim)
	return t, nil
}

// Goal returns role's single goal value in s.
func (n *Net) Goal(s game.State, role int) (int, error) {
	if err := n.checkRole(role); err != nil {
		return 0, err
	}
	sim, err := n.borrow(s)
	if err != nil {
		return 0, err
	}
	g, err := sim.Goal(role)
	n.pool.Put(sim)
	if err == errNotInteger {
		return 0, n.notInteger(s, role)
	}
	return g, err
}

func (n *Net) notInteger(s game.State, role int) error {
	sim, _ := n.borrow(s)
	defer n.pool.Put(sim)
	sim.Goal(role) // brings lazy gates up to date
	for _, g := range n.goals[role] {
		if value(sim.cnt, g.l) {
			return fmt.Errorf("goal value %q of %s is not an integer", g.text, n.roles[role])
		}
	}
	return errNotInteger
}

// MoveText returns the canonical text of role's move m.
func (n *Net) MoveText(role int, m game.Move) string {
	if role < 0 || role >= len(n.roles) || m < 0 || int(m) >= len(n.moves[role]) {
		return fmt.Sprintf("<invalid move %d>", m)
	}
	return n.moves[role][m]
}

// ParseMove returns role's move with the given KIF text, such as
// "(mark 1 3)". Moves are numbered per role in byte order of their text,
// over every move the role may ever have (the moves of its legal atoms in
// the grounding). A well-formed move the role can never make legal has no
// input proposition: ParseMove then fails with an error wrapping
// ErrUnknownMove, since the network cannot play it.
func (n *Net) ParseMove(role int, text string) (game.Move, error) {
	if err := n.checkRole(role); err != nil {
		return game.NoMove, err
	}
	t, err := gdl.ParseTerm(text)
	if err != nil {
		return game.NoMove, fmt.Errorf("move %q: %w", text, err)
	}
	if !gdl.IsGround(t) {
		return game.NoMove, fmt.Errorf("move %q has a variable", text)
	}
	m, ok := n.moveIdx[role][t.String()]
	if !ok {
		return game.NoMove, fmt.Errorf("move %s of %s: %w", t, n.roles[role], ErrUnknownMove)
	}
	return game.Move(m), nil
}
