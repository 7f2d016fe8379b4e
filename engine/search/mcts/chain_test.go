package mcts

import (
	"context"
	"reflect"
	"testing"

	"gdlab/engine/game"
	"gdlab/engine/propnet/propnettest"
	"gdlab/engine/search"
	"gdlab/engine/search/searchtest"
)

// TestDecisionNodesSameOnTurnTaking: a turn-taking game has no state where
// several roles choose, so the switch changes nothing, bit for bit (the
// golden searches on ticTacToe and connectFourSmall, blended heuristic
// included); on blocker, where both choose, it does change the search.
func TestDecisionNodesSameOnTurnTaking(t *testing.T) {
	off := goldenCases(t, Options{})
	on := goldenCases(t, Options{DecisionNodes: true})
	for i := range off {
		same := reflect.DeepEqual(off[i], on[i])
		if simultaneous := off[i].Game == "blocker"; same == simultaneous {
			t.Errorf("case %d (%s): decision nodes give the same search: %v", i, off[i].Game, same)
		}
	}
}

// TestDecisionChainShape: with the switch on, blocker's root is the head
// of a chain where the player's own role chooses; its children share its
// state, let the other role choose and are not in the transposition table;
// their children are the states after the joint move.
func TestDecisionChainShape(t *testing.T) {
	m := propnettest.Curated(t, "blocker")
	for me := 0; me < 2; me++ {
		p := started(t, m, me, Options{DecisionNodes: true, Iterations: 500}, 3)
		if _, err := p.Search(context.Background(), m.Initial(), search.Budget{}); err != nil {
			t.Fatal(err)
		}
		tr := p.t
		root := &tr.nodes[tr.root]
		if root.chooser != me || len(root.moves[me]) != 16 || len(root.moves[1-me]) != 1 || root.inner {
			t.Fatalf("role %d: root chooser %d, moves %d and %d", me, root.chooser, len(root.moves[me]), len(root.moves[1-me]))
		}
		innerSeen := 0
		for i := range root.moves[me] {
			c := tr.childOf(root, me, i)
			if c == none {
				continue
			}
			ch := &tr.nodes[c]
			if !ch.inner || ch.chooser != 1-me || !ch.state.Equal(root.state) || ch.fixed[me] != root.moves[me][i] {
				t.Fatalf("role %d: child %d is not the other role's node of the same state", me, i)
			}
			held := 0
			for _, id := range tr.table[root.state.Hash()] {
				if tr.nodes[id].state.Equal(root.state) {
					held++
				}
			}
			if held != 1 || tr.lookup(ch.state) != tr.root {
				t.Fatalf("the table holds %d nodes of the root's state", held)
			}
			for j := range ch.moves[1-me] {
				if g := tr.childOf(ch, 1-me, j); g != none && (tr.nodes[g].inner || tr.nodes[g].state.Equal(root.state)) {
					t.Fatalf("role %d: grandchild %d/%d is not the next state", me, i, j)
				}
			}
			innerSeen++
		}
		if innerSeen != 16 {
			t.Errorf("role %d: %d of 16 inner nodes after 500 iterations", me, innerSeen)
		}
		checkChains(t, tr)
	}
}

// TestDecisionNodesLeak: two rounds of rock-paper-scissors. In decision
// nodes the opponent's node sees the player's throw, so the tree solves
// the game as a certain loss for the player, whichever role it plays: the
// pure maximin value the exhaustive solver gives (committing first). The
// joint tree has no such leak and never solves a state where both choose.
func TestDecisionNodesLeak(t *testing.T) {
	m, err := searchtest.Game("rps")
	if err != nil {
		t.Fatal(err)
	}
	for me := 0; me < 2; me++ {
		want, err := newSolver(context.Background(), m, me, true, 1e6).exactValue(m.Initial())
		if err != nil {
			t.Fatal(err)
		}
		p := started(t, m, me, Options{DecisionNodes: true, Iterations: 20000}, 5)
		if _, err := p.Search(context.Background(), m.Initial(), search.Budget{}); err != nil {
			t.Fatal(err)
		}
		st := p.LastStats()
		if !st.RootSolved || st.RootValue[me] != want || want != 0 {
			t.Errorf("role %d: decision nodes: solved %v value %v, maximin %g", me, st.RootSolved, st.RootValue, want)
		}
		q := started(t, m, me, Options{Iterations: 20000}, 5)
		if _, err := q.Search(context.Background(), m.Initial(), search.Budget{}); err != nil {
			t.Fatal(err)
		}
		if q.LastStats().RootSolved {
			t.Errorf("role %d: the joint tree solved a simultaneous root", me)
		}
	}
}

// TestDecisionNodesFullPool: with a pool too small for the chains, the
// search completes the joint move at random where a chain cannot grow and
// still plays legal moves.
func TestDecisionNodesFullPool(t *testing.T) {
	m := propnettest.Curated(t, "blocker")
	p := started(t, m, 0, Options{DecisionNodes: true, PoolSize: 40, Iterations: 2000}, 9)
	mv, _, err := p.Play(context.Background(), m.Initial(), search.Budget{})
	if err != nil {
		t.Fatal(err)
	}
	legal, _ := m.Legal(m.Initial(), 0, nil)
	if !contains(legal, mv) || p.t.live > 40 {
		t.Errorf("move %v legal %v, %d live nodes", mv, contains(legal, mv), p.t.live)
	}
	checkChains(t, p.t)
	if p.LastStats().Iterations != 2000 {
		t.Errorf("%d iterations", p.LastStats().Iterations)
	}
}

// checkChains checks every chain node of a tree: a node whose chooser is
// not the chain's last links only to inner nodes of its own state, whose
// fixed moves extend its own by the move chosen.
func checkChains(t *testing.T, tr *tree) {
	t.Helper()
	for id := range tr.nodes {
		nd := &tr.nodes[id]
		if !nd.live || nd.all == nil {
			continue
		}
		for i, mv := range nd.moves[nd.chooser] {
			c := tr.childOf(nd, nd.chooser, i)
			if c == none {
				continue
			}
			joint := make([]game.Move, tr.roles)
			joint[nd.chooser] = mv
			last := tr.chainNext(nd, joint) < 0
			ch := &tr.nodes[c]
			if !last && (!ch.inner || !ch.state.Equal(nd.state) || ch.fixed[nd.chooser] != mv) {
				t.Fatalf("node %d (chooser %d): move %d links to node %d, not the next role's node of its state", id, nd.chooser, i, c)
			}
			if last && ch.inner {
				t.Fatalf("node %d: the last chooser's move %d links to an inner node", id, i)
			}
		}
	}
}

// TestDecisionNodesFullPoolLinks: rock-paper-scissors with room for three
// nodes. Once the pool is full, a selection that needs a new chain node
// draws the later role's move and plays out from the state reached, which
// the tree often holds already (a round has three outcomes); the chain node
// must not be linked to it, or later selections would skip the other role's
// choice.
func TestDecisionNodesFullPoolLinks(t *testing.T) {
	m, err := searchtest.Game("rps")
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(1); seed <= 5; seed++ {
		p := started(t, m, 0, Options{DecisionNodes: true, PoolSize: 3, Iterations: 300}, seed)
		if _, err := p.Search(context.Background(), m.Initial(), search.Budget{}); err != nil {
			t.Fatal(err)
		}
		checkChains(t, p.t)
	}
}
