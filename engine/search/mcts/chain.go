package mcts

import (
	"slices"

	"gdlab/engine/game"
)

// Decision chains (Options.DecisionNodes). In the joint tree a state where
// several roles choose is one node with a bandit per role (decoupled UCT)
// and a child per joint move. With DecisionNodes it is a chain of nodes,
// one per choosing role: the head, which the transposition table holds,
// lets the first role choose; each of its children, at the same state,
// lets the next role choose knowing that choice; and so on until the last
// role's choice completes the joint move and the state changes. Every node
// of a chain then has a single chooser, as a turn-taking game's nodes do,
// so selection, solving and backup treat it exactly as they treat those.
//
// The roles choose in a fixed order: the searching player's own role
// first, then the roles after it in declaration order, wrapping round.
// A later role's node is conditioned on the earlier choices, which the
// game does not show it: an information leak. The tree accepts it and
// puts it on the safe side: the opponents answer knowing the player's
// move, so the player's values are those of committing first (its pure
// maximin, a lower bound of the game's value in mixed strategies), and a
// node solved there is solved for that order. The joint tree (the zero
// value) has no leak: each role's bandit sees only its own moves' values.

// nextChooser returns the role that chooses after the moves fixed so far at
// a chain's state (NoMove for roles that have not chosen), or -1 when every
// role with several moves has chosen.
func (t *tree) nextChooser(all [][]game.Move, fixed []game.Move) int {
	for k := 0; k < t.roles; k++ {
		r := (t.first + k) % t.roles
		if len(all[r]) > 1 && fixed[r] == game.NoMove {
			return r
		}
	}
	return -1
}

// splitHead makes a new node where several roles choose the head of its
// chain: the first role in the order chooses there.
func (t *tree) splitHead(nd *node) {
	nd.all = nd.moves
	nd.fixed = make([]game.Move, t.roles)
	for r := range nd.fixed {
		nd.fixed[r] = game.NoMove
	}
	t.narrow(nd, t.nextChooser(nd.all, nd.fixed))
}

// narrow gives a chain node the moves of its level: the chooser's legal
// moves, the fixed move of each role that chose above it, and one move for
// every other role (its only move, or a placeholder for a role still to
// choose below, which selection never plays: the joint move is complete
// only at the chain's last node).
func (t *tree) narrow(nd *node, chooser int) {
	nd.chooser = chooser
	nd.moves = make([][]game.Move, t.roles)
	for r := range nd.moves {
		switch {
		case r == chooser:
			nd.moves[r] = nd.all[r]
		case nd.fixed[r] != game.NoMove:
			nd.moves[r] = []game.Move{nd.fixed[r]}
		default:
			nd.moves[r] = nd.all[r][:1:1]
		}
	}
}

// chainNext returns the role choosing after the chooser of chain node nd
// has played joint's move, or -1 when the joint move is complete (or nd is
// no chain node).
func (t *tree) chainNext(nd *node, joint []game.Move) int {
	if nd.all == nil {
		return -1
	}
	fixed := t.chainFixed(nd, joint)
	return t.nextChooser(nd.all, fixed)
}

// chainFixed returns nd's fixed moves with its chooser's move in joint
// added, in the tree's scratch.
func (t *tree) chainFixed(nd *node, joint []game.Move) []game.Move {
	t.fixed = append(t.fixed[:0], nd.fixed...)
	t.fixed[nd.chooser] = joint[nd.chooser]
	return t.fixed
}

// chainChild creates the node below chain node id for joint's move of its
// chooser, where role next chooses, and links it as child ji. The child
// shares its parent's state, moves and ranges; it is no expansion (no
// moves are generated) and is not in the transposition table.
func (t *tree) chainChild(id int32, ji int, joint []game.Move, next int) int32 {
	p := &t.nodes[id]
	nd := node{state: p.state, all: p.all, fixed: slices.Clone(t.chainFixed(p, joint)), inner: true, lo: p.lo, hi: p.hi}
	t.narrow(&nd, next)
	t.initStats(&nd)
	c := t.store(nd)
	if ji < len(t.nodes[id].children) {
		t.nodes[id].children[ji] = c
	}
	return c
}

// chainLeaf ends a selection at chain node nd when the pool is full and
// the chain cannot grow: the roles still to choose get uniformly drawn
// legal moves, and the leaf is the state the completed joint move reaches,
// to be played out. Nothing is linked, since the drawn moves are no choice
// of the tree.
func (t *tree) chainLeaf(l *leaf, nd *node, joint []game.Move) (*leaf, error) {
	fixed := t.chainFixed(nd, joint)
	for r := range joint {
		if len(nd.all[r]) > 1 && fixed[r] == game.NoMove {
			joint[r] = nd.all[r][t.rng.IntN(len(nd.all[r]))]
		}
	}
	s, err := t.advance(nd.state, joint)
	if err != nil {
		return nil, err
	}
	l.state = s
	return l, nil
}
