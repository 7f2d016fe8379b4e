package heuristic

import (
	"strconv"

	"gdlab/engine/game"
)

// Pessimism assumes the worst of every state it cannot see through:
//
//	pessimism(s) = goal(s, role)  if s is terminal (0 where undefined)
//	pessimism(s) = 0              otherwise
//
// With it, depth-limited minimax plays only for wins it can prove.
type Pessimism struct{}

// Evaluate returns 0 for non-terminal states and the goal for terminal ones.
func (Pessimism) Evaluate(m game.Machine, s game.State, role int) (float64, error) {
	term, err := m.Terminal(s)
	if err != nil || !term {
		return 0, err
	}
	return goalOr(m, s, role, 0), nil
}

// String names the evaluator.
func (Pessimism) String() string { return "pessimism" }

// Constant returns Value for every state: 50 is the "no idea" estimate
// against which other evaluators can be compared.
type Constant struct{ Value float64 }

// Evaluate returns c.Value.
func (c Constant) Evaluate(game.Machine, game.State, int) (float64, error) { return c.Value, nil }

// String names the evaluator.
func (c Constant) String() string {
	return "constant(" + strconv.FormatFloat(c.Value, 'g', -1, 64) + ")"
}

// goalOr returns role's goal in s, or def where the goal is undefined.
func goalOr(m game.Machine, s game.State, role int, def float64) float64 {
	g, err := m.Goal(s, role)
	if err != nil {
		return def
	}
	return float64(g)
}
