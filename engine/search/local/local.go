// Package local owns gdlab's local search for forced wins in
// Breakthrough-like games (Sancho's "local search"): from a state and a
// seed move that sets the locality, it looks for short forced wins of
// either role among N-efficient move sequences only, restricted by the
// static move-distance metric of engine/analysis/distance, and reports each legal
// move of the role to move as a local win, a local loss or unknown.
//
// # The search
//
// For N = 1, 2, … (iterative deepening) the attacker looks for a win
// within N of its own moves. At an attacker node with r of its moves left
// (this one included), a move m is tried only when
//
//	goalDistance(m) ≤ r−1  and  distance(anchor, m) ≤ r
//
// where the anchor is the seed for the attacker's first move and its
// previous move afterwards (the bound then being max(r−1, 1)): the region
// shrinks as the ply grows, and every move stays within reach of the
// others (N-efficient sequences). While an
// elimination win (capture every enemy piece) is within reach, the first
// condition is lifted. Results are binary (win or not) and the defender's
// ply is pruned aggressively: the first reply that avoids the win refutes
// the node. Defender moves are local when within distance r+1 of the seed
// or of an attacker move of the sequence, or when they may win at once
// (goal distance 0); all others are represented by one virtual tenuki, a
// single non-local move, so that a local zugzwang (every local reply
// loses, but playing elsewhere does not) is not taken for a win. Local
// defences are tried nearest the attacker's last move first (after the
// last refutation in the same state and the killer), and at the last ply
// a defence that cannot touch an immediate threat is not tried at all. A
// transposition table keyed by state remembers failed attacker nodes (with
// their moves left, exactly, and their anchor or one that covers it), won
// ones (with the fewest moves left that won, reused with as many or more)
// and the last refutation at defender nodes.
//
// Wins are hints, not proofs: the locality assumption can miss a defence
// far away that is more than a tenuki. On positions where nothing outside
// the region matters they are exact, which the tests check against
// exhaustive minimax.
package local

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gdlab/engine/analysis/distance"
	"gdlab/engine/game"
	"gdlab/engine/search"
)

// Status is a move's local-search result.
type Status int8

// The statuses.
const (
	Unknown Status = iota // no forced local result found
	Win                   // the mover forces a win
	Loss                  // the opponent forces a win after the move
)

// String names the status.
func (s Status) String() string {
	switch s {
	case Win:
		return "win"
	case Loss:
		return "loss"
	}
	return "unknown"
}

// DefaultMaxDepth is the deepest iteration (attacker moves) by default.
const DefaultMaxDepth = 20

// Options tune a Searcher. The zero value gives the defaults.
type Options struct {
	// MaxDepth bounds N, the attacker's moves in a sequence; 0 means
	// DefaultMaxDepth.
	MaxDepth int
	// NoTenuki leaves the virtual tenuki out: non-local defender moves are
	// then ignored, and local zugzwang passes for a win. For experiments.
	NoTenuki bool
	// Progress, when set, is called after each completed iteration, of
	// the wins or of the losses, with the result so far (statuses and
	// Stats as of that iteration), so that a caller can use early results
	// while deeper iterations run. It runs on the searching goroutine and
	// must not keep the result, which the search goes on changing: copy
	// what is needed.
	Progress func(*Result)
	// TableBits sets the transposition table's size, 2^TableBits entries;
	// 0 means 20, negative means no table.
	TableBits int
	// NoGoalPrune tries attacker moves however far from a goal they lie:
	// the condition goalDistance(m) ≤ r−1 is dropped, as it is while an
	// elimination is within reach. For ablations: it finds the same wins
	// and generates more states.
	NoGoalPrune bool
	// FixedRegion keeps the region from shrinking: an attacker move may
	// lie up to N (the iteration's depth) from its anchor at every ply,
	// and a defender move is local within N+1, instead of r and r+1 with
	// r the attacker's moves left (r−1 from the attacker's previous move).
	// For ablations.
	FixedRegion bool
}

