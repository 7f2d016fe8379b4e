package factored

import (
	"context"
	"errors"
	"time"

	"gdlab/engine/game"
	"gdlab/engine/heuristic"
	"gdlab/engine/search"
	"gdlab/engine/search/mcts"
)

// searcher is one search the player runs, on a factor's subgame or on the
// whole game: MCTS or alpha-beta. Play is the searcher's own; the rest is
// what the two differ in, so that one loop (playFactors) serves both.
type searcher interface {
	search.Player
	// valueOne searches s, where the role has exactly one allowed move,
	// and reports that move's value. Both players return a lone move at
	// once, without a value, but the player compares a factor's value with
	// the others': a factor left with its last move (the press that lights
	// a board) must not lose to one whose value is a mere estimate.
	valueOne(ctx context.Context, s game.State, b search.Budget) (search.Report, error)
	// lastMCTS returns the statistics of the last MCTS search, and false
	// for a searcher that is not MCTS.
	lastMCTS() (mcts.Stats, bool)
}

// newSearcher returns a fresh searcher of the configured kind, one of n
// searches that share the move's budget: alpha-beta on a copy of
// Options.AlphaBeta when it is set, MCTS on Options.MCTS otherwise, with
// its Iterations, when set, divided among the n (unless
// Options.PerFactor).
func (p *Player) newSearcher(n int) searcher {
	if p.opt.AlphaBeta != nil {
		ab := *p.opt.AlphaBeta
		return &abSearch{AlphaBeta: &ab}
	}
	opt := p.opt.MCTS
	if opt.Iterations > 0 && !p.opt.PerFactor {
		opt.Iterations = max(1, opt.Iterations/int64(n))
	}
	return &mctsSearch{Player: mcts.New(opt)}
}

// mctsSearch is MCTS as a searcher.
type mctsSearch struct {
	*mcts.Player
	role int
}

// Start starts the MCTS player and keeps the role for valueOne.
func (m *mctsSearch) Start(ctx context.Context, setup search.Setup) error {
	m.role = setup.Role
	return m.Player.Start(ctx, setup)
}

// valueOne runs the search that Play skips and reads the lone move's
// value at the root: its proven value when solved, its mean otherwise.
func (m *mctsSearch) valueOne(ctx context.Context, s game.State, b search.Budget) (search.Report, error) {
	begin := time.Now()
	stop, err := m.Search(ctx, s, b)
	rep := search.Report{Value: -1, Stopped: stop}
	for _, ms := range m.Root(m.role) {
		switch {
		case ms.Solved:
			rep.Value = ms.Value
		case ms.Visits > 0:
			rep.Value = ms.Mean
		}
	}
	ls := m.LastStats()
	rep.Used = search.Usage{Time: time.Since(begin), Nodes: ls.Expansions, NextCalls: ls.NextCalls}
	rep.Complete = ls.RootSolved
	return rep, err
}

func (m *mctsSearch) lastMCTS() (mcts.Stats, bool) { return m.LastStats(), true }

// abSearch is iterative-deepening alpha-beta as a searcher.
type abSearch struct {
	*search.AlphaBeta
	m    game.Machine
	role int
}

// Start prepares the evaluator once, under the start clock, and starts
// the alpha-beta player with it: AlphaBeta.ValueSolved, which valueOne
// calls at every depth, prepares the evaluator it is given at every call,
// and a heuristic.Func is not prepared again. The evaluator evaluates as the
// configured one prepared would, so the player plays as the configured
// AlphaBeta does.
func (a *abSearch) Start(ctx context.Context, setup search.Setup) error {
	a.m, a.role = setup.Machine, setup.Role
	pctx, cancel := setup.Budget.Context(ctx)
	e, err := heuristic.Prepare(pctx, setup.Machine, a.Eval)
	cancel()
	if err != nil {
		// AlphaBeta.Start fails alike and plays on with intermediate
		// goals; ValueSolved must evaluate as Play does.
		err = a.AlphaBeta.Start(ctx, setup)
		a.Eval = heuristic.IntermediateGoal{}
		return err
	}
	if e != nil {
		a.Eval = heuristic.Func(e.Evaluate)
	}
	return a.AlphaBeta.Start(ctx, setup)
}

// valueOne deepens AlphaBeta.ValueSolved from s, depth 1, 2, ..., until
// the budget ends, MaxDepth is reached or the value is solved (exact, as
// Play's Complete), and reports the deepest depth completed; each depth
// gets what the earlier ones left of b.
func (a *abSearch) valueOne(ctx context.Context, s game.State, b search.Budget) (search.Report, error) {
	begin := time.Now()
	end := endOf(b, begin)
	rep := search.Report{Value: -1}
	for depth := 1; a.MaxDepth <= 0 || depth <= a.MaxDepth; depth++ {
		left, stop := remaining(b, end, rep.Used)
		if stop != search.StopNone {
			rep.Stopped = stop
			break
		}
		v, solved, used, err := a.ValueSolved(ctx, a.m, s, a.role, depth, left)
		rep.Used = rep.Used.Add(used)
		if errors.Is(err, search.ErrBudget) {
			rep.Stopped = stopOf(ctx, b, rep.Used)
			break
		}
		if err != nil {
			return rep, err
		}
		rep.Value, rep.Depth, rep.Complete = v, depth, solved
		if solved {
			break
		}
	}
	rep.Used.Time = time.Since(begin)
	return rep, nil
}

func (a *abSearch) lastMCTS() (mcts.Stats, bool) { return mcts.Stats{}, false }

// remaining is what b leaves after used, with its time as the deadline
// end, or the limit already spent.
func remaining(b search.Budget, end time.Time, used search.Usage) (search.Budget, search.Stop) {
	left := search.Budget{Deadline: end}
	switch {
	case !end.IsZero() && !time.Now().Before(end):
		return left, search.StopTime
	case b.Nodes > 0 && used.Nodes >= b.Nodes:
		return left, search.StopNodes
	case b.NextCalls > 0 && used.NextCalls >= b.NextCalls:
		return left, search.StopNextCalls
	}
	if b.Nodes > 0 {
		left.Nodes = b.Nodes - used.Nodes
	}
	if b.NextCalls > 0 {
		left.NextCalls = b.NextCalls - used.NextCalls
	}
	return left, search.StopNone
}

// stopOf says which limit ended a search that spent used of b:
// ValueSolved reports only that the budget ran out.
func stopOf(ctx context.Context, b search.Budget, used search.Usage) search.Stop {
	switch {
	case ctx.Err() != nil && !errors.Is(ctx.Err(), context.DeadlineExceeded):
		return search.StopCancelled
	case b.Nodes > 0 && used.Nodes >= b.Nodes:
		return search.StopNodes
	case b.NextCalls > 0 && used.NextCalls >= b.NextCalls:
		return search.StopNextCalls
	}
	return search.StopTime
}
