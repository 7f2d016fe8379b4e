package mcts

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gdlab/engine/game"
	"gdlab/engine/propnet/propnettest"
	"gdlab/engine/search"
)

// goldenSearches searches a few seeded random positions of each
// configuration's game (the tree kept from turn to turn) and prints every
// role's root statistics after each search: visits and means to the last
// bit (%x). Any change to selection or backup that
// moves a single visit or a single bit of a sum changes this text.
func goldenSearches(t *testing.T) string {
	type config struct {
		game string
		opt  Options
	}
	configs := []config{
		{"connectFour", Options{Iterations: 700}},
		{"connectFour", Options{Iterations: 700, PowerMean: 2}},
		{"connectFour", Options{Iterations: 700, Threads: 2}},
		{"blocker", Options{Iterations: 500}},
		{"threePlayerConnectFour", Options{Iterations: 500, PowerMean: 1.5}},
		{"breakthroughSmall", Options{Iterations: 500}},
	}
	var b strings.Builder
	for _, c := range configs {
		net := propnettest.Curated(t, c.game)
		pl := started(t, net, 0, c.opt, 11)
		rng := rand.New(rand.NewPCG(5, 6))
		s := net.Initial()
		fmt.Fprintf(&b, "%s iterations %d threads %d p %g\n", c.game, c.opt.Iterations, c.opt.Threads, c.opt.PowerMean)
		for turn := 0; turn < 5; turn++ {
			if over, _ := net.Terminal(s); over {
				break
			}
			if _, err := pl.Search(context.Background(), s, search.Budget{}); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "  turn %d\n", turn)
			for r := range net.Roles() {
				for _, ms := range pl.Root(r) {
					fmt.Fprintf(&b, "    role %d %s n=%d mean=%x solved=%v\n", r, ms.Text, ms.Visits, ms.Mean, ms.Solved)
				}
			}
			s = advance(t, net, s, 0, game.NoMove, rng)
		}
	}
	return b.String()
}

// TestExploreOffUnchanged: with the exploration option at its zero value,
// seeded searches (plain UCT, Power-UCT's backup, two threads, turn-taking,
// simultaneous and three-player games) give exactly the root statistics
// recorded in testdata/explore-off.golden (rewritten with -update-golden
// only when a change to the default search is meant).
func TestExploreOffUnchanged(t *testing.T) {
	got := goldenSearches(t)
	path := filepath.Join("testdata", "explore-off.golden")
	if *updateGolden {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("line %d differs from the golden file:\n got  %s\n want %s", i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%d lines, the golden file %d", len(gl), len(wl))
	}
}
