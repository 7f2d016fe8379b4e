package local

import (
	"fmt"
	"strings"

	"gdlab/engine/analysis"
	"gdlab/engine/game"
)

// Endgame is a constructed position with a known forced result, for the
// tests and the notebook. Its claim is checked against exhaustive
// alpha-beta search by the package's tests.
type Endgame struct {
	Name   string
	Game   string   // the datasets game
	ToMove string   // "white" or "black"
	Rows   []string // the board from the top row down, files left to right: W, B or .
	// SeedRole and Seed give the move that sets the locality (the last
	// move, as a referee would have it), or Seed "" for none.
	SeedRole int
	Seed     string
	// Want is the forced result for the role to move: "win" (its best
	// move wins in Depth of its moves), "loss" (every move loses, the
	// opponent winning in at most Depth of its moves) or "none" (no win
	// for either side within Depth moves).
	Want  string
	Depth int
	Note  string
}

// State returns the endgame's position as a state of m, a machine of its
// game (see analysis.StateOf for the machines that can make one).
func (e Endgame) State(m game.Machine) (game.State, error) {
	cell := "cell"
	if len(e.Rows) == 8 {
		cell = "cellHolds" // the 8×8 game's name for the fact
	}
	facts := []string{"(control " + e.ToMove + ")"}
	for i, row := range e.Rows {
		y := len(e.Rows) - i
		for x, c := range strings.Fields(row) {
			switch c {
			case "W":
				facts = append(facts, fmt.Sprintf("(%s %d %d white)", cell, x+1, y))
			case "B":
				facts = append(facts, fmt.Sprintf("(%s %d %d black)", cell, x+1, y))
			}
		}
	}
	return analysis.StateOf(m, facts)
}

// Endgames returns the suite of constructed endgames.
func Endgames() []Endgame {
	return []Endgame{
		{Name: "runner in 1", Game: "breakthroughSmall", ToMove: "white", SeedRole: 0, Seed: "(move 3 4 3 5)",
			Rows: []string{
				". . . . . .",
				". . W . . B",
				". . . . . .",
				". . . . . .",
				". . . . . .",
				"W . . . . ."},
			Want: "win", Depth: 1, Note: "a pawn one step from the last row"},
		{Name: "guarded runner in 3", Game: "breakthroughSmall", ToMove: "white", SeedRole: 1, Seed: "(move 6 6 6 5)",
			Rows: []string{
				"B B . . . .",
				". . . . . B",
				". . . . . .",
				". . W . . .",
				". . . . . .",
				". . . . . ."},
			Want: "win", Depth: 3, Note: "the straight path is guarded; the diagonal step wins"},
		{Name: "two pawns in 3", Game: "breakthroughSmall", ToMove: "white", SeedRole: 1, Seed: "(move 3 6 3 5)",
			Rows: []string{
				". . . . B .",
				". . B . . .",
				". . . . . .",
				". W . W . .",
				". . . . . .",
				". . . . . ."},
			Want: "win", Depth: 3, Note: "one defender cannot stop two pawns"},
		{Name: "unstoppable black", Game: "breakthroughSmall", ToMove: "white", SeedRole: 1, Seed: "(move 3 3 3 2)",
			Rows: []string{
				". . . . . .",
				". . . . . .",
				". . . . W W",
				". . . . . .",
				". . B . . .",
				". . . . . ."},
			Want: "loss", Depth: 1, Note: "black reaches row 1 next move whatever white does"},
		{Name: "capture or lose", Game: "breakthroughSmall", ToMove: "white", SeedRole: 1, Seed: "(move 3 3 3 2)",
			Rows: []string{
				". . . . . .",
				". . . . B .",
				". . . . . .",
				". . . . . W",
				". . B . . .",
				". W . . . ."},
			Want: "none", Depth: 2, Note: "only the capture saves white; every other move is a local loss"},
		{Name: "lost race", Game: "breakthroughSmall", ToMove: "white", SeedRole: 1, Seed: "",
			Rows: []string{
				". . . . . .",
				". . . . . .",
				". . B B . .",
				"B . . W . .",
				". . . . . .",
				". . . . . ."},
			Want: "loss", Depth: 2, Note: "no seed; black's far pawn wins the race: without the tenuki, local search would claim a win"},
		{Name: "8x8 runner in 3", Game: "breakthrough", ToMove: "white", SeedRole: 0, Seed: "(move 4 4 4 5)",
			Rows: []string{
				"B B . . . . . .",
				". . . . . . . B",
				". . . . . . . .",
				". . . W . . . .",
				". . . . . . . .",
				". . . . . . . .",
				". . . . . . . .",
				"W . . . . . . ."},
			Want: "win", Depth: 3, Note: "a free pawn three rows from the end"},
		{Name: "8x8 two pawns vs guard", Game: "breakthrough", ToMove: "white", SeedRole: 1, Seed: "(move 5 7 5 6)",
			Rows: []string{
				". . . . . . . .",
				". . . B . . . .",
				". . . . B . . .",
				". . . . . . . .",
				". . . W . W . .",
				". . . . . . . .",
				". . . . . . . .",
				". . . . . . . ."},
			Want: "win", Depth: 4, Note: "two pawns against two guards"},
	}
}
