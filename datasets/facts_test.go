package datasets

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"gdlab/engine/game"
)

// playoutFacts are properties every random playout of a game must have; the
// facts recorded in meta.json that playouts can test. TestPlayouts checks them.
var playoutFacts = map[string]func(res game.PlayoutResult) error{
	"nim":                     oneWinner,
	"breakthrough":            oneWinner,
	"breakthroughSmall":       oneWinner,
	"hex7":                    oneWinner,
	"hexPie7":                 oneWinner,
	"connectFour":             all(maxSteps(42), winnerOrDraw),
	"connectFourSmall":        all(maxSteps(20), winnerOrDraw),
	"ticTacToe":               all(maxSteps(9), winnerOrDraw),
	"escortLatchBreakthrough": all(maxSteps(60), winnerOrDraw),
	"reversi":                 winnerOrDraw,
	"reversiSmall":            winnerOrDraw,
	"dotsAndBoxes":            all(exactSteps(60), oneWinner),
	"dualConnectFour":         all(maxSteps(40), constantSum(100)),
	"threePlayerConnectFour":  maxSteps(48),
	"eightPuzzle":             maxSteps(60),
	"kalaha":                  constantSumOrDraw,
}

// constantSum: the goals add up to total.
func constantSum(total int) func(game.PlayoutResult) error {
	return func(res game.PlayoutResult) error {
		sum := 0
		for _, g := range res.Goals {
			sum += g
		}
		if sum != total {
			return fmt.Errorf("goals %v add up to %d, want %d", res.Goals, sum, total)
		}
		return nil
	}
}

// constantSumOrDraw: kalaha's scale gives the loser 0 and the winner 88..100,
// or 50 each.
func constantSumOrDraw(res game.PlayoutResult) error {
	g := res.Goals
	if slices.Equal(g, []int{50, 50}) || (g[0] == 0 && g[1] >= 88) || (g[1] == 0 && g[0] >= 88) {
		return nil
	}
	return fmt.Errorf("goals %v: want 50/50 or 0 against 88..100", g)
}

// oneWinner: one role scores 100, the other 0.
func oneWinner(res game.PlayoutResult) error {
	if g := res.Goals; !slices.Equal(g, []int{100, 0}) && !slices.Equal(g, []int{0, 100}) {
		return fmt.Errorf("goals %v: want exactly one winner", g)
	}
	return nil
}

// winnerOrDraw: 100/0, 0/100 or 50/50.
func winnerOrDraw(res game.PlayoutResult) error {
	if g := res.Goals; !slices.Equal(g, []int{50, 50}) {
		return oneWinner(res)
	}
	return nil
}

func maxSteps(n int) func(game.PlayoutResult) error {
	return func(res game.PlayoutResult) error {
		if res.Steps > n {
			return fmt.Errorf("%d moves, more than the game's bound %d", res.Steps, n)
		}
		return nil
	}
}

func exactSteps(n int) func(game.PlayoutResult) error {
	return func(res game.PlayoutResult) error {
		if res.Steps != n {
			return fmt.Errorf("%d moves, want exactly %d", res.Steps, n)
		}
		return nil
	}
}

func all(fs ...func(game.PlayoutResult) error) func(game.PlayoutResult) error {
	return func(res game.PlayoutResult) error {
		for _, f := range fs {
			if err := f(res); err != nil {
				return err
			}
		}
		return nil
	}
}

// The corridors end after exactly their length.
func init() {
	for _, n := range corridorLengths {
		playoutFacts[corridorName(n, false)] = exactSteps(n)
		playoutFacts[corridorName(n, true)] = exactSteps(n)
	}
}

// TestEightPuzzleShortest checks, by a breadth-first search over the rules
// (positions compared without the move counter), that the shortest solution
// of eightPuzzle has 30 moves, the number its goal 100 requires, and that
// 181,440 positions are reachable (about 5 s; skipped in quick runs).
func TestEightPuzzleShortest(t *testing.T) {
	if testEffort() == quick {
		t.Skip("breadth-first search over 181,440 positions: skipped in quick runs")
	}
	m := newProver(t, loadGame(t, "eightPuzzle"))
	seen := map[string]bool{}
	level := []game.State{m.Initial()}
	seen[position(m.Initial())] = true
	solved := -1
	for depth := 0; len(level) > 0; depth++ {
		var next []game.State
		for _, s := range level {
			if solved < 0 && slices.Contains(s.Facts(), "(cell 3 3 b)") && game.Goals(m, s)[0] > 0 {
				solved = depth
			}
			legal, err := m.Legal(s, 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			for _, mv := range legal {
				ns, err := m.Next(s, []game.Move{mv})
				if err != nil {
					t.Fatal(err)
				}
				if p := position(ns); !seen[p] {
					seen[p] = true
					next = append(next, ns)
				}
			}
		}
		level = next
	}
	if solved != 30 || len(seen) != 181440 {
		t.Errorf("shortest solution %d moves, %d positions; want 30 and 181,440", solved, len(seen))
	}
}

// position is a state's facts without the move counter.
func position(s game.State) string {
	var b strings.Builder
	for _, f := range s.Facts() {
		if !strings.HasPrefix(f, "(step ") {
			b.WriteString(f)
		}
	}
	return b.String()
}
