package mcts

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"gdlab/engine/analysis"

	"gdlab/engine/analysis/distance"
	"gdlab/engine/game"
	"gdlab/engine/search"
	"gdlab/engine/search/local"
)

// The local-search switch (Options.LocalSearch) feeds MCTS with hints from
// engine/search/local. During each search a worker goroutine serves
// requests; the search loop re-targets it every LocalRetarget with two
// targets: the root with the opponent's last move as seed, and the state
// after the root's most visited move with that move as seed. Results are
// attached to the tree's nodes by state; selection then adds
// −LocalPenalty to a local loss and +LocalPenalty to a local win of the
// node's chooser (no pruning: they are hints, not proofs). When every move
// is a local loss the penalty is uniform, so plain UCT decides. The worker
// runs on its own clock, so a search with the switch on is reproducible
// only in its tree work, not in which hints arrive when. Each iteration
// a local search completes (of its wins or of its losses) is published as
// it completes.

// LocalPenalty is the selection adjustment, on the 0..1 value scale, for
// a move local search reports lost (subtracted) or won (added).
const LocalPenalty = 0.5

// defaultRetarget is the re-targeting interval when none is set.
const defaultRetarget = time.Second

// maxHints bounds the states with local-search results kept for selection.
const maxHints = 8

// LocalHint is a local-search result attached to a tree node.
type LocalHint struct {
	State  game.State
	Role   int    // the role to move
	Seed   string // the seed move's text, "" for none
	Result *local.Result
	status []local.Status // by index in the node's move list
}

// feeder owns the worker goroutine and the published hints.
type feeder struct {
	m        game.Machine // the tree's machine
	d        *distance.Metric
	ls       *local.Searcher
	every    time.Duration
	hints    atomic.Pointer[[]*LocalHint]
	reqs     chan []target
	wg       sync.WaitGroup
	end      context.CancelFunc // ends the search's context, which every job derives from
	mu       sync.Mutex
	cancel   context.CancelFunc // the job in progress
	next     time.Time          // the next re-targeting
	searches atomic.Int64
	prev     game.State // the root of the last Play and the move played there
	prevMove game.Move
	cur      target // the worker's current target
}

// target is one local-search request.
type target struct {
	state    game.State
	seedRole int
	seed     game.Move
}

// newFeeder prepares the switch for m with the move distances d, measured
// on its network when d is nil.
func newFeeder(ctx context.Context, m game.Machine, d *distance.Metric, every time.Duration) (*feeder, error) {
	if d == nil {
		net, err := analysis.Network(ctx, m)
		if err != nil {
			return nil, fmt.Errorf("mcts: local search: %w", err)
		}
		if d, err = distance.Of(ctx, net); err != nil {
			return nil, fmt.Errorf("mcts: move distances: %w", err)
		}
	}
	var err error
	if every <= 0 {
		every = defaultRetarget
	}
	f := &feeder{m: m, d: d, every: every, prevMove: game.NoMove}
	// Each completed iteration is published at once: the first take
	// milliseconds, and selection can use them while deeper ones run.
	f.ls, err = local.New(m, d, local.Options{Progress: func(res *local.Result) { f.publish(f.cur, res) }})
	if err != nil {
		return nil, err
	}
	f.hints.Store(&[]*LocalHint{})
	return f, nil
}

// start runs the worker for one search, whose context (ctx, bounding
// every job) stop ends before it waits for the worker.
func (f *feeder) start(ctx context.Context) {
	f.reqs = make(chan []target, 1)
	f.next = time.Time{}
	ctx, f.end = context.WithCancel(ctx)
	f.wg.Add(1)
	go f.work(ctx, f.reqs)
}

// stop ends the search's context, so that the job in progress stops and a
// request the worker has not taken yet (still in the channel: a closed
// channel still delivers it) is not searched, and waits for the worker.
func (f *feeder) stop() {
	f.end()
	close(f.reqs)
	f.wg.Wait()
}

// work serves requests until the channel closes, each job within the
// search's context sctx; a new request cancels the job in progress.
func (f *feeder) work(sctx context.Context, reqs <-chan []target) {
	defer f.wg.Done()
	for ts := range reqs {
		ctx, cancel := context.WithCancel(sctx)
		f.mu.Lock()
		f.cancel = cancel
		f.mu.Unlock()
		for _, tg := range ts {
			if ctx.Err() != nil {
				break
			}
			// Each target gets its share of the interval, so the second is
			// searched before the next re-targeting cancels the job.
			share := f.every / time.Duration(len(ts))
			f.cur = tg
			res, err := f.ls.Search(ctx, tg.state, tg.seedRole, tg.seed, search.Budget{Time: share})
			if err == nil {
				// Progress published every completed iteration; this adds the
				// moves an iteration cut short had already resolved (its
				// wins and losses are proved all the same).
				f.publish(tg, res)
				f.searches.Add(1)
			}
		}
		cancel()
	}
}

// retarget sends new targets, replacing any pending request and
// cancelling the job in progress.
func (f *feeder) retarget(ts []target) {
	select {
	case <-f.reqs: // drop a request the worker has not taken
	default:
	}
	f.mu.Lock()
	if f.cancel != nil {
		f.cancel()
	}
	f.mu.Unlock()
	f.reqs <- ts
}

