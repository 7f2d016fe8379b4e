package factored

import (
	"context"
	"math"
	"slices"
	"time"

	"gdlab/engine/game"
	"gdlab/engine/search"
	"gdlab/engine/search/mcts"
)

// Play chooses a move: the plain search's when the game does not factor;
// otherwise each factor's search, in turn, gets an equal share of the
// budget less the lead (time left over by one goes to the next; a proven
// win ends the move at once), the leading factor is searched again with
// what remains (Options.Lead), and the move is the leading factor's best
// move, the leader being the factor valued highest or, with passes, the
// one whose move gains most over passing there. When no factor offers a move, the whole game
// is searched with what remains.
func (p *Player) Play(ctx context.Context, s game.State, b search.Budget) (game.Move, search.Report, error) {
	if p.cond != nil {
		return p.playConditional(ctx, s, b)
	}
	if p.plain != nil {
		return p.playPlain(ctx, s, b, time.Now(), Stats{Chosen: -1})
	}
	return p.playFactored(ctx, s, b, time.Now(), Stats{Chosen: -1})
}

// playPlain plays the whole game's search within b and completes st, begun
// at start, with its statistics.
func (p *Player) playPlain(ctx context.Context, s game.State, b search.Budget, start time.Time, st Stats) (game.Move, search.Report, error) {
	mv, rep, err := p.plain.Play(ctx, s, b)
	st.Solved, st.Nodes, st.Time = rep.Complete, rep.Used.Nodes, time.Since(start)
	if ms, ok := p.plain.lastMCTS(); ok {
		st.Iterations = ms.Iterations
	}
	p.last = st
	return mv, rep, err
}

// playConditional refactors the game when the latched facts of s allow
// (see Options.Conditional), then plays as Play does with what the
// analysis left of the budget.
func (p *Player) playConditional(ctx context.Context, s game.State, b search.Budget) (game.Move, search.Report, error) {
	start := time.Now()
	refactored, took, err := p.refactor(ctx, s, b, start)
	if err != nil {
		return game.NoMove, search.Report{Value: -1}, err
	}
	st := Stats{Chosen: -1, Given: len(p.cond.given), Refactored: refactored, Analysis: took}
	if p.plain == nil {
		return p.playFactored(ctx, s, b, start, st)
	}
	return p.playPlain(ctx, s, after(b, endOf(b, start), search.Usage{}), start, st)
}

// after is what b leaves once used is spent, with its time as the
// deadline end, and at least one of each count b limits: a search given
// it still chooses a move.
func after(b search.Budget, end time.Time, used search.Usage) search.Budget {
	rest := b
	if !end.IsZero() {
		rest.Time, rest.Deadline = 0, end
	}
	if b.Nodes > 0 {
		rest.Nodes = max(b.Nodes-used.Nodes, 1)
	}
	if b.NextCalls > 0 {
		rest.NextCalls = max(b.NextCalls-used.NextCalls, 1)
	}
	return rest
}

// playFactored plays a move on the factors, from start with the stats st
// begun: a lone legal move at once, else the factors' searches.
func (p *Player) playFactored(ctx context.Context, s game.State, b search.Budget, start time.Time, st Stats) (game.Move, search.Report, error) {
	if p.m == nil {
		return game.NoMove, search.Report{Value: -1}, search.ErrNotStarted
	}
	moves, err := p.m.Legal(s, p.role, nil)
	if err == nil && len(moves) == 0 {
		err = &game.NoLegalMoveError{Role: p.m.Roles()[p.role]}
	}
	if err != nil {
		return game.NoMove, search.Report{Value: -1}, err
	}
	if len(moves) == 1 {
		st.Time = time.Since(start)
		p.last = st
		return moves[0], search.Report{Used: search.Usage{Time: time.Since(start)}, Value: -1}, nil
	}
	return p.playFactors(ctx, s, b, start, st)
}

