package heuristic

import (
	"strconv"

	"gdlab/engine/game"
)

// IntermediateGoal reads the goal relation in non-terminal states, as many
// rulesheets define it there (points so far, pieces captured):
//
//	goal(s) = goal(s, role)   where the rules define one value
//	goal(s) = Missing          otherwise
//
// It is only as good as the rules' intermediate values: a "false summit",
// where the values rise towards a losing end, misleads it.
type IntermediateGoal struct {
	Missing float64 // value where the goal is undefined; the zero value is pessimistic
}

// Evaluate returns role's goal in s, or g.Missing.
func (g IntermediateGoal) Evaluate(m game.Machine, s game.State, role int) (float64, error) {
	return goalOr(m, s, role, g.Missing), nil
}

// String names the evaluator.
func (g IntermediateGoal) String() string {
	if g.Missing == 0 {
		return "goal"
	}
	return "goal(missing=" + strconv.FormatFloat(g.Missing, 'g', -1, 64) + ")"
}