// publish attaches a copy of a result to its state, replacing older
// results for the same state and dropping the oldest beyond maxHints.
// A move an older result for the state resolved keeps that result when
// the new one leaves it unknown: a re-targeted search starts again from
// its shallowest iteration, and its first publications must not take
// away wins and losses already proved.
func (f *feeder) publish(tg target, res *local.Result) {
	cp := *res
	cp.Moves = append([]local.MoveResult(nil), res.Moves...)
	if old := f.lookup(tg.state); old != nil && old.Role == res.Role && len(old.Result.Moves) == len(cp.Moves) {
		for i, m := range old.Result.Moves {
			if cp.Moves[i].Status == local.Unknown && m.Status != local.Unknown {
				cp.Moves[i] = m
			}
		}
	}
	cp.Stats.DepthTime = append([]time.Duration(nil), res.Stats.DepthTime...)
	cp.Stats.DepthNodes = append([]int64(nil), res.Stats.DepthNodes...)
	h := &LocalHint{State: tg.state, Role: res.Role, Result: &cp}
	if tg.seed != game.NoMove {
		h.Seed = f.m.MoveText(tg.seedRole, tg.seed)
	}
	for _, m := range cp.Moves {
		h.status = append(h.status, m.Status)
	}
	old := *f.hints.Load()
	hs := []*LocalHint{h}
	for _, o := range old {
		if len(hs) < maxHints && !o.State.Equal(tg.state) {
			hs = append(hs, o)
		}
	}
	f.hints.Store(&hs)
}

// lookup returns the hint for a state, or nil.
func (f *feeder) lookup(s game.State) *LocalHint {
	for _, h := range *f.hints.Load() {
		if h.State.Hash() == s.Hash() && h.State.Equal(s) {
			return h
		}
	}
	return nil
}

// localTick re-targets the worker when due: the root with the last move,
// and the root's most visited move with the state it leads to.
func (t *tree) localTick(now time.Time) {
	f := t.ls
	if f == nil || now.Before(f.next) {
		return
	}
	f.next = now.Add(f.every)
	root := &t.nodes[t.root]
	ts := []target{{state: root.state, seedRole: 1 - max(root.chooser, 0), seed: f.lastMove(root.state)}}
	if r := root.chooser; r >= 0 && len(root.moves[r]) > 1 {
		if i := mostVisited(root, r); i >= 0 {
			if ch := t.childOf(root, r, i); ch != none && !t.nodes[ch].terminal {
				ts = append(ts, target{state: t.nodes[ch].state, seedRole: r, seed: root.moves[r][i]})
			}
		}
	}
	f.retarget(ts)
}

func mostVisited(nd *node, r int) int {
	best := -1
	for i, n := range nd.n[r] {
		if n > 0 && (best < 0 || n > nd.n[r][best]) {
			best = i
		}
	}
	return best
}

// lastMove finds the opponent's move that led from the state after the
// player's previous move to s, or game.NoMove.
func (f *feeder) lastMove(s game.State) game.Move {
	if f.prev == nil || f.prevMove == game.NoMove || len(f.m.Roles()) != 2 {
		return game.NoMove
	}
	for r := 0; r < 2; r++ {
		mid, err := nextAlone(f.m, f.prev, r, f.prevMove)
		if err != nil {
			continue
		}
		opp := 1 - r
		moves, _ := f.m.Legal(mid, opp, nil)
		for _, m := range moves {
			if after, err := nextAlone(f.m, mid, opp, m); err == nil && after.Equal(s) {
				return m
			}
		}
	}
	return game.NoMove
}

// nextAlone plays role's move with the other role's only legal move.
func nextAlone(gm game.Machine, s game.State, role int, m game.Move) (game.State, error) {
	other, err := gm.Legal(s, 1-role, nil)
	if err != nil || len(other) != 1 {
		return nil, fmt.Errorf("mcts: not a turn of %d alone", role)
	}
	joint := make([]game.Move, 2)
	joint[role], joint[1-role] = m, other[0]
	return gm.Next(s, joint)
}

// localBias returns the selection adjustment per move of role r at node
// nd, or nil when there is none.
func (t *tree) localBias(nd *node, r int) []float64 {
	if t.ls == nil || nd.chooser != r {
		return nil
	}
	h := t.ls.lookup(nd.state)
	if h == nil || h.Role != r || len(h.status) != len(nd.moves[r]) {
		return nil
	}
	bias := make([]float64, len(h.status))
	losses := 0
	for i, s := range h.status {
		switch s {
		case local.Win:
			bias[i] = LocalPenalty
		case local.Loss:
			bias[i] = -LocalPenalty
			losses++
		}
	}
	if losses == len(bias) {
		return nil // a uniform discount changes nothing
	}
	return bias
}

// LocalHints returns the local-search results attached to the tree, newest
// first (nil when the switch is off).
func (p *Player) LocalHints() []LocalHint {
	if p.t == nil || p.t.ls == nil {
		return nil
	}
	var out []LocalHint
	for _, h := range *p.t.ls.hints.Load() {
		out = append(out, *h)
	}
	return out
}

// LocalSearches returns how many local searches the worker has completed
// in this match (0 when the switch is off).
func (p *Player) LocalSearches() int64 {
	if p.t == nil || p.t.ls == nil {
		return 0
	}
	return p.t.ls.searches.Load()
}
