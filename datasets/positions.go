package datasets

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"
)

// positionsFS holds the regression set of positions: one JSON file a game,
// positions/<game>.json (see positions/README.md).
//
//go:embed positions/*.json
var positionsFS embed.FS

// PositionSet is one game's positions of the regression set: positions of
// a two-role constant-sum game whose best moves were verified by exhaustive
// search (the tests of engine/experiment/tarpit and engine/search/mcts
// re-solve every entry).
type PositionSet struct {
	Game      string     `json:"game"`   // a curated game of this package, or a corpus key
	Source    string     `json:"source"` // "curated" or "corpus" (../shared/games/<Game>)
	Positions []Position `json:"positions"`
}

// Position is one entry of the regression set. A move's value is what Role
// secures by committing to it, the other role answering knowing it (pure
// maximin); where both roles choose (Simultaneous) the entry is kept only
// when that equals the pure minimax value, so a best move secures Value
// against every strategy.
type Position struct {
	Name         string             `json:"name"`
	Moves        [][]string         `json:"moves"` // joint moves from the initial state, role order, as text
	Role         string             `json:"role"`  // the role whose move is asked for
	Simultaneous bool               `json:"simultaneous"`
	Value        float64            `json:"value"`      // the role's exact value
	Best         []string           `json:"best"`       // the moves that secure Value, sorted
	MoveValues   map[string]float64 `json:"moveValues"` // every legal move's secured value
}

// PositionSets returns every game's positions of the regression set,
// sorted by game name.
func PositionSets() ([]PositionSet, error) {
	names, err := fs.Glob(positionsFS, "positions/*.json")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var out []PositionSet
	for _, n := range names {
		set, err := readPositionSet(n)
		if err != nil {
			return nil, err
		}
		out = append(out, set)
	}
	return out, nil
}

// readPositionSet decodes one file of the set, refusing unknown fields.
func readPositionSet(name string) (PositionSet, error) {
	var set PositionSet
	raw, err := positionsFS.ReadFile(name)
	if err != nil {
		return set, fmt.Errorf("datasets: %w", err)
	}
	if err := decodeStrict(raw, &set); err != nil {
		return set, fmt.Errorf("datasets: %s: %v", name, err)
	}
	if want := path.Base(name); set.Game+".json" != want {
		return set, fmt.Errorf("datasets: %s names game %q", name, set.Game)
	}
	return set, nil
}

// decodeStrict decodes JSON into v, failing on fields v does not have.
func decodeStrict(raw []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}