// MoveResult is the result for one legal move of the role to move.
type MoveResult struct {
	Move   game.Move
	Text   string
	Status Status
	// Depth is, for a Win, the mover's moves to win, this one included;
	// for a Loss, the opponent's moves to win after this one.
	Depth int
	// Tenuki is set on a Loss found through the virtual tenuki: the move
	// is outside the region and playing elsewhere loses.
	Tenuki bool
}

// Stats describes one search.
type Stats struct {
	Nodes int64 // states generated (transitions made)
	// Depth is the deepest N completed for both roles: min(WinDepth,
	// LossDepth).
	Depth int
	// WinDepth is the deepest N to which the mover's wins were searched,
	// LossDepth the deepest to which the opponent's wins after each of the
	// mover's unresolved moves were. The two deepen separately (see
	// Search), so WinDepth may run ahead.
	WinDepth, LossDepth int
	Elapsed             time.Duration // wall-clock time
	// DepthTime is the elapsed time when each N completed for both roles
	// (index N-1).
	DepthTime []time.Duration
	// DepthNodes is the states generated when each N completed (index
	// N-1): unlike time, a deterministic measure of the work per depth.
	DepthNodes []int64
	Hits       int64       // transposition-table cutoffs (failures and wins)
	WinHits    int64       // the cutoffs that were wins
	Stopped    search.Stop // the limit that ended the search, if any
}

// Plies returns the plies of the longest win the completed depth covers:
// N attacker moves and the N−1 replies between them.
func (s Stats) Plies() int { return max(0, 2*s.Depth-1) }

// WinPlies returns the plies of the longest win of the mover's that the
// search covered: 2·WinDepth−1.
func (s Stats) WinPlies() int { return max(0, 2*s.WinDepth-1) }

// Result is what a search found.
type Result struct {
	Role  int          // the role to move at the root
	Moves []MoveResult // every legal move of Role, in move order
	// TenukiLoss is the opponent's moves to win when Role plays outside
	// the region, or 0 when no such win was found.
	TenukiLoss int
	Stats      Stats
}

// ErrNotAlternating is returned for a state where not exactly one role has
// a move with effects: local search handles turn-taking games only.
var ErrNotAlternating = errors.New("local: not exactly one role to move")

// Searcher runs local searches on the network its distance metric was
// measured on. It is not safe for concurrent use: make one per goroutine
// (the distance metric may be shared).
type Searcher struct {
	m     game.Machine // the caller's machine: states and moves in and out
	net   game.Machine // the distances' network, which the search runs on
	d     *distance.Metric
	opt   Options
	sim   game.Simulator // a simulator of net
	win   []int          // per role: the winning goal value
	roles int
	tt    []ttEntry
	plies []ply
	joint []game.Move
	one   []game.Move // single's scratch
	goals []int       // wins' scratch
	path  []anchor    // seed, then the attacker moves of the current sequence
	// near[k] holds, per defender move, its distance to the nearest of
	// path[0..k]: the defender's locality, kept with the path.
	near    [][]uint8
	nearBuf [][]uint8 // the rows near uses, one per path level
	nodes   int64
	hits    int64
	whits   int64
	hist    [][]uint64 // per role and move: the defender's history score
	// won is the attacker's move that last won at once (r = 1), for
	// defend's threat; exhaustive makes defend try every defence (tests).
	won        game.Move
	exhaustive bool
	iter       int   // N, the depth of the iteration running
	limit      int64 // node budget, 0 for none
	nextCheck  int64 // the node count at which halted next reads the context
	start      time.Time
	ctx        context.Context
	stop       search.Stop
	err        error // the simulator's first error, which ends the search
}

// anchor is a move with its role.
type anchor struct {
	role int
	move game.Move
}

// ply is one level's scratch.
type ply struct {
	bits   []uint64
	moves  []game.Move
	cand   []game.Move
	far    []game.Move // the defender's non-local moves
	keys   []uint64    // ordering scratch
	killer game.Move
}

