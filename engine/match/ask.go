package match

import (
	"context"
	"fmt"
	"time"

	"gdlab/engine/game"
	"gdlab/engine/heuristic"
	"gdlab/engine/search"
)

// answer is what one call to a player produced.
type answer struct {
	move   game.Move
	report search.Report
	err    error
	took   time.Duration
	next   int64 // Next calls the referee counted
	late   bool
	// abandoned: the player did not return within Options.Abandon of being
	// told to stop.
	abandoned bool
}

// settle writes off seat i if its call was abandoned.
func (r *referee) settle(i int, res answer) {
	if res.abandoned {
		r.gone[i] = true
		r.event(i, "abandoned", "still running "+r.opt.abandon().String()+" after being told to stop")
	}
}

// start starts seat i under the start clock, recording failures.
func (r *referee) start(ctx context.Context, i int) {
	p := r.seats[i].Player
	if p == nil {
		r.gone[i] = true
		r.row.Errors[i]++
		r.event(i, "error", "no player")
		return
	}
	r.starting = true
	defer func() { r.starting = false }()
	setup := search.Setup{Machine: r.meters[i], Role: i, Seed: seatSeed(r.row.Seed, i)}
	res := r.call(ctx, i, r.opt.StartClock, func(ctx context.Context, d time.Time) answer {
		setup.Budget.Deadline = d
		return answer{err: p.Start(ctx, setup)}
	})
	r.settle(i, res)
	switch {
	case res.late:
		r.event(i, "late", "Start returned after "+res.took.Round(time.Millisecond).String())
		r.row.Late[i]++
	case res.err != nil:
		r.event(i, "error", "Start: "+res.err.Error())
		r.row.Errors[i]++
	}
}

// ask asks seat i for its move in s under the play clock.
func (r *referee) ask(ctx context.Context, i int, s game.State) answer {
	seat := r.seats[i]
	return r.call(ctx, i, r.opt.PlayClock, func(ctx context.Context, d time.Time) answer {
		b := seat.Budget
		if !d.IsZero() && (b.Deadline.IsZero() || d.Before(b.Deadline)) {
			b.Deadline = d
		}
		mv, rep, err := seat.Player.Play(ctx, s, b)
		return answer{move: mv, report: rep, err: err}
	})
}

// call runs fn for seat i on its own goroutine with a clock (0: none). fn is
// given the clock's deadline (zero without a clock) and a context that ends
// a grace period later. A player that overruns is told to stop; one that
// does not return within Options.Abandon after that is marked abandoned,
// for the caller to write off (see settle). call changes nothing shared,
// so calls for different seats may run at once.
func (r *referee) call(ctx context.Context, i int, clock time.Duration, fn func(context.Context, time.Time) answer) answer {
	start := time.Now()
	var deadline time.Time
	if clock > 0 {
		deadline = start.Add(clock)
	}
	cctx, cancel := r.callContext(ctx, deadline)
	defer cancel()
	before := r.meters[i].Used().NextCalls
	done := make(chan answer, 1)
	go func() { done <- guarded(cctx, deadline, fn) }()
	res, ok := r.wait(cctx, done, cancel)
	res.abandoned = !ok
	res.took = time.Since(start)
	res.next = r.meters[i].Used().NextCalls - before
	res.late = !ok || (clock > 0 && res.took > clock+r.opt.grace())
	return res
}

// callContext bounds a call by its deadline plus the grace period, if it
// has a deadline.
func (r *referee) callContext(ctx context.Context, deadline time.Time) (context.Context, context.CancelFunc) {
	if deadline.IsZero() {
		return context.WithCancel(ctx)
	}
	return context.WithDeadline(ctx, deadline.Add(r.opt.grace()))
}

// wait returns the player's answer, or after the context ends and the
// abandon period passes, ok = false.
func (r *referee) wait(ctx context.Context, done <-chan answer, cancel context.CancelFunc) (answer, bool) {
	select {
	case res := <-done:
		return res, true
	case <-ctx.Done():
	}
	cancel()
	t := time.NewTimer(r.opt.abandon())
	defer t.Stop()
	select {
	case res := <-done:
		return res, true
	case <-t.C:
		return answer{err: ctx.Err()}, false
	}
}

// guarded calls fn, turning a panic into an error: player code, perhaps
// interpreted notebook code, must not take the process down.
func guarded(ctx context.Context, d time.Time, fn func(context.Context, time.Time) answer) (res answer) {
	defer func() {
		if p := recover(); p != nil {
			res = answer{move: game.NoMove, err: fmt.Errorf("%w: %v", errPanic, p)}
		}
	}()
	return fn(ctx, d)
}

// seatSeed derives a player's seed from the match seed.
func seatSeed(seed uint64, seat int) uint64 {
	return heuristic.Mix(seed ^ (uint64(seat+1) * 0x9e3779b97f4a7c15))
}
