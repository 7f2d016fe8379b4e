package mcts

import (
	"context"
	"testing"

	"gdlab/engine/game"
	"gdlab/engine/propnet/propnettest"
	"gdlab/engine/search"
)

// TestSolverAgreesWithBruteForce: the regression set's solver (alpha-beta
// with a table of bounds) gives plain recursion's values, lower and upper,
// for both roles, at random positions of a turn-taking game (tic-tac-toe)
// and of a simultaneous one (blocker, near its end).
func TestSolverAgreesWithBruteForce(t *testing.T) {
	cases := []struct {
		game string
		back int // joint moves cut from the end of each random line
	}{{"ticTacToe", 4}, {"blocker", 2}}
	for _, c := range cases {
		m := propnettest.Curated(t, c.game)
		rng := game.NewRand(7)
		for i := 0; i < 6; i++ {
			line := randomLine(t, m, rng)
			cut := max(len(line)-1-rng.IntN(c.back), 3) // brute force from the start is slow
			s := play(t, m, m.Initial(), line[:cut]...)
			for me := 0; me < 2; me++ {
				for _, first := range []bool{true, false} {
					want, err := bruteValue(m, s, me, first)
					if err != nil {
						t.Fatal(err)
					}
					got, err := newSolver(context.Background(), m, me, first, 1e7).exactValue(s)
					if err != nil {
						t.Fatal(err)
					}
					if got != want {
						t.Errorf("%s position %d, role %d, meFirst %v: solver %g, brute force %g", c.game, i, me, first, got, want)
					}
				}
			}
		}
	}
}

// TestLostRootResists: in a proved loss every move loses, but a move the
// opponent must still find a win against beats one it wins against at
// once. On the first tic-tac-toe position (in a fixed enumeration) where o
// is lost and has both kinds of move, the solved search plays one that
// leaves x no immediate win.
func TestLostRootResists(t *testing.T) {
	net := propnettest.Curated(t, "ticTacToe")
	memo := map[uint64][]float64{}
	s, ok := lostWithChoice(t, net, net.Initial(), 0, memo)
	if !ok {
		t.Fatal("no lost position with a delaying move in the first plies of tic-tac-toe")
	}
	for seed := uint64(1); seed <= 5; seed++ {
		p := started(t, net, 1, Options{Iterations: 100000}, seed)
		mv, rep, err := p.Play(context.Background(), s, search.Budget{Nodes: 50000})
		if err != nil {
			t.Fatal(err)
		}
		if !rep.Complete || rep.Value != 0 {
			t.Fatalf("seed %d: value %v complete %v, want the loss proved", seed, rep.Value, rep.Complete)
		}
		if winsAtOnce(t, net, after(t, net, s, 1, mv), 0) {
			t.Errorf("seed %d: o plays %s, after which x wins at once; a delaying move exists", seed, net.MoveText(1, mv))
		}
	}
}

// lostWithChoice returns the first state, depth first in move order up to
// five plies, where o (role 1) moves, its exact value is a loss, and some
// of its moves let x win at once while others do not.
func lostWithChoice(t *testing.T, m game.Machine, s game.State, ply int, memo map[uint64][]float64) (game.State, bool) {
	if term, _ := m.Terminal(s); term || ply > 5 {
		return nil, false
	}
	legal, err := game.LegalAll(m, s)
	if err != nil {
		t.Fatal(err)
	}
	if len(legal[1]) > 1 && exact(t, m, s, memo)[1] == 0 {
		quick, slow := 0, 0
		for _, mv := range legal[1] {
			if winsAtOnce(t, m, after(t, m, s, 1, mv), 0) {
				quick++
			} else {
				slow++
			}
		}
		if quick > 0 && slow > 0 {
			return s, true
		}
	}
	mover := 0
	if len(legal[1]) > 1 {
		mover = 1
	}
	for _, mv := range legal[mover] {
		if found, ok := lostWithChoice(t, m, after(t, m, s, mover, mv), ply+1, memo); ok {
			return found, true
		}
	}
	return nil, false
}

// after plays role's move mv, every other role its first legal move.
func after(t *testing.T, m game.Machine, s game.State, role int, mv game.Move) game.State {
	legal, err := game.LegalAll(m, s)
	if err != nil {
		t.Fatal(err)
	}
	joint := make([]game.Move, len(legal))
	for r := range legal {
		joint[r] = legal[r][0]
	}
	joint[role] = mv
	next, err := m.Next(s, joint)
	if err != nil {
		t.Fatal(err)
	}
	return next
}

// winsAtOnce reports whether role has a move in s that ends the game with
// its goal at 100.
func winsAtOnce(t *testing.T, m game.Machine, s game.State, role int) bool {
	if term, _ := m.Terminal(s); term {
		return false
	}
	legal, err := game.LegalAll(m, s)
	if err != nil {
		t.Fatal(err)
	}
	for _, mv := range legal[role] {
		next := after(t, m, s, role, mv)
		if term, _ := m.Terminal(next); term {
			if g, _ := m.Goal(next, role); g == 100 {
				return true
			}
		}
	}
	return false
}

// randomLine plays a uniformly random match and returns its joint moves as
// text.
func randomLine(t *testing.T, m game.Machine, rng interface{ IntN(int) int }) [][]string {
	s := m.Initial()
	var line [][]string
	for steps := 0; steps < 1000; steps++ {
		if term, err := m.Terminal(s); err != nil || term {
			if err != nil {
				t.Fatal(err)
			}
			return line
		}
		legal, err := game.LegalAll(m, s)
		if err != nil {
			t.Fatal(err)
		}
		joint := make([]game.Move, len(legal))
		texts := make([]string, len(legal))
		for r, ms := range legal {
			joint[r] = ms[rng.IntN(len(ms))]
			texts[r] = m.MoveText(r, joint[r])
		}
		line = append(line, texts)
		if s, err = m.Next(s, joint); err != nil {
			t.Fatal(err)
		}
	}
	return line
}
