package datasets_test

import (
	"context"
	"fmt"

	"gdlab/datasets"
	"gdlab/engine/game"
	"gdlab/engine/prover"
)

// Load a curated game, build a reasoner for it and count its first moves.
func ExampleGame() {
	g, err := datasets.Game("connectFour")
	if err != nil {
		fmt.Println(err)
		return
	}
	d, err := g.Description()
	if err != nil {
		fmt.Println(err)
		return
	}
	m, err := prover.New(d)
	if err != nil {
		fmt.Println(err)
		return
	}
	levels, _ := game.Perft(context.Background(), m, m.Initial(), 3)
	fmt.Println(g.Meta.Title, g.Meta.Roles)
	for _, l := range levels {
		fmt.Println(l.Depth, l.Sequences)
	}
	// Output:
	// Connect Four (7x6) [white black]
	// 1 7
	// 2 49
	// 3 343
}

// Generate an untwisty corridor of length 3 and walk it: only the right
// action at every step wins.
func ExampleCorridor() {
	g, _ := datasets.Corridor(3, false)
	d, _ := g.Description()
	m, _ := prover.New(d)
	s := m.Initial()
	for _, action := range []string{"d", "g", "b"} { // the right actions for moves 1, 2, 3
		mv, _ := m.ParseMove(0, action)
		s, _ = m.Next(s, []game.Move{mv})
	}
	term, _ := m.Terminal(s)
	goal, _ := m.Goal(s, 0)
	fmt.Println(g.Name, term, goal)
	// Output:
	// untwistyCorridor3 true 100
}
