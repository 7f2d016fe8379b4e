package mcts

import (
	"context"
	"testing"

	"gdlab/engine/game"
	"gdlab/engine/propnet/propnettest"
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
			s, err := reach(m, line[:cut])
			if err != nil {
				t.Fatal(err)
			}
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
