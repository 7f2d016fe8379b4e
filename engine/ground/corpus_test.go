package ground_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"gdlab/engine/gdl"
	"gdlab/engine/ground"
)

// sharedDir returns the shared corpus directory, or skips the test.
func sharedDir(t testing.TB) string {
	dir := os.Getenv("GDLAB_SHARED")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared")
	}
	if _, err := os.Stat(filepath.Join(dir, "games")); err != nil {
		t.Skipf("shared corpus not found at %s (set GDLAB_SHARED): skipping", dir)
	}
	return dir
}

// TestCorpusGrounds grounds every game of the corpus within the default
// bounds, or fails with a LimitError, and never takes long to decide.
func TestCorpusGrounds(t *testing.T) {
	dir := sharedDir(t)
	keys, _ := filepath.Glob(filepath.Join(dir, "games", "*", "*.kif"))
	sort.Strings(keys)
	ok, limited := 0, 0
	for _, f := range keys {
		d, err := gdl.ParseFile(f)
		if err != nil {
			continue
		}
		start := time.Now()
		p, err := ground.Ground(context.Background(), d, ground.Options{})
		el := time.Since(start)
		var le *ground.LimitError
		switch {
		case errors.As(err, &le):
			limited++
			t.Logf("%s: %v (%v)", filepath.Base(f), err, el.Round(time.Millisecond))
		case err != nil:
			t.Logf("%s: %v", filepath.Base(f), err)
		default:
			ok++
			if testing.Verbose() {
				t.Logf("%-40s atoms %7d rules %8d lits %9d static %7d work %10d %v", filepath.Base(f), p.Stats.Atoms, p.Stats.Rules, p.Stats.Literals, p.Stats.StaticFacts, p.Stats.Work, el.Round(time.Millisecond))
			}
		}
		if el > 20*time.Second {
			t.Errorf("%s: grounding took %v", filepath.Base(f), el)
		}
	}
	t.Logf("%d games grounded, %d over a bound, %d files", ok, limited, len(keys))
}
