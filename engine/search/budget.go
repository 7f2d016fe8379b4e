package search

import (
	"context"
	"time"
)

// Budget bounds one call (Start or Play). A zero field sets no limit; the
// zero Budget is unlimited. Time and Deadline combine to the earlier end.
type Budget struct {
	Time      time.Duration // wall-clock time from the start of the call
	Deadline  time.Time     // an absolute end, such as a referee's play clock
	Nodes     int64         // node expansions: states whose moves are generated to reach successors
	NextCalls int64         // calls to the machine's Next, the move operator, wherever made
}

// end returns the moment the budget's time runs out, counted from now, or the
// zero time when it has no time limit.
func (b Budget) end(now time.Time) time.Time {
	end := b.Deadline
	if b.Time > 0 {
		if t := now.Add(b.Time); end.IsZero() || t.Before(end) {
			end = t
		}
	}
	return end
}

// Context returns ctx bounded by the budget's time limit, if any.
func (b Budget) Context(ctx context.Context) (context.Context, context.CancelFunc) {
	if end := b.end(time.Now()); !end.IsZero() {
		return context.WithDeadline(ctx, end)
	}
	return context.WithCancel(ctx)
}

// Usage is what a call spent.
type Usage struct {
	Time      time.Duration
	Nodes     int64 // node expansions
	NextCalls int64 // calls to Next
	Evals     int64 // calls to the evaluation function (not a budgeted resource)
}

// Add returns the sum of two usages.
func (u Usage) Add(o Usage) Usage {
	return Usage{Time: u.Time + o.Time, Nodes: u.Nodes + o.Nodes, NextCalls: u.NextCalls + o.NextCalls, Evals: u.Evals + o.Evals}
}

// Stop says which limit ended a search; the empty Stop means none did.
type Stop string

// The limits that can end a search.
const (
	StopNone      Stop = ""
	StopTime      Stop = "time"
	StopNodes     Stop = "nodes"
	StopNextCalls Stop = "next"
	StopCancelled Stop = "cancelled"
)

// Report describes how a player chose its move.
type Report struct {
	Used     Usage
	Depth    int     // deepest search depth completed, in joint moves; 0 when none
	Value    float64 // the chosen move's estimated value for the player, 0..100; -1 when none
	Complete bool    // the search saw every line to its end: Value is exact
	Stopped  Stop    // the limit that cut the search short, if any
}
