package game

import "strings"

// JointText returns the canonical text of a joint move, one entry per role.
func JointText(m Machine, joint []Move) []string {
	out := make([]string, len(joint))
	for r, mv := range joint {
		out[r] = m.MoveText(r, mv)
	}
	return out
}

// MovesText returns the canonical text of role's moves, in the given order.
func MovesText(m Machine, role int, moves []Move) []string {
	out := make([]string, len(moves))
	for i, mv := range moves {
		out[i] = m.MoveText(role, mv)
	}
	return out
}

// StateText renders a state as its sorted facts, one per line.
func StateText(s State) string { return strings.Join(s.Facts(), "\n") }
