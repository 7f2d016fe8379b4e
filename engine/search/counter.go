package search

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"sync/atomic"
	"time"

	"gdlab/engine/game"
)

// ErrBudget is the error, wrapped with the limit's name, that a Counter's
// methods return once a budget is spent. Use errors.Is to test for it.
var ErrBudget = errors.New("search: budget exhausted")

// Counter is a game.Machine that forwards to another machine while metering
// one search against a Budget. It counts calls to Next exactly, counts node
// expansions announced by Expand, and checks the deadline and the context on
// every Next, Legal and Expand. A call that would exceed a limit is not made:
// it fails with ErrBudget, and so does every later metered call, so a search
// unwinds at once. The counts never exceed the budget's limits. Counter is
// safe for concurrent use.
type Counter struct {
	m        game.Machine
	done     <-chan struct{}
	ctx      context.Context
	start    time.Time
	deadline time.Time
	maxNodes int64
	maxNext  int64
	nodes    atomic.Int64
	next     atomic.Int64
	pending  atomic.Int64 // Next calls reserved by playouts and not yet settled
	evals    atomic.Int64
	stopped  atomic.Pointer[stopErr]
}

type stopErr struct {
	why Stop
	err error
}

// NewCounter meters m against b, starting the clock now.
func NewCounter(ctx context.Context, m game.Machine, b Budget) *Counter {
	now := time.Now()
	return &Counter{m: m, ctx: ctx, done: ctx.Done(), start: now, deadline: b.end(now),
		maxNodes: b.Nodes, maxNext: b.NextCalls}
}

// Unwrap returns the metered machine.
func (c *Counter) Unwrap() game.Machine { return c.m }

// Used returns what has been spent so far.
func (c *Counter) Used() Usage {
	return Usage{Time: time.Since(c.start), Nodes: c.nodes.Load(), NextCalls: c.next.Load(), Evals: c.evals.Load()}
}

// Stopped returns the limit that ended the search, or StopNone.
func (c *Counter) Stopped() Stop {
	if s := c.stopped.Load(); s != nil {
		return s.why
	}
	return StopNone
}

// Err returns the budget error once a limit is reached, nil before.
func (c *Counter) Err() error {
	if s := c.stopped.Load(); s != nil {
		return s.err
	}
	return nil
}

// halt records the first limit reached and returns the error for it.
func (c *Counter) halt(why Stop) error {
	c.stopped.CompareAndSwap(nil, &stopErr{why: why, err: fmt.Errorf("%w: %s", ErrBudget, why)})
	return c.Err()
}

// Check returns an error when the search must stop: a limit was reached
// before, the context is done, or the deadline has passed.
func (c *Counter) Check() error {
	if err := c.Err(); err != nil {
		return err
	}
	select {
	case <-c.done:
		if errors.Is(c.ctx.Err(), context.DeadlineExceeded) {
			return c.halt(StopTime)
		}
		return c.halt(StopCancelled)
	default:
	}
	if !c.deadline.IsZero() && !time.Now().Before(c.deadline) {
		return c.halt(StopTime)
	}
	return nil
}

// Expand announces one node expansion, failing instead when the node limit
// is reached.
func (c *Counter) Expand() error {
	if err := c.Check(); err != nil {
		return err
	}
	if n := c.nodes.Add(1); c.maxNodes > 0 && n > c.maxNodes {
		c.nodes.Add(-1)
		return c.halt(StopNodes)
	}
	return nil
}

// CountEval records one call of an evaluation function.
func (c *Counter) CountEval() { c.evals.Add(1) }

// Next counts one move-operator call and forwards it, or fails when the
// budget is spent.
func (c *Counter) Next(s game.State, joint []game.Move) (game.State, error) {
	if err := c.Check(); err != nil {
		return nil, err
	}
	if n := c.next.Add(1); c.maxNext > 0 && n > c.maxNext {
		c.next.Add(-1)
		return nil, c.halt(StopNextCalls)
	}
	return c.m.Next(s, joint)
}

// Legal forwards after checking the clock; it is not counted.
func (c *Counter) Legal(s game.State, role int, dst []game.Move) ([]game.Move, error) {
	if err := c.Check(); err != nil {
		return dst[:0], err
	}
	return c.m.Legal(s, role, dst)
}

// Roles forwards.
func (c *Counter) Roles() []string { return c.m.Roles() }

// Initial forwards.
func (c *Counter) Initial() game.State { return c.m.Initial() }

// Terminal forwards.
func (c *Counter) Terminal(s game.State) (bool, error) { return c.m.Terminal(s) }

// Goal forwards.
func (c *Counter) Goal(s game.State, role int) (int, error) { return c.m.Goal(s, role) }

