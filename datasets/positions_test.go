package datasets

import (
	"slices"
	"testing"
)

// TestPositionSets: every file of the regression set decodes (no unknown
// fields), names its own game, a curated game or a corpus key, and holds
// positions with unique names, each with a best move among its moves. The
// exhaustive verification of the values is engine/search/mcts's
// TestRegressionSet.
func TestPositionSets(t *testing.T) {
	sets, err := PositionSets()
	if err != nil {
		t.Fatal(err)
	}
	if len(sets) == 0 {
		t.Fatal("no position sets")
	}
	names := map[string]bool{}
	for _, set := range sets {
		checkSetSource(t, set)
		for _, p := range set.Positions {
			if names[p.Name] {
				t.Errorf("%s: position name used twice", p.Name)
			}
			names[p.Name] = true
			checkPosition(t, p)
		}
	}
}

// checkSetSource checks that a set's game exists where its source says.
func checkSetSource(t *testing.T, set PositionSet) {
	t.Helper()
	switch set.Source {
	case "curated":
		if !slices.Contains(List(), set.Game) {
			t.Errorf("%s: no curated game of that name", set.Game)
		}
	case "corpus":
	default:
		t.Errorf("%s: source %q, want curated or corpus", set.Game, set.Source)
	}
	if len(set.Positions) == 0 {
		t.Errorf("%s: no positions", set.Game)
	}
}

// checkPosition checks an entry's internal consistency.
func checkPosition(t *testing.T, p Position) {
	t.Helper()
	if len(p.Best) == 0 || len(p.Best) == len(p.MoveValues) {
		t.Errorf("%s: %d best moves of %d", p.Name, len(p.Best), len(p.MoveValues))
	}
	for _, b := range p.Best {
		if v, ok := p.MoveValues[b]; !ok || v != p.Value {
			t.Errorf("%s: best move %s has value %g (listed %v), position %g", p.Name, b, v, ok, p.Value)
		}
	}
}
