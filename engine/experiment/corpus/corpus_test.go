package corpus

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"gdlab/engine/analysis/latch"
	"gdlab/engine/propnet"
)

var update = flag.Bool("update", false, "write datasets/results/latches-corpus.json")

// corpusEntry is one game of the corpus latch table (the goal-latches
// notebook reads it).
type corpusEntry struct {
	Game                                                      string
	Bases, Positive, Negative, Structural, GoalLatches, Roles int
	Error                                                     string `json:",omitempty"`
}

// sharedDir returns the shared corpus, or "" when it is absent.
func sharedDir() string {
	for _, d := range []string{os.Getenv("GDLAB_SHARED"), filepath.Join("..", "..", "..", "..", "shared")} {
		if d == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(d, "games")); err == nil {
			return d
		}
	}
	return ""
}

// TestCorpusTable analyses every game of ../shared/games (each network
// built and analysed within 20 s, the default network bounds) and, with
// -update, writes the table to datasets/results/latches-corpus.json. It is
// slow (minutes), so it runs only with -update.
func TestCorpusTable(t *testing.T) {
	writeCorpusTable(t, "latches-corpus.json", func(path, name string) any { return analyseCorpusGame(path, name) })
}

// writeCorpusTable makes one row per game of ../shared/games and writes the
// rows to datasets/results/file. Corpus tables are slow (minutes), so it
// skips unless -update is given, and when the corpus is absent.
func writeCorpusTable(t *testing.T, file string, row func(path, name string) any) {
	t.Helper()
	if !*update {
		t.Skip("run with -update to write datasets/results/" + file + " from the shared corpus")
	}
	dir := sharedDir()
	if dir == "" {
		t.Skip("shared corpus not found (set GDLAB_SHARED): skipping")
	}
	games, err := os.ReadDir(filepath.Join(dir, "games"))
	if err != nil {
		t.Fatal(err)
	}
	var out []any
	for _, g := range games {
		if g.IsDir() {
			out = append(out, row(filepath.Join(dir, "games", g.Name(), g.Name()+".kif"), g.Name()))
		}
	}
	raw, err := json.MarshalIndent(out, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("..", "..", "..", "datasets", "results", file), append(raw, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

func analyseCorpusGame(path, name string) corpusEntry {
	e := corpusEntry{Game: name}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	net, err := propnet.Load(ctx, path, propnet.Options{})
	if err == nil {
		var a *latch.Analysis
		if a, err = latch.Analyze(ctx, net, latch.Options{}); err == nil {
			s := a.Summary(len(net.BaseProps()))
			e.Bases, e.Positive, e.Negative, e.Structural, e.GoalLatches, e.Roles = s.Bases, s.Positive, s.Negative, s.Structural, s.GoalLatches, s.Roles
			return e
		}
	}
	e.Error = err.Error()
	if errors.Is(err, context.DeadlineExceeded) {
		e.Error = "over 20 s"
	}
	return e
}
