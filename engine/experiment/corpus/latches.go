package corpus

import (
	"context"

	"gdlab/engine/analysis/latch"
	"gdlab/engine/propnet"
)

// LatchEntry is one game's row of the latch table
// (datasets/results/latches-corpus.json, notebook 04): the latch analysis's
// summary of the game's network, or why there is none.
type LatchEntry struct {
	Game                                                      string
	Bases, Positive, Negative, Structural, GoalLatches, Roles int
	Error                                                     string `json:",omitempty"` // "over 20 s" when over Timeout
}

// LatchRow analyses the corpus game in folder dir (shared/games/<key>):
// its network with the default bounds, then latch.Analyze with the default
// options, all within Timeout.
func LatchRow(ctx context.Context, dir string) LatchEntry {
	e := LatchEntry{Game: key(dir)}
	e.Error = onNetwork(ctx, dir, func(ctx context.Context, net *propnet.Net) error {
		a, err := latch.Analyze(ctx, net, latch.Options{})
		if err == nil {
			s := a.Summary(len(net.BaseProps()))
			e.Bases, e.Positive, e.Negative, e.Structural, e.GoalLatches, e.Roles = s.Bases, s.Positive, s.Negative, s.Structural, s.GoalLatches, s.Roles
		}
		return err
	})
	return e
}

// ReadLatches reads the committed latch table from datasets/results of the
// repository at ledger.Root(). A missing table is an error wrapping
// fs.ErrNotExist.
func ReadLatches() ([]LatchEntry, error) {
	var rows []LatchEntry
	return rows, readTable(LatchesFile, &rows)
}
