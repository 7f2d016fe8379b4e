package corpus

import (
	"context"
	"time"

	"gdlab/engine/analysis/emulate"
)

// EmulationOptions are the detection options of the emulation table: each
// game within Timeout, 1,000 verification matches and 1,000 matches of the
// heuristic's test from seed 1, and 0.5 s of playout timing when a
// hypothesis is accepted.
func EmulationOptions() emulate.DetectOptions {
	return emulate.DetectOptions{Timeout: Timeout, Speed: 500 * time.Millisecond,
		Emulation: emulate.Options{Verify: emulate.VerifyOptions{Seed: 1}, Heuristic: emulate.VerifyOptions{Seed: 1}}}
}

// EmulationRow runs goal-structure detection (emulate.Detect with
// EmulationOptions) on the corpus game in folder dir: one row of the
// emulation table (datasets/results/emulation-corpus.json, notebook 05).
// The row's Full, Emulated, Speedup and Seconds are timings, which differ
// from run to run.
func EmulationRow(ctx context.Context, dir string) emulate.DetectionRow {
	d, err := Rules(dir)
	if err != nil {
		return emulate.DetectionRow{Game: key(dir), Error: err.Error()}
	}
	return emulate.Detect(ctx, key(dir), d, EmulationOptions())
}

// ReadEmulation reads the committed emulation table from datasets/results
// of the repository at ledger.Root(). A missing table is an error wrapping
// fs.ErrNotExist.
func ReadEmulation() ([]emulate.DetectionRow, error) {
	var rows []emulate.DetectionRow
	return rows, readTable(EmulationFile, &rows)
}
