package tarpit

import (
	"slices"
	"strings"

	"gdlab/engine/game"
	"gdlab/engine/heuristic"
)

// GameHeuristic returns the heuristic blended into the searches of a set's
// game, or nil for a game without one: Material for breakthroughSmall.
// (Tic-tac-toe, Connect Four and Blocker count no pieces worth comparing,
// and their goals say nothing before the end.)
func GameHeuristic(game string) heuristic.Evaluator {
	if game == "breakthroughSmall" {
		return Material{}
	}
	return nil
}

// Material is the share of pieces a role owns, Sancho's piece heuristic in
// its simplest form:
//
//	material(s, role) = 100 · own / (own + others)
//
// where a role's pieces are the state's facts whose last argument is the
// role's name (breakthroughSmall's (cell x y white), and its (control
// white) too); 50 when no such fact holds.
type Material struct{}

// Evaluate returns role's share of the pieces in s.
func (Material) Evaluate(m game.Machine, s game.State, role int) (float64, error) {
	own, all := 0, 0
	for _, f := range s.Facts() {
		last := strings.TrimSuffix(f[strings.LastIndexByte(f, ' ')+1:], ")")
		if i := slices.Index(m.Roles(), last); i >= 0 {
			all++
			if i == role {
				own++
			}
		}
	}
	if all == 0 {
		return 50, nil
	}
	return 100 * float64(own) / float64(all), nil
}
