package check_test

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"gdlab/engine/gdl"
	"gdlab/engine/gdl/check"
)

// invalidGames lists the public corpus games that genuinely break a GDL rule,
// with a substring of the error each must give. All fourteen define a goal
// by the negation of another goal, (<= (goal ?r 0) (not (goal ?r 100))), so
// goal/2 depends negatively on itself: the specification's dependency graph
// is over relation constants, and ggp-base's StaticValidator rejects these
// too ("negative edge from goal to goal in a cycle").
var invalidGames = map[string]string{
	"futoshiki4":            "negation in a cycle of the dependency graph: goal/2 -> not goal/2 -> goal/2",
	"futoshiki5":            "negation in a cycle of the dependency graph: goal/2 -> not goal/2 -> goal/2",
	"futoshiki6":            "negation in a cycle of the dependency graph: goal/2 -> not goal/2 -> goal/2",
	"hexPie":                "negation in a cycle of the dependency graph: goal/2 -> not goal/2 -> goal/2",
	"hidato19":              "negation in a cycle of the dependency graph: goal/2 -> not goal/2 -> goal/2",
	"hidato37":              "negation in a cycle of the dependency graph: goal/2 -> not goal/2 -> goal/2",
	"majorities":            "negation in a cycle of the dependency graph: goal/2 -> not goal/2 -> goal/2",
	"nineBoardTicTacToePie": "negation in a cycle of the dependency graph: goal/2 -> not goal/2 -> goal/2",
	"queens06ug":            "negation in a cycle of the dependency graph: goal/2 -> not goal/2 -> goal/2",
	"queens08lg":            "negation in a cycle of the dependency graph: goal/2 -> not goal/2 -> goal/2",
	"queens08ug":            "negation in a cycle of the dependency graph: goal/2 -> not goal/2 -> goal/2",
	"queens12ug":            "negation in a cycle of the dependency graph: goal/2 -> not goal/2 -> goal/2",
	"queens16ug":            "negation in a cycle of the dependency graph: goal/2 -> not goal/2 -> goal/2",
	"queens31lg":            "negation in a cycle of the dependency graph: goal/2 -> not goal/2 -> goal/2",
}

// corpusGames returns the rulesheets of the shared corpus by game key, or
// skips the test when the corpus is absent.
func corpusGames(t testing.TB) map[string]string {
	dir := os.Getenv("GDLAB_SHARED")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "..", "shared")
	}
	if _, err := os.Stat(filepath.Join(dir, "games")); err != nil {
		t.Skipf("shared corpus not found at %s (set GDLAB_SHARED): skipping", dir)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "games", "*", "*.kif"))
	games := map[string]string{}
	for _, f := range files {
		games[filepath.Base(filepath.Dir(f))] = f
	}
	return games
}

// TestCorpus checks every rulesheet of the public repository: all must be
// valid except exactly the listed games, each with its listed error.
func TestCorpus(t *testing.T) {
	games := corpusGames(t)
	if len(games) == 0 {
		t.Fatal("no rulesheets found")
	}
	keys := make([]string, 0, len(games))
	for k := range games {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	valid, invalid := 0, 0
	for _, key := range keys {
		d, err := gdl.ParseFile(games[key])
		if err != nil {
			t.Errorf("%s: %v", key, err)
			continue
		}
		errs := check.Check(d)
		want, listed := invalidGames[key]
		switch {
		case len(errs) == 0 && !listed:
			valid++
		case len(errs) == 0:
			t.Errorf("%s: valid, but listed as failing with %q", key, want)
		case !listed:
			t.Errorf("%s: unexpected errors:\n%s", key, errs.Detail())
		case !strings.Contains(errs.Detail(), want):
			t.Errorf("%s: want an error containing %q, got:\n%s", key, want, errs.Detail())
		default:
			invalid++
		}
	}
	for key := range invalidGames {
		if _, ok := games[key]; !ok {
			t.Errorf("%s: listed as failing but not in the corpus", key)
		}
	}
	t.Logf("%d games valid, %d invalid (listed)", valid, invalid)
}

// TestCorpusGraph checks the graph's documented order on every rulesheet: a
// component comes after each component it depends on, and a stratum is no
// lower than those it depends on (higher across a negative edge).
func TestCorpusGraph(t *testing.T) {
	for key, file := range corpusGames(t) {
		d, err := gdl.ParseFile(file)
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		checkGraphOrder(t, key, check.NewGraph(d))
	}
}

func checkGraphOrder(t *testing.T, name string, g *check.Graph) {
	t.Helper()
	stratum := map[string]int{}
	for i, s := range g.Strata() {
		for _, k := range s {
			stratum[k] = i
		}
	}
	if len(stratum) != len(g.Relations) {
		t.Errorf("%s: strata hold %d relations, graph has %d", name, len(stratum), len(g.Relations))
	}
	for _, e := range g.Edges {
		from, to := g.Component(e.From), g.Component(e.To)
		if from < to {
			t.Errorf("%s: %s (component %d) depends on %s (component %d) that comes later", name, e.From, from, e.To, to)
		}
		if from == to {
			continue
		}
		if stratum[e.From] < stratum[e.To] || e.Negative && stratum[e.From] == stratum[e.To] {
			t.Errorf("%s: edge %v breaks the strata (%d, %d)", name, e, stratum[e.From], stratum[e.To])
		}
	}
}
