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

// kifPath returns the rulesheet of corpus game key.
func kifPath(dir, key string) string {
	files, _ := filepath.Glob(filepath.Join(dir, "games", key, "*.kif"))
	if len(files) == 1 {
		return files[0]
	}
	return filepath.Join(dir, "games", key, key+".kif")
}

func groundGame(dir, key string, opt ground.Options) (*ground.Program, time.Duration, error) {
	d, err := gdl.ParseFile(kifPath(dir, key))
	if err != nil {
		return nil, 0, err
	}
	start := time.Now()
	p, err := ground.Ground(context.Background(), d, opt)
	return p, time.Since(start), err
}

// TestLargeGames grounds the large games of the benchmarks quickly, and
// fails within seconds, with a LimitError, on games beyond the bounds.
func TestLargeGames(t *testing.T) {
	dir := sharedDir(t)
	for _, key := range []string{"breakthrough", "reversi", "speedChess", "hex", "chess_200"} {
		p, d, err := groundGame(dir, key, ground.Options{})
		if err != nil {
			t.Errorf("%s: %v", key, err)
			continue
		}
		t.Logf("%-12s %7d atoms %8d rules in %v", key, p.Stats.Atoms, p.Stats.Rules, d.Round(time.Millisecond))
		if d > 2*time.Second {
			t.Errorf("%s: grounding took %v", key, d)
		}
	}
	// Reaching the default bound takes these games 4-10 s on an idle
	// machine; CI (GDLAB_QUICK) checks the same failure at a tenth of it.
	var opt ground.Options
	if testing.Short() || os.Getenv("GDLAB_QUICK") != "" {
		opt.MaxSize = ground.DefaultMaxSize / 10
	}
	for _, key := range []string{"chess", "sudoku", "laikLee_hex"} {
		_, d, err := groundGame(dir, key, opt)
		var le *ground.LimitError
		if !errors.As(err, &le) {
			t.Errorf("%s: got %v, want a LimitError", key, err)
		}
		t.Logf("%-12s %v in %v", key, err, d.Round(time.Millisecond))
		if d > 20*time.Second {
			t.Errorf("%s: took %v to reach the bound", key, d)
		}
	}
}

// TestCorpus grounds every game of the corpus (set GDLAB_CORPUS=1; the
// propnet's trace test covers the corpus in the default run).
func TestCorpus(t *testing.T) {
	if os.Getenv("GDLAB_CORPUS") == "" {
		t.Skip("set GDLAB_CORPUS=1 to ground the whole corpus")
	}
	dir := sharedDir(t)
	keys, _ := filepath.Glob(filepath.Join(dir, "games", "*"))
	sort.Strings(keys)
	ok, limited := 0, 0
	for _, k := range keys {
		key := filepath.Base(k)
		if fi, err := os.Stat(k); err != nil || !fi.IsDir() {
			continue
		}
		p, d, err := groundGame(dir, key, ground.Options{})
		var le *ground.LimitError
		switch {
		case errors.As(err, &le):
			limited++
			t.Logf("%s: %v (%v)", key, err, d.Round(time.Millisecond))
		case err != nil:
			t.Logf("%s: %v", key, err)
		default:
			ok++
			t.Logf("%-32s atoms %8d rules %8d static %7d work %10d %v", key, p.Stats.Atoms, p.Stats.Rules, p.Stats.StaticFacts, p.Stats.Work, d.Round(time.Millisecond))
		}
	}
	t.Logf("%d games grounded, %d over a bound", ok, limited)
}
