package local

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"gdlab/engine/analysis/distance"
	"gdlab/engine/game"
	"gdlab/engine/propnet"
	"gdlab/engine/propnet/propnettest"
	"gdlab/engine/search"
)

// board builds a breakthroughSmall state from a diagram: rows from the top
// (row 6) down, files 1..6 left to right, W and B for pawns.
func board(t testing.TB, net *propnet.Net, toMove string, rows ...string) *propnet.State {
	t.Helper()
	facts := []string{"(control " + toMove + ")"}
	for i, row := range rows {
		y := len(rows) - i
		for x, c := range strings.Fields(row) {
			switch c {
			case "W":
				facts = append(facts, fmt.Sprintf("(cell %d %d white)", x+1, y))
			case "B":
				facts = append(facts, fmt.Sprintf("(cell %d %d black)", x+1, y))
			}
		}
	}
	st, err := net.StateOf(facts)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

// fixture holds a network, its distances and a searcher.
type fixture struct {
	net *propnet.Net
	d   *distance.Metric
}

func newFixture(t testing.TB, game string) *fixture {
	t.Helper()
	net := propnettest.Curated(t, game)
	d, err := distance.Of(context.Background(), net)
	if err != nil {
		t.Fatal(err)
	}
	return &fixture{net: net, d: d}
}

func (f *fixture) search(t testing.TB, st game.State, seedRole int, seed string, opt Options, b search.Budget) *Result {
	t.Helper()
	s, err := New(f.net, f.d, opt)
	if err != nil {
		t.Fatal(err)
	}
	m := game.NoMove
	if seed != "" {
		if m, err = f.net.ParseMove(seedRole, seed); err != nil {
			t.Fatal(err)
		}
	}
	res, err := s.Search(context.Background(), st, seedRole, m, b)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// exact returns whether role has a forced win within plies joint moves
// from st, by exhaustive alpha-beta (an independent search).
func (f *fixture) exact(t testing.TB, st game.State, role, plies int) bool {
	t.Helper()
	if plies <= 0 {
		over, _ := f.net.Terminal(st)
		g, _ := f.net.Goal(st, role)
		return over && g == 100
	}
	ab := &search.AlphaBeta{}
	v, _, err := ab.Value(context.Background(), f.net, st, role, plies, search.Budget{})
	if err != nil {
		t.Fatal(err)
	}
	return v == 100
}

// verify checks every Win and Loss claim of res against exhaustive search.
func (f *fixture) verify(t testing.TB, st game.State, res *Result) {
	t.Helper()
	opp := 1 - res.Role
	for _, mr := range res.Moves {
		if mr.Status == Unknown {
			continue
		}
		child, err := f.net.Next(st, jointOf(res.Role, mr.Move, f.net, st))
		if err != nil {
			t.Fatal(err)
		}
		switch mr.Status {
		case Win:
			if !f.exact(t, child, res.Role, 2*mr.Depth-2) {
				t.Errorf("%s claimed a win in %d, exhaustive search disagrees", mr.Text, mr.Depth)
			}
		case Loss:
			if !f.exact(t, child, opp, 2*mr.Depth-1) {
				t.Errorf("%s claimed a loss in %d, exhaustive search disagrees", mr.Text, mr.Depth)
			}
		}
	}
}

// jointOf returns the joint move of role's m and the other's only move.
func jointOf(role int, m game.Move, net *propnet.Net, st game.State) []game.Move {
	other, _ := net.Legal(st, 1-role, nil)
	j := make([]game.Move, 2)
	j[role], j[1-role] = m, other[0]
	return j
}
