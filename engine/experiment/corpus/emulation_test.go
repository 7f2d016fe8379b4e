package corpus

import (
	"context"
	"testing"
	"time"

	"gdlab/engine/analysis/emulate"
	"gdlab/engine/gdl"
)

// TestEmulationCorpusTable runs goal-structure detection on every game of
// ../shared/games (each within 20 s, 1,000 verification matches, 0.5 s of
// playout timing when a hypothesis is accepted) and writes the table to
// datasets/results/emulation-corpus.json, which notebook 05 reads. It is
// slow (tens of minutes), so it runs only with -update.
func TestEmulationCorpusTable(t *testing.T) {
	opt := emulate.DetectOptions{Timeout: 20 * time.Second, Speed: 500 * time.Millisecond,
		Emulation: emulate.Options{Verify: emulate.VerifyOptions{Seed: 1}, Heuristic: emulate.VerifyOptions{Seed: 1}}}
	writeCorpusTable(t, "emulation-corpus.json", func(path, name string) any {
		d, err := gdl.ParseFile(path)
		if err != nil {
			return emulate.DetectionRow{Game: name, Error: err.Error()}
		}
		row := emulate.Detect(context.Background(), name, d, opt)
		t.Logf("%s: %s %v %s", row.Game, row.Goal, row.Accepted, row.Error)
		return row
	})
}
