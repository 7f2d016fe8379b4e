package prover_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"

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

// beyondProver lists the corpus games that exceed the prover's fact bound,
// with the relation named: the prover must fail on them with a LimitError
// naming it, promptly, rather than hang or disagree. None does:
// laikLee_hex (isList/1) and mummymaze1p (direction-from/5), whose static
// relations are too large to materialise and are asked with some arguments
// free, are answered by tabled questions (modes.go, tabling.go).
var beyondProver = map[string]string{}

// slowGames are the corpus games the prover replays slowest, with the steps
// of each trace replayed under GDLAB_QUICK or -short (CI). Their rules are
// written for top-down provers: merrills counts pieces with an accumulator
// (count_loop/6, 120,000 facts a state bottom-up, about 3 s a state), chess
// and slaughter compute every move with a square to ignore (queen_move_ig/6
// and the like, about a million facts, 0.3 s a state). The full replays take
// 260, 80 and 80 s on one core; the default run still does them.
var slowGames = map[string]int{"merrills": 5, "chess": 20, "slaughter": 20}

// quick reports whether the short CI run was asked for.
func quick() bool { return testing.Short() || os.Getenv("GDLAB_QUICK") != "" }

// TestTraceConformance replays every trace recorded by ggp-base's prover
// through ours and compares state, legal moves, terminal and goals at every
// step (game.Replay, the same code as `gdlab replay`). Under GDLAB_QUICK the
// slowGames are replayed through their first steps only.
func TestTraceConformance(t *testing.T) {
	dir := sharedDir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "traces", "*.jsonl"))
	sort.Strings(files)
	var agree, disagree, beyond atomic.Int32
	t.Run("games", func(t *testing.T) {
		for _, f := range files {
			key := strings.TrimSuffix(filepath.Base(f), ".jsonl")
			t.Run(key, func(t *testing.T) {
				t.Parallel()
				switch checkGame(t, dir, key, f) {
				case resultAgree:
					agree.Add(1)
				case resultBeyond:
					beyond.Add(1)
				default:
					disagree.Add(1)
				}
			})
		}
	})
	t.Logf("%d games agree, %d disagree, %d beyond the prover's fact bound (expected: %d)",
		agree.Load(), disagree.Load(), beyond.Load(), len(beyondProver))
	if quick() {
		t.Logf("quick run: %d slow games replayed through their first steps only", len(slowGames))
	}
}

type result int

const (
	resultAgree result = iota
	resultDisagree
	resultBeyond
)

func checkGame(t *testing.T, dir, key, traceFile string) result {
	rules, _ := filepath.Glob(filepath.Join(dir, "games", key, "*.kif"))
	if len(rules) != 1 {
		t.Errorf("%s: want one rulesheet, found %v", key, rules)
		return resultDisagree
	}
	pr, err := prover.Load(rules[0])
	if rel, ok := beyondProver[key]; ok {
		var le *prover.LimitError
		if !errors.As(err, &le) || le.Relation != rel {
			t.Errorf("%s: want a LimitError at %s, got %v", key, rel, err)
			return resultDisagree
		}
		return resultBeyond
	}
	if err != nil {
		t.Errorf("%s: %v", key, err)
		return resultDisagree
	}
	fh, err := os.Open(traceFile)
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	trs, err := game.ReadTraces(fh)
	if err != nil {
		t.Errorf("%s: %v", key, err)
		return resultDisagree
	}
	res := resultAgree
	for _, tr := range trs {
		if n, ok := slowGames[key]; ok && quick() && len(tr.Steps) > n {
			tr.Steps = tr.Steps[:n]
			tr.Steps[n-1].Joint = nil
		}
		d, err := game.Replay(context.Background(), pr, tr)
		if err != nil {
			t.Errorf("%s seed %d: %v", key, tr.Seed, err)
			res = resultDisagree
		} else if d != nil {
			t.Errorf("%s seed %d: %v", key, tr.Seed, d)
			res = resultDisagree
		}
	}
	return res
}

// TestRegeneratesTraces records matches from the traces' seeds and requires
// the very bytes ggp-base wrote: the move choice (java.util.Random over the
// sorted legal lists), the canonical text and the JSON writer all agree.
func TestRegeneratesTraces(t *testing.T) {
	dir := sharedDir(t)
	for _, key := range []string{"ticTacToe", "connectFour", "breakthrough", "pentago", "3pConnectFour", "blocker"} {
		data, err := os.ReadFile(filepath.Join(dir, "traces", key+".jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		pr, err := prover.Load(filepath.Join(dir, "games", key, key+".kif"))
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			tr, err := game.Record(context.Background(), pr, key, int64(i+1), game.RecordOptions{})
			if err != nil {
				t.Fatal(err)
			}
			got, _ := tr.MarshalJSON()
			if string(got) != line {
				t.Errorf("%s seed %d: regenerated trace differs from the shared one", key, i+1)
			}
		}
	}
}
