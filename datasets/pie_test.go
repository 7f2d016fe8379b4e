package datasets

import (
	"slices"
	"testing"

	"gdlab/engine/game"
)

// TestPieRule plays an opening move and the swap in the pie-rule games and
// checks the state and moves that follow: the players exchange colours, the
// opening stone or mark stays, the first player moves next with the other
// colour, and the swap is never offered again.
func TestPieRule(t *testing.T) {
	for _, c := range []struct {
		game, opening string
		after         []string // facts that must hold after the swap
		gone          []string // facts that must not
		firstMoves    int      // the first player's legal moves after the swap
		firstMove     string   // one of them
	}{
		{game: "nineBoardTicTacToePie", opening: "(play 2 2 1 3 x)",
			after:      []string{"(control red)", "(currentBoard 1 3)", "(mark 2 2 1 3 x)", "(usingMarker blue x)", "(usingMarker red o)"},
			gone:       []string{"canSwap", "(usingMarker red x)"},
			firstMoves: 9, firstMove: "(play 1 3 2 2 o)"},
		{game: "hexPie7", opening: "(place d 4)",
			after:      []string{"(cell d 4 red)", "(control player1)", "(usingMarker player1 blue)", "(usingMarker player2 red)"},
			gone:       []string{"canSwap", "(usingMarker player1 red)"},
			firstMoves: 48, firstMove: "(place a 1)"},
	} {
		t.Run(c.game, func(t *testing.T) {
			m := newProver(t, loadGame(t, c.game))
			s := applyText(t, m, m.Initial(), 0, c.opening)
			if !slices.Contains(legalTexts(t, m, s, 1), "swap") {
				t.Fatalf("swap not offered after the opening: %v", legalTexts(t, m, s, 1))
			}
			s = applyText(t, m, s, 1, "swap")
			facts := s.Facts()
			for _, f := range c.after {
				if !slices.Contains(facts, f) {
					t.Errorf("after the swap, %s does not hold: %v", f, facts)
				}
			}
			for _, f := range c.gone {
				if slices.Contains(facts, f) {
					t.Errorf("after the swap, %s still holds", f)
				}
			}
			first := legalTexts(t, m, s, 0)
			if len(first) != c.firstMoves || !slices.Contains(first, c.firstMove) {
				t.Errorf("first player's moves after the swap: %d %v, want %d including %s", len(first), first, c.firstMoves, c.firstMove)
			}
			if second := legalTexts(t, m, s, 1); !slices.Equal(second, []string{"noop"}) {
				t.Errorf("second player's moves after the swap: %v, want [noop]", second)
			}
			s = applyText(t, m, s, 0, c.firstMove)
			if slices.Contains(legalTexts(t, m, s, 1), "swap") {
				t.Error("swap offered again later")
			}
			if goals := game.Goals(m, s); !slices.Equal(goals, []int{0, 0}) {
				t.Errorf("goals while the game is open: %v, want [0 0]", goals)
			}
		})
	}
}
