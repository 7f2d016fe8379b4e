package corpus

import (
	"context"
	"math"

	"gdlab/engine/analysis/distance"
	"gdlab/engine/gdl"
	"gdlab/engine/propnet"
)

// EnablementEntry is one game's row of the local-search enablement table
// (datasets/results/local-enablement.json, notebook 06): the size and
// spread of the game's move distances and what distance.Enabled decides.
type EnablementEntry struct {
	Game        string
	Moves       int     // all roles' moves
	Average     float64 // average distance between interacting moves; -1 when no two moves interact
	FarFraction float64 // the fraction of move pairs that never interact
	Coupled     bool
	Enabled     bool
	Why         string
	Error       string `json:",omitempty"` // "over 20 s" when over Timeout
}

// EnablementRow computes the move distances of the corpus game in folder
// dir (its network with the default bounds, then distance.Of, all within
// Timeout) and the enablement rule on them.
func EnablementRow(ctx context.Context, dir string) EnablementEntry {
	d, err := Rules(dir)
	if err != nil {
		return EnablementEntry{Game: key(dir), Error: err.Error()}
	}
	return EnablementOf(ctx, key(dir), d)
}

// EnablementOf is EnablementRow for any game's rules, such as a curated
// game's: the network, the move distances and the enablement rule, all
// within Timeout.
func EnablementOf(ctx context.Context, name string, d *gdl.Description) EnablementEntry {
	e := EnablementEntry{Game: name}
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	net, err := propnet.Build(ctx, d, propnet.Options{})
	if err == nil {
		var m *distance.Metric
		if m, err = distance.Of(ctx, net); err == nil {
			for _, ms := range m.Moves {
				e.Moves += len(ms)
			}
			e.Average, e.FarFraction, e.Coupled = m.Average(), m.FarFraction(), m.Coupling().Coupled
			if math.IsNaN(e.Average) {
				e.Average = -1
			}
			e.Enabled, e.Why = distance.Enabled(m)
			return e
		}
	}
	e.Error = err.Error()
	if timedOut(err) {
		e.Error = "over 20 s"
	}
	return e
}

// ReadEnablement reads the committed enablement table from
// datasets/results of the repository at ledger.Root(). A missing table is
// an error wrapping fs.ErrNotExist.
func ReadEnablement() ([]EnablementEntry, error) {
	var rows []EnablementEntry
	return rows, readTable(EnablementFile, &rows)
}
