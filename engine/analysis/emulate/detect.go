package emulate

import (
	"context"
	"errors"
	"time"

	"gdlab/engine/gdl"
	"gdlab/engine/propnet"
)

// DetectOptions tune Detect. The zero value gives the defaults.
type DetectOptions struct {
	Emulation Options
	// Timeout bounds building, analysing and verifying one game; 0 means
	// 30 s. A game over it gets an Error row.
	Timeout time.Duration
	// Speed is how long to measure playouts with and without emulation
	// when a hypothesis is accepted; 0 means no measurement.
	Speed time.Duration
}

// DetectionRow is one game's line of the detection table.
type DetectionRow struct {
	Game       string
	Roles      int
	Bases      int
	Hypotheses int      // proposed
	Accepted   []string // names of the accepted hypotheses
	Goal       string   // the hypothesis emulating the goals, "" when none
	Scope      string   // "every state" or "terminal states" for Goal
	Virtual    bool     // virtual terminality justified
	Heuristic  string   // "kept", "rejected" or "" (no latched counted propositions)
	// Counterexample is the first counterexample of the first rejected
	// hypothesis the goal outputs read, when no hypothesis was accepted.
	Counterexample string
	Full, Emulated float64 // playouts per second, when measured
	Speedup        float64 // Emulated / Full, when measured
	Seconds        float64 // time to build, analyse and verify
	Error          string  `json:",omitempty"`
}

// Detect builds the network of d, runs Analyze on it and, when a
// hypothesis is accepted and opt.Speed > 0, builds the emulating machine
// and measures playouts with and without emulation. Errors, including the
// timeout, are reported in the row.
func Detect(ctx context.Context, game string, d *gdl.Description, opt DetectOptions) DetectionRow {
	row := DetectionRow{Game: game}
	timeout := opt.Timeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	tctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	start := time.Now()
	net, em, err := detect(tctx, d, opt.Emulation)
	row.Seconds = time.Since(start).Seconds()
	if err != nil {
		row.Error = err.Error()
		if errors.Is(err, context.DeadlineExceeded) {
			row.Error = "over " + timeout.String()
		}
		return row
	}
	row.fill(net, em)
	if em.Goal != nil && opt.Speed > 0 {
		row.measure(ctx, d, net, em, opt.Speed)
	}
	return row
}

func detect(ctx context.Context, d *gdl.Description, opt Options) (*propnet.Net, *Emulation, error) {
	net, err := propnet.Build(ctx, d, propnet.Options{})
	if err != nil {
		return nil, nil, err
	}
	em, err := Analyze(ctx, net, nil, opt)
	if err == nil && len(em.Verdicts) > 0 && !em.Verdicts[0].Accepted && ctx.Err() != nil {
		err = ctx.Err() // verification stopped early: inconclusive
	}
	return net, em, err
}

// fill summarises the emulation.
func (row *DetectionRow) fill(net *propnet.Net, em *Emulation) {
	row.Roles, row.Bases, row.Hypotheses = len(em.Roles), len(em.Facts), len(em.Verdicts)
	for _, v := range em.Accepted() {
		row.Accepted = append(row.Accepted, v.Hypothesis.Name())
	}
	if em.Goal != nil {
		row.Goal, row.Scope = em.Goal.Hypothesis.Name(), "every state"
		if em.Goal.TerminalOnly {
			row.Scope = "terminal states"
		}
	} else {
		for _, v := range em.Verdicts {
			if v.Hypothesis.InGoalSupport && v.First != nil {
				row.Counterexample = v.Hypothesis.Name() + ": " + v.First.String()
				break
			}
		}
	}
	row.Virtual = em.Virtual != nil
	if em.Own != nil {
		row.Heuristic = "rejected"
		if em.Own.Kept {
			row.Heuristic = "kept"
		}
	}
}

// measure builds the emulating machine and times playouts side by side.
func (row *DetectionRow) measure(ctx context.Context, d *gdl.Description, net *propnet.Net, em *Emulation, dur time.Duration) {
	m, err := NewMachine(ctx, d, em, propnet.Options{})
	if err != nil {
		row.Error = "emulating machine: " + err.Error()
		return
	}
	ps, err := MeasurePlayouts(ctx, net, m, dur, 1)
	if err != nil {
		row.Error = "measuring playouts: " + err.Error()
		return
	}
	row.Full, row.Emulated, row.Speedup = ps.Full, ps.Emulated, ps.Ratio
}
