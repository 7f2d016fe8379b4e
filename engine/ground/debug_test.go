package ground_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"gdlab/engine/gdl"
	"gdlab/engine/ground"
)

// TestDebugSizes prints rule counts per head relation for $GROUND_GAME.
func TestDebugSizes(t *testing.T) {
	key := os.Getenv("GROUND_GAME")
	if key == "" {
		t.Skip("set GROUND_GAME")
	}
	d, err := gdl.ParseFile(filepath.Join(sharedDir(t), "games", key, key+".kif"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := ground.Ground(context.Background(), d, ground.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rules, lits, atoms := map[string]int{}, map[string]int{}, map[string]int{}
	for _, r := range p.Rules {
		rel := p.Atoms[r.Head].Rel
		rules[rel]++
		lits[rel] += len(r.Pos) + len(r.Neg)
	}
	for _, a := range p.Atoms {
		atoms[a.Rel]++
	}
	var names []string
	for n := range atoms {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		t.Logf("%-30s atoms %7d rules %8d lits %9d", n, atoms[n], rules[n], lits[n])
	}
	t.Logf("%+v", p.Stats)
	if os.Getenv("GROUND_PRINT") != "" {
		t.Log("\n" + p.String())
	}
}
