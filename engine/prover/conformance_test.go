package prover_test

import (
	"context"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"gdlab/engine/game"
	"gdlab/engine/prover"
)

// sharedDir returns the shared corpus directory, or skips the test.
func sharedDir(t testing.TB) string {
	dir := os.Getenv("GDLAB_SHARED")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared")
	}
	if _, err := os.Stat(filepath.Join(dir, "traces")); err != nil {
		t.Skipf("shared corpus not found at %s (set GDLAB_SHARED): skipping", dir)
	}
	return dir
}

// TestTraceConformance replays every trace recorded by ggp-base's prover
// through ours and compares state, legal moves, terminal and goals at every
// step. It also regenerates each trace from its seed and requires the bytes
// to match, which checks the trace writer and move numbering too.
func TestTraceConformance(t *testing.T) {
	dir := sharedDir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "traces", "*.jsonl"))
	sort.Strings(files)
	agree, disagree := 0, 0
	for _, f := range files {
		key := strings.TrimSuffix(filepath.Base(f), ".jsonl")
		start := time.Now()
		ok := checkGame(t, dir, key, f)
		if ok {
			agree++
		} else {
			disagree++
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Logf("%s: %v", key, d.Round(time.Millisecond))
		}
	}
	t.Logf("%d games agree, %d disagree", agree, disagree)
}

func checkGame(t *testing.T, dir, key, traceFile string) bool {
	rules := filepath.Join(dir, "games", key, key+".kif")
	pr, err := prover.Load(rules)
	if err != nil {
		t.Errorf("%s: %v", key, err)
		return false
	}
	fh, err := os.Open(traceFile)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	trs, err := game.ReadTraces(fh)
	if err != nil {
		t.Errorf("%s: %v", key, err)
		return false
	}
	ok := true
	for _, tr := range trs {
		d, err := game.Replay(context.Background(), pr, tr)
		if err != nil || d != nil {
			t.Errorf("%s seed %d: %v%v", key, tr.Seed, errText(err), errText(d))
			ok = false
		}
	}
	return ok
}

func errText(e error) string {
	if e == nil || e == (*game.Disagreement)(nil) {
		return ""
	}
	return e.Error()
}
