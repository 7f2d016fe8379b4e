package analysis

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"gdlab/engine/gdl"
)

// TestEmulationCorpusTable runs goal-structure detection on every game of
// ../shared/games (each within 20 s, 1,000 verification matches, 0.5 s of
// playout timing when a hypothesis is accepted) and writes the table to
// datasets/results/emulation-corpus.json, which notebook 05 reads. It is
// slow (tens of minutes), so it runs only with -update.
func TestEmulationCorpusTable(t *testing.T) {
	if !*update {
		t.Skip("run with -update to run goal emulation on the shared corpus and write datasets/results/emulation-corpus.json")
	}
	dir := sharedDir()
	if dir == "" {
		t.Skip("shared corpus not found (set GDLAB_SHARED): skipping")
	}
	games, err := os.ReadDir(filepath.Join(dir, "games"))
	if err != nil {
		t.Fatal(err)
	}
	opt := DetectOptions{Timeout: 20 * time.Second, Speed: 500 * time.Millisecond,
		Emulation: EmulationOptions{Verify: VerifyOptions{Seed: 1}, Heuristic: VerifyOptions{Seed: 1}}}
	var out []DetectionRow
	for _, g := range games {
		if !g.IsDir() {
			continue
		}
		d, err := gdl.ParseFile(filepath.Join(dir, "games", g.Name(), g.Name()+".kif"))
		if err != nil {
			out = append(out, DetectionRow{Game: g.Name(), Error: err.Error()})
			continue
		}
		row := Detect(context.Background(), g.Name(), d, opt)
		t.Logf("%s: %s %v %s", row.Game, row.Goal, row.Accepted, row.Error)
		out = append(out, row)
	}
	raw, err := json.MarshalIndent(out, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("..", "..", "datasets", "results", "emulation-corpus.json"), append(raw, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}
