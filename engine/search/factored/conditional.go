package factored

import (
	"context"
	"fmt"
	"slices"
	"time"

	"gdlab/engine/analysis/factor"
	"gdlab/engine/analysis/latch"
	"gdlab/engine/game"
	"gdlab/engine/search"
)

// analysisShare is the part of a move's time that a conditional analysis
// may take: a quarter. The factors' searches get what it leaves.
const analysisShare = 4

// conditional is what conditional factoring keeps across the moves of a
// match: the latches of the game, the analysis of the network given some
// facts, the facts last analysed, and the setup to start searches with.
type conditional struct {
	lat     *latch.Analysis
	analyse func(ctx context.Context, given []factor.Fact) (*factor.Analysis, error)
	tried   []factor.Fact // the facts last analysed, adopted or not
	given   []factor.Fact // the facts the factoring in use was given; nil: the game's own
	setup   search.Setup
	base    *factor.Analysis // the game's own factoring, nil when unfactored
	baseWhy string
}

// refactor analyses the game given the facts that the latches of s keep
// for the rest of the match, when they differ from the facts last
// analysed, and adopts that factoring when it gives the role more
// factors to search (searchable) than the factoring in use (at least
// two).
// The analysis takes at most a quarter of the move's time (no limit when
// the budget has none); one cut short, like one that finds nothing
// better, leaves the factoring as it is until the latched facts change
// again. It returns whether it adopted a factoring and the time it took.
func (p *Player) refactor(ctx context.Context, s game.State, b search.Budget, start time.Time) (bool, time.Duration, error) {
	given := factor.LatchedIn(p.cond.lat, s)
	if !holdAll(given, p.cond.given) {
		// Not a later state of the match: the game's own factoring holds.
		if err := p.restore(ctx, b, start); err != nil {
			return false, 0, err
		}
	}
	if len(given) == 0 || slices.Equal(given, p.cond.tried) {
		return false, 0, nil
	}
	p.cond.tried = given
	actx, cancel := ctx, context.CancelFunc(func() {})
	if end := endOf(b, start); !end.IsZero() {
		actx, cancel = context.WithDeadline(ctx, start.Add(end.Sub(start)/analysisShare))
	}
	defer cancel()
	an, err := p.cond.analyse(actx, given)
	took := time.Since(start)
	if err != nil {
		return false, took, ctx.Err() // cut short by the share, or failed: keep the factoring
	}
	if n := len(searchable(an, p.role)); n < 2 || n <= p.moving() {
		return false, took, nil
	}
	p.an, p.plain, p.whole, p.parts = an, nil, nil, nil
	setup := p.cond.setup
	setup.Budget = search.Budget{Deadline: endOf(b, start)}
	if err := p.startParts(ctx, setup); err != nil {
		// The game's own factoring still holds: play on with it.
		if rerr := p.restore(ctx, b, start); rerr != nil {
			return false, took, rerr
		}
		p.cond.tried = given
		p.why += "; conditional factoring failed: " + err.Error()
		return false, took, ctx.Err()
	}
	p.cond.given = given
	p.why = fmt.Sprintf("%s (conditional: given %d latched facts)", p.why, len(given))
	return true, took, nil
}

// restore goes back to the game's own factoring, with fresh searches.
func (p *Player) restore(ctx context.Context, b search.Budget, start time.Time) error {
	p.an, p.plain, p.whole, p.parts = p.cond.base, nil, nil, nil
	p.cond.given, p.cond.tried, p.why = nil, nil, p.cond.baseWhy
	setup := p.cond.setup
	setup.Budget = search.Budget{Deadline: endOf(b, start)}
	return p.startSearches(ctx, setup)
}

// holdAll reports whether every fact of want is among facts (both in the
// order factor.LatchedIn gives).
func holdAll(facts, want []factor.Fact) bool {
	for _, f := range want {
		if !slices.Contains(facts, f) {
			return false
		}
	}
	return true
}

// moving is the number of factors searched now: 1 when the whole game is.
func (p *Player) moving() int {
	if p.plain != nil {
		return 1
	}
	return len(p.parts)
}