// playFactors runs the factors' searches and picks the move: first
// every factor's, in equal shares of the budget less the lead (see
// Options.Lead), then, with what remains, the leading factor's again,
// its tree grown further, when its value is not yet exact.
func (p *Player) playFactors(ctx context.Context, s game.State, b search.Budget, start time.Time, st Stats) (game.Move, search.Report, error) {
	end := endOf(b, start)
	st.Factored = true
	lead := p.lead()
	first, firstEnd := b, end
	if lead > 0 {
		first = scale(b, 1-lead)
		if !end.IsZero() {
			firstEnd = start.Add(time.Duration(float64(end.Sub(start)) * (1 - lead)))
		}
	}
	fs := make([]found, 0, len(p.parts))
	for i := range p.parts {
		if ctx.Err() != nil {
			break
		}
		f, err := p.searchPart(ctx, i, s, share(first, start, firstEnd, i, len(p.parts)), found{})
		if err != nil {
			return moves0(p, s), search.Report{Value: -1}, err
		}
		fs = append(fs, f)
		if f.proven() {
			break // a proven win: no other factor can do better
		}
	}
	if k := leader(fs); lead > 0 && k >= 0 && !fs[k].r.Complete && ctx.Err() == nil {
		rest, stop := remaining(b, end, usedBy(fs))
		if stop == search.StopNone {
			f, err := p.searchPart(ctx, k, s, rest, fs[k])
			if err != nil {
				return moves0(p, s), search.Report{Value: -1}, err
			}
			fs[k] = f
		}
	}
	k := leader(fs)
	for i, f := range fs {
		st.add(p.parts[i], f)
	}
	if k < 0 {
		return p.playWhole(ctx, s, b, start, end, usedBy(fs), st)
	}
	rep := search.Report{Used: usedBy(fs), Value: fs[k].r.Value, Depth: fs[k].r.Depth, Stopped: fs[k].r.Stopped}
	st.Chosen, st.Solved = p.parts[k].factor, fs[k].r.Complete
	rep.Used.Time = time.Since(start)
	st.Time = rep.Used.Time
	p.last = st
	return fs[k].mv, rep, nil
}

// found is what the move's searches of one factor found: the role's move
// there (NoMove when the factor offers none), the report (with passes,
// the chosen move's value and exactness: see pick), the move's gain, and
// the MCTS statistics, added up over the move's searches of the factor.
type found struct {
	mv   game.Move
	r    search.Report
	gain float64
	ms   mcts.Stats
}

// proven says the factor's move is a proven win.
func (f found) proven() bool {
	return f.mv != game.NoMove && f.r.Complete && f.r.Value >= maxGoal
}

// leader is the index of the factor whose move gains most (the first on
// a tie), or -1 when none offers a move.
func leader(fs []found) int {
	k := -1
	for i, f := range fs {
		if f.mv != game.NoMove && (k < 0 || f.gain > fs[k].gain) {
			k = i
		}
	}
	return k
}

// usedBy adds up the searches' usage.
func usedBy(fs []found) search.Usage {
	var u search.Usage
	for _, f := range fs {
		u = u.Add(f.r.Used)
	}
	return u
}

// searchPart searches factor i's subgame, from the state rebase gives
// for s (kept for the next move), within b, and reads what it found;
// earlier is what the move's earlier searches of the factor found, whose
// usage and statistics it adds to.
func (p *Player) searchPart(ctx context.Context, i int, s game.State, b search.Budget, earlier found) (found, error) {
	pt := &p.parts[i]
	root, err := pt.sub.rebase(s, pt.held)
	if err != nil {
		return found{}, err
	}
	pt.held = root
	mv, r, err := pt.search(ctx, root, b, p.role)
	if err != nil {
		return found{}, err
	}
	f := found{mv: mv, r: r, gain: r.Value, ms: earlier.ms}
	if pt.sub.hold != nil && mv != game.NoMove {
		f.mv, f.r.Value, f.gain, f.r.Complete = pt.pick(mv, r, p.role)
	}
	f.r.Used = earlier.r.Used.Add(r.Used)
	if ms, ok := pt.s.lastMCTS(); ok && mv != game.NoMove {
		f.ms = addStats(f.ms, ms)
	}
	return f, nil
}

// addStats adds a later search's statistics of the same tree to earlier
// ones: the counts and the time add up, the rest is the later search's.
func addStats(earlier, later mcts.Stats) mcts.Stats {
	later.Iterations += earlier.Iterations
	later.Playouts += earlier.Playouts
	later.Expansions += earlier.Expansions
	later.NextCalls += earlier.NextCalls
	later.Time += earlier.Time
	return later
}

// playWhole searches the whole game with what the factors' searches,
// which used used of b, left of it. Its report counts all of the move's
// searches.
func (p *Player) playWhole(ctx context.Context, s game.State, b search.Budget, start, end time.Time, used search.Usage, st Stats) (game.Move, search.Report, error) {
	mv, rep, err := p.whole.Play(ctx, s, after(b, end, used))
	st.Factored = false
	if ms, ok := p.whole.lastMCTS(); ok {
		st.Iterations += ms.Iterations
	}
	st.Nodes += rep.Used.Nodes
	rep.Used = used.Add(rep.Used)
	rep.Used.Time = time.Since(start)
	st.Time = rep.Used.Time
	p.last = st
	return mv, rep, err
}

// maxGoal is the highest goal value GDL allows.
const maxGoal = 100

// moves0 is the first legal move, the answer of a search that failed.
func moves0(p *Player, s game.State) game.Move {
	if ms, err := p.m.Legal(s, p.role, nil); err == nil && len(ms) > 0 {
		return ms[0]
	}
	return game.NoMove
}

