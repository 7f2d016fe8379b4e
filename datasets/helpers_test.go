package datasets

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gdlab/engine/game"
	"gdlab/engine/gdl"
	"gdlab/engine/prover"
)

var (
	fullFlag    = flag.Bool("full", false, "run the full checks: 1,000 seeded playouts per game and per corpus comparison (also GDLAB_FULL=1)")
	updateTable = flag.Bool("update-table", false, "regenerate the game table in README.md from 1,000 playouts per game (implies -full)")
)

// effort is how much work the slow checks do.
type effort int

const (
	quick  effort = iota // go test -short, or GDLAB_QUICK=1: a smoke run
	normal               // the default: keeps go test ./datasets/... near a minute
	full                 // -full or GDLAB_FULL=1: the 1,000-playout figures
)

func (e effort) String() string { return [...]string{"quick", "normal", "full"}[e] }

// testEffort reads the effort from the flags and the environment.
func testEffort() effort {
	switch {
	case *fullFlag || *updateTable || os.Getenv("GDLAB_FULL") == "1":
		return full
	case testing.Short() || os.Getenv("GDLAB_QUICK") == "1":
		return quick
	}
	return normal
}

// heavy lists the games whose random playouts cost the reference prover
// tens of milliseconds or more; the default effort plays fewer of them.
var heavy = map[string]bool{
	"breakthrough":            true,
	"reversi":                 true,
	"reversiSmall":            true,
	"escortLatchBreakthrough": true,
	"hex7":                    true,
	"hexPie7":                 true,
	"kalaha":                  true,
	"dotsAndBoxes":            true,
	"dualConnectFour":         true,
	"threePlayerConnectFour":  true,
	"nineBoardTicTacToe":      true,
	"nineBoardTicTacToePie":   true,
}

// playouts returns how many seeded random playouts to run for a game.
func playouts(name string) int {
	switch e := testEffort(); {
	case e == full:
		return 1000
	case e == quick && heavy[name]:
		return 3
	case e == quick:
		return 20
	case heavy[name]:
		return 20
	}
	return 100
}

// sharedDir returns the shared corpus directory ($GDLAB_SHARED, or ../../shared
// from this package), or skips the test when it is absent.
func sharedDir(t testing.TB) string {
	dir := os.Getenv("GDLAB_SHARED")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared")
	}
	if _, err := os.Stat(filepath.Join(dir, "games")); err != nil {
		t.Skipf("shared corpus not found at %s (set GDLAB_SHARED): skipping", dir)
	}
	return dir
}

// loadGame returns a curated game or fails the test.
func loadGame(t testing.TB, name string) *Rulesheet {
	t.Helper()
	g, err := Game(name)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// newProver parses a game and prepares the reference prover for it.
func newProver(t testing.TB, g *Rulesheet) *prover.Prover {
	t.Helper()
	d, err := g.Description()
	if err != nil {
		t.Fatalf("%s: %v", g.Name, err)
	}
	pr, err := prover.New(d)
	if err != nil {
		t.Fatalf("%s: %v", g.Name, err)
	}
	return pr
}

// newMachine builds the reference prover for a parsed game.
func newMachine(d *gdl.Description) (game.Machine, error) { return prover.New(d) }

// goalsText renders a goal vector as the keys of Meta.Outcomes: "100 0".
func goalsText(goals []int) string {
	parts := make([]string, len(goals))
	for i, g := range goals {
		parts[i] = fmt.Sprint(g)
	}
	return strings.Join(parts, " ")
}

// maxPlayoutSteps bounds a playout in the tests: far beyond any curated
// game's length, so reaching it means the game does not terminate.
const maxPlayoutSteps = 5000

// seedOf is the seed of the i-th playout of every seeded comparison and
// table: seeds 1, 2, 3, ...
func seedOf(i int) uint64 { return uint64(i + 1) }

// sortedKeys returns a map's keys in order, for stable reports.
func sortedKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// outcomeSummary renders outcome counts compactly: "[100 0]:514 [0 100]:486".
func outcomeSummary(m map[string]int) string {
	var b strings.Builder
	for i, k := range sortedKeys(m) {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "[%s]:%d", k, m[k])
	}
	return b.String()
}

var _ game.Machine = (*prover.Prover)(nil)