// MoveText forwards.
func (c *Counter) MoveText(role int, m game.Move) string { return c.m.MoveText(role, m) }

// ParseMove forwards.
func (c *Counter) ParseMove(role int, text string) (game.Move, error) {
	return c.m.ParseMove(role, text)
}

// NewSimulator returns a simulator of the metered machine (its own, when it
// has one, so playouts keep its speed) that meters every joint move it
// plays, one by one or in a playout, as a Next call against the budget.
// A playout is cut short where the Next-call budget ends, and then fails
// with ErrBudget: the counts never exceed the budget, whatever the number
// of simulators playing at once, and reach it before a playout fails.
func (c *Counter) NewSimulator() game.Simulator {
	return &meteredSim{Simulator: game.NewSimulator(c.m), c: c}
}

// meteredSim is a Counter's simulator: Play, Playout and Playouts are
// metered, every other method forwards.
type meteredSim struct {
	game.Simulator
	c *Counter
}

// Unwrap returns the metered simulator.
func (s *meteredSim) Unwrap() game.Simulator { return s.Simulator }

// Play counts one Next call and forwards it, or fails when the budget is
// spent.
func (s *meteredSim) Play(joint []game.Move) error {
	if err := s.c.Check(); err != nil {
		return err
	}
	if n := s.c.next.Add(1); s.c.maxNext > 0 && n > s.c.maxNext {
		s.c.next.Add(-1)
		return s.c.halt(StopNextCalls)
	}
	return s.Simulator.Play(joint)
}

// Playout plays out in chunks of at most playoutChunk joint moves, each
// reserved from the Next-call budget before it is played and the unused
// part returned after. Chunks play exactly as one playout would. A playout
// that needs more than the budget has left fails with ErrBudget, its
// moves up to the limit played and counted.
func (s *meteredSim) Playout(rng *rand.Rand, maxSteps int) (int, error) {
	c := s.c
	if err := c.Check(); err != nil {
		return 0, err
	}
	if c.maxNext <= 0 {
		steps, err := s.Simulator.Playout(rng, maxSteps)
		c.next.Add(int64(steps))
		return steps, err
	}
	total := 0
	for {
		want := int64(playoutChunk)
		if maxSteps > 0 {
			want = min(want, int64(maxSteps-total))
		}
		got, err := c.reserve(want)
		if err != nil {
			return total, err
		}
		n, err := s.Simulator.Playout(rng, int(got))
		c.next.Add(int64(n) - got)
		c.pending.Add(-got)
		total += n
		switch {
		case err != nil:
			return total, err
		case int64(n) < got, maxSteps > 0 && total >= maxSteps:
			return total, nil // terminal before the chunk ended, or the step limit
		}
		if term, err := s.Simulator.Terminal(); err != nil || term {
			return total, err
		}
	}
}

// Playouts runs a batch of playouts (game.BatchSimulator): with no
// Next-call limit, as the metered simulator's own batch (at once on a
// simulator that runs batches), its joint moves counted afterwards; with
// a limit, one metered Playout after another (game.SequentialPlayouts),
// so that the budget is never exceeded.
func (s *meteredSim) Playouts(rng *rand.Rand, n, maxSteps int, dst []int) ([]int, int, error) {
	if err := s.c.Check(); err != nil {
		return dst[:0], 0, err
	}
	if s.c.maxNext > 0 {
		return game.SequentialPlayouts(s, rng, n, maxSteps, dst)
	}
	dst, steps, err := game.Playouts(s.Simulator, rng, n, maxSteps, dst)
	s.c.next.Add(int64(steps))
	return dst, steps, err
}

// playoutChunk is the most Next calls a playout reserves at once: small
// enough that simulators sharing a budget rarely wait for each other, large
// enough that metering costs nothing measurable per playout.
const playoutChunk = 64

// reserve takes up to want of the Next calls left in the budget and counts
// them as spent until the caller gives back what it did not use (pending
// holds reservations not yet settled). When none are left but another
// simulator holds a reservation, it waits for that one to settle; when
// none are left at all, the budget is spent.
func (c *Counter) reserve(want int64) (int64, error) {
	for {
		if err := c.Check(); err != nil {
			return 0, err
		}
		used := c.next.Load()
		left := c.maxNext - used
		if left <= 0 {
			if c.pending.Load() > 0 {
				runtime.Gosched()
				continue
			}
			return 0, c.halt(StopNextCalls)
		}
		take := min(want, left)
		c.pending.Add(take) // before the reservation shows, so that no one halts while it is held
		if c.next.CompareAndSwap(used, used+take) {
			return take, nil
		}
		c.pending.Add(-take)
	}
}
