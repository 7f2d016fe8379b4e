package corpus

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"gdlab/engine/analysis/distance"
	"gdlab/engine/propnet"
)

// enablementEntry is one game of the enablement table (the local-search
// notebook reads it from datasets/results/local-enablement.json).
type enablementEntry struct {
	Game        string
	Moves       int
	Average     float64 // -1 when no two moves interact
	FarFraction float64
	Coupled     bool
	Enabled     bool
	Why         string
	Error       string `json:",omitempty"`
}

// TestEnablementCorpusTable computes the move distances and the
// enablement rule for every game of ../shared/games (network and metric
// within 20 s each) and, with -update, writes
// datasets/results/local-enablement.json. It is slow, so it runs only
// with -update.
func TestEnablementCorpusTable(t *testing.T) {
	writeCorpusTable(t, "local-enablement.json", func(path, name string) any { return enablementOf(path, name) })
}

func enablementOf(path, name string) enablementEntry {
	e := enablementEntry{Game: name}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	net, err := propnet.Load(ctx, path, propnet.Options{})
	if err == nil {
		var d *distance.Metric
		if d, err = distance.Of(ctx, net); err == nil {
			e.Moves = len(d.Moves[0])
			for _, ms := range d.Moves[1:] {
				e.Moves += len(ms)
			}
			e.Average, e.FarFraction, e.Coupled = d.Average(), d.FarFraction(), d.Coupling().Coupled
			if math.IsNaN(e.Average) {
				e.Average = -1
			}
			e.Enabled, e.Why = distance.Enabled(d)
			return e
		}
	}
	e.Error = err.Error()
	if errors.Is(err, context.DeadlineExceeded) {
		e.Error = "over 20 s"
	}
	return e
}
