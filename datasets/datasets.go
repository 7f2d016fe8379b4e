// Package datasets owns gdlab's curated GDL games: rulesheets written for the
// project, embedded in the binary with their metadata and verified by its
// tests, so that notebooks and experiments have dependable games on a machine
// without the public repository. It also generates the parameterised families
// (the untwisty corridor, hex) and loads external games, from a folder in the
// public repository's layout or from a GGP repository server over HTTP.
package datasets

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"sort"

	"gdlab/engine/gdl"
)

// gamesFS holds one folder per curated game: games/<name>/<name>.kif and
// games/<name>/meta.json.
//
//go:embed games
var gamesFS embed.FS

// Rulesheet is a GDL game: its rules as KIF text and what is known about it.
// (The type is not called Game because Game is the function that loads one.)
type Rulesheet struct {
	Name   string // the game's name: its folder under datasets/games, or its repository key
	Rules  string // the rulesheet, KIF source text
	Meta   Meta   // descriptive and verified facts
	Source string // where the rules come from, as parse errors name it: a path or URL
}

// Meta describes a game: the contents of a curated game's meta.json. For a
// game loaded from a repository only Name, Title and Roles are filled.
type Meta struct {
	Name        string   `json:"name"`
	Title       string   `json:"title"`
	Roles       []string `json:"roles"`                   // in declaration order
	Description string   `json:"description"`             // the rules in prose
	UsedBy      []string `json:"usedBy,omitempty"`        // experiments and notebooks that use the game
	Generator   string   `json:"generator,omitempty"`     // the Go call that generates the rules, for generated games
	Perft       []Perft  `json:"perft,omitempty"`         // perft from the initial state, depth 1 up
	Complete    int64    `json:"completeGames,omitempty"` // number of distinct complete games (move sequences), when counted
	// Outcomes counts the complete games by goal vector, written as the
	// goals in role order separated by spaces ("100 0"), when counted.
	Outcomes map[string]int64 `json:"completeOutcomes,omitempty"`
	Facts    []string         `json:"facts,omitempty"`  // further verified facts, in prose
	Corpus   *Corpus          `json:"corpus,omitempty"` // the counterpart in the public GGP repository, if any
}

// Perft is one verified level of a game's perft (see game.Perft): the joint
// move sequences of exactly Depth moves from the initial state, the distinct
// states they reach and how many of them end in a terminal state.
type Perft struct {
	Depth     int   `json:"depth"`
	Sequences int64 `json:"sequences"`
	States    int64 `json:"states"`
	Terminals int64 `json:"terminals"`
}

// Corpus links a curated game to its counterpart in the public GGP repository
// (../shared/games/<Key>).
type Corpus struct {
	Key string `json:"key"`
	// Same reports that the two rulesheets define the same game: in every
	// reachable state the same roles, legal move lists (in sorted order),
	// terminal test and goals, so perft counts and seeded random playouts agree.
	Same bool `json:"same"`
	// Vocabulary reports that states and moves are also written alike, so the
	// shared ggp-base traces of Key replay on the curated rules.
	Vocabulary bool `json:"vocabulary"`
	// Differences says how and why the rules differ, or what is compared.
	Differences string `json:"differences,omitempty"`
}

// List returns the names of the curated games, sorted.
func List() []string {
	entries, err := fs.ReadDir(gamesFS, "games")
	if err != nil {
		return nil // cannot happen: the folder is embedded
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	sort.Strings(names)
	return names
}

// Game returns the curated game with the given name. Each call returns a
// fresh copy that the caller may change.
func Game(name string) (*Rulesheet, error) {
	dir := path.Join("games", name)
	if !fs.ValidPath(dir) || name == "" || path.Base(dir) != name {
		return nil, fmt.Errorf("datasets: %q is not a game name", name)
	}
	rules, err := gamesFS.ReadFile(path.Join(dir, name+".kif"))
	if err != nil {
		return nil, fmt.Errorf("datasets: no curated game %q (have %d, see datasets.List)", name, len(List()))
	}
	raw, err := gamesFS.ReadFile(path.Join(dir, "meta.json"))
	if err != nil {
		return nil, fmt.Errorf("datasets: game %q has no meta.json", name)
	}
	g := &Rulesheet{Name: name, Rules: string(rules), Source: "datasets/" + dir + "/" + name + ".kif"}
	if err := json.Unmarshal(raw, &g.Meta); err != nil {
		return nil, fmt.Errorf("datasets: %s/meta.json: %v", name, err)
	}
	return g, nil
}

// Description parses the game's rules. Positions in errors name g.Source,
// or <name>.kif when it is empty.
func (g *Rulesheet) Description() (*gdl.Description, error) {
	file := g.Source
	if file == "" {
		file = g.Name + ".kif"
	}
	return gdl.Parse(file, []byte(g.Rules))
}