// New returns a searcher for the games of m using the distance metric d
// (from distance.Of on a network of m's game). The search runs
// on d's network, at its speed, whatever m is: states of m are read by
// their facts, and moves are given and reported in m's numbering.
func New(m game.Machine, d *distance.Metric, opt Options) (*Searcher, error) {
	if m == nil || d == nil {
		return nil, errors.New("local: a machine and its distances are required")
	}
	if opt.MaxDepth <= 0 {
		opt.MaxDepth = DefaultMaxDepth
	}
	s := &Searcher{m: m, net: d.Machine(), d: d, opt: opt, sim: d.NewSimulator(), roles: len(m.Roles())}
	if len(d.Roles) != s.roles {
		return nil, errors.New("local: the distances belong to another game")
	}
	for r := 0; r < s.roles; r++ {
		s.win = append(s.win, d.WinValue(r))
	}
	if bits := opt.TableBits; bits >= 0 {
		if bits == 0 {
			bits = 20
		}
		s.tt = make([]ttEntry, 1<<min(bits, 28))
	}
	s.plies = make([]ply, 2*opt.MaxDepth+4)
	for i := range s.plies {
		s.plies[i].killer = game.NoMove
	}
	s.joint = make([]game.Move, s.roles)
	for r := 0; r < s.roles; r++ {
		s.hist = append(s.hist, make([]uint64, len(d.Moves[r])))
	}
	return s, nil
}

// Search runs the local search from state st, with the seed move (of
// seedRole) setting the locality; seed game.NoMove means no locality
// beyond the goal distance. It deepens until every legal move is
// resolved, MaxDepth is reached, or the budget (time, deadline or Nodes,
// counted as states generated) or ctx ends it.
//
// The mover's wins and its losses deepen separately: each step runs the
// next iteration of the one whose last iteration generated fewer states.
// The loss searches (one after each of the mover's moves) cost many times
// the win searches, and deepening both in step would hold the wins to the
// losses' depth.
func (s *Searcher) Search(ctx context.Context, st game.State, seedRole int, seed game.Move, b search.Budget) (*Result, error) {
	nst, err := s.d.StateOf(st)
	if err != nil {
		return nil, fmt.Errorf("local: %w", err)
	}
	if err := s.sim.SetState(nst); err != nil {
		return nil, err
	}
	if seed, err = s.move(s.m, s.net, seedRole, seed); err != nil {
		return nil, err
	}
	ctx, cancel := b.Context(ctx)
	defer cancel()
	s.ctx, s.stop, s.limit, s.nodes, s.hits, s.whits, s.nextCheck = ctx, search.StopNone, b.Nodes, 0, 0, 0, 0
	for _, h := range s.hist {
		clear(h)
	}
	s.start = time.Now()
	res, err := s.root(seedRole, seed)
	if err == nil {
		err = s.err
	}
	if err != nil {
		return nil, err
	}
	s.fillStats(res)
	return s.outward(res)
}

// move returns role's move mv of machine from as a move of machine to,
// through its text; game.NoMove stays.
func (s *Searcher) move(from, to game.Machine, role int, mv game.Move) (game.Move, error) {
	if from == to || mv == game.NoMove {
		return mv, nil
	}
	out, err := to.ParseMove(role, from.MoveText(role, mv))
	if err != nil {
		return game.NoMove, fmt.Errorf("local: %w", err)
	}
	return out, nil
}

// outward returns res with its moves in the caller's numbering: res itself
// when the caller's machine is the network, otherwise a copy.
func (s *Searcher) outward(res *Result) (*Result, error) {
	if s.m == s.net {
		return res, nil
	}
	cp := *res
	cp.Moves = append([]MoveResult(nil), res.Moves...)
	for i := range cp.Moves {
		mv, err := s.move(s.net, s.m, res.Role, cp.Moves[i].Move)
		if err != nil {
			return nil, err
		}
		cp.Moves[i].Move = mv
	}
	return &cp, nil
}

// fillStats records the search's counters and elapsed time in res.
func (s *Searcher) fillStats(res *Result) {
	res.Stats.Nodes, res.Stats.Hits, res.Stats.WinHits, res.Stats.Stopped = s.nodes, s.hits, s.whits, s.stop
	res.Stats.Elapsed = time.Since(s.start)
}
