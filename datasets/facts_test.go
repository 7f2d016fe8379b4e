package datasets

import (
	"fmt"
	"slices"

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