// search runs the factor's search from s and returns its best move for
// role and its report; NoMove when role has no move in the factor (with
// passes: none of the factor's own, noops and its pass aside). With one
// move in the factor, the searcher values it (valueOne): Play would
// return it unsearched.
func (pt part) search(ctx context.Context, s game.State, b search.Budget, role int) (game.Move, search.Report, error) {
	legal, err := pt.sub.Legal(s, role, nil)
	if err == nil && pt.sub.hold != nil && !slices.ContainsFunc(legal, pt.sub.own[role].has) {
		legal = nil
	}
	if err != nil || len(legal) == 0 {
		return game.NoMove, search.Report{Value: -1}, err
	}
	if len(legal) > 1 {
		return pt.s.Play(ctx, s, b)
	}
	rep, err := pt.s.valueOne(ctx, s, b)
	return legal[0], rep, err
}

// pick reads a search of a subgame with passes, whose report r came with
// the move mv: the factor's own move for role to play, its value, its
// gain over the pass, and whether that value is exact. From an MCTS
// search, the move is the factor's own move proven a win, with an
// infinite gain; else its own move visited most at the root (usually
// the search's move), and the gain its value less the pass's (a proven
// value standing for a mean; its value when the root has no pass
// visited). The root may be solved by its pass
// (a zugzwang), so the value is exact only when the chosen move is
// solved. An alpha-beta search offers mv, gaining its value, when mv is
// the factor's own, and no move otherwise.
func (pt part) pick(mv game.Move, r search.Report, role int) (game.Move, float64, float64, bool) {
	ms, ok := pt.s.(*mctsSearch)
	if !ok {
		if !pt.sub.own[role].has(mv) {
			return game.NoMove, -1, -1, false
		}
		return mv, r.Value, r.Value, r.Complete
	}
	value := func(x mcts.MoveStat) float64 {
		if x.Solved {
			return x.Value
		}
		return x.Mean
	}
	cand, pass := -1, -1
	root := ms.Root(role)
	for i, x := range root {
		switch {
		case !pt.sub.allow[role].has(x.Move):
			pass = i
		case !pt.sub.own[role].has(x.Move):
		case x.Solved && x.Value >= maxGoal:
			// A proven win comes first, however few its visits: the
			// search stops once it is proven, and another move may have
			// won as many playouts.
			return x.Move, x.Value, math.Inf(1), true
		case cand < 0 || x.Visits > root[cand].Visits || x.Visits == root[cand].Visits && value(x) > value(root[cand]):
			cand = i
		}
	}
	if cand < 0 {
		if !pt.sub.own[role].has(mv) {
			return game.NoMove, -1, -1, false
		}
		return mv, r.Value, r.Value, r.Complete // a lone move, valued by valueOne
	}
	x := root[cand]
	v := value(x)
	if pass < 0 || (root[pass].Visits == 0 && !root[pass].Solved) {
		return x.Move, v, v, x.Solved
	}
	return x.Move, v, v - value(root[pass]), x.Solved
}

// add records what the move's searches of factor pt found.
func (st *Stats) add(pt part, f found) {
	st.Factors = append(st.Factors, pt.factor)
	st.Values = append(st.Values, f.r.Value)
	st.Reports = append(st.Reports, f.r)
	st.Gains = append(st.Gains, f.gain)
	st.Nodes += f.r.Used.Nodes
	if _, ok := pt.s.lastMCTS(); ok {
		st.Searches = append(st.Searches, f.ms) // the zero Stats where not searched
		st.Iterations += f.ms.Iterations
	}
}

// endOf is when the budget's time runs out, or the zero time.
func endOf(b search.Budget, start time.Time) time.Time {
	end := b.Deadline
	if b.Time > 0 {
		if t := start.Add(b.Time); end.IsZero() || t.Before(end) {
			end = t
		}
	}
	return end
}

// scale is the fraction x of b's node and Next-call limits; its time
// limits the caller scales.
func scale(b search.Budget, x float64) search.Budget {
	out := b
	if b.Nodes > 0 {
		out.Nodes = max(1, int64(float64(b.Nodes)*x))
	}
	if b.NextCalls > 0 {
		out.NextCalls = max(1, int64(float64(b.NextCalls)*x))
	}
	return out
}

// share is the i-th of n equal shares of b: a deadline at the end of the
// i-th slice of the time (so that time one search leaves goes to the
// next), and an n-th of the node and Next-call limits.
func share(b search.Budget, start, end time.Time, i, n int) search.Budget {
	out := search.Budget{}
	if !end.IsZero() {
		out.Deadline = start.Add(end.Sub(start) * time.Duration(i+1) / time.Duration(n))
	}
	if b.Nodes > 0 {
		out.Nodes = max(1, b.Nodes/int64(n))
	}
	if b.NextCalls > 0 {
		out.NextCalls = max(1, b.NextCalls/int64(n))
	}
	return out
}
