// Package mcts owns gdlab's Monte Carlo tree search player: UCT over a
// graph of states with transpositions, in the shape the Sancho player
// described. Only decision states are nodes (forced moves and noops are
// played through), any number of roles choose by decoupled UCT selection
// (one bandit per role and node, which also covers simultaneous moves;
// with Options.DecisionNodes such roles choose in turn at nodes of their
// own instead, chain.go),
// nodes whose value is known exactly are marked solved and propagated
// (a solved root plays the most visited of its best proved moves, the one
// hardest to refute), nodes come from a bounded pool that is kept across turns, and playouts
// run in parallel on their own simulators with deterministic seeds.
//
// Four switches bring in the latch analysis of engine/analysis/latch, each on its
// own (see Options): latch-terminal nodes, wins relative to the achievable
// maximum, range-biased selection and range-guided playouts.
//
// Selection of role r's move i at a node visited N times, with n_i visits
// and mean value w_i (0..1) for r through move i, is
//
//	argmax_i  w_i + C·sqrt(ln N / n_i) + bias_i
//
// where bias_i is the range bias of switch 3 (0 when off) and an edge into
// a solved node uses that node's exact value in place of w_i; where
// several roles choose, exact ties are broken at random. With
// Options.PolyExplore the exploration term is C·N^(e/4)/√n_i instead
// (explore.go).
package mcts

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"time"

	"gdlab/engine/analysis"

	"gdlab/engine/analysis/distance"
	"gdlab/engine/analysis/emulate"
	"gdlab/engine/analysis/latch"
	"gdlab/engine/game"
	"gdlab/engine/heuristic"
	"gdlab/engine/search"
)

// Options configure the player. The zero value is plain UCT on one thread
// with the defaults below and no analysis.
type Options struct {
	Iterations int64 // playouts (iterations) per move; 0 means no limit besides the budget
	// Threads is how many cores a search uses; 0 means 1, negative means
	// runtime.NumCPU(). Several threads search one tree each from the same
	// root, and the move is chosen from their root statistics added
	// together (root parallelism, root.go); with SharedTree, they play out
	// the leaves of one tree in parallel instead.
	Threads    int
	SharedTree bool
	PoolSize   int     // node pool bound; 0 means 500000
	C          float64 // exploration constant on the 0..1 value scale; 0 means 0.4
	MaxSteps   int     // joint moves per playout; 0 means 1000
	// LeafBatch is how many random playouts evaluate each leaf that needs
	// one: 0 or 1 means one, the search as without the option bit for
	// bit; 2 to game.MaxBatch (64) that many, run from the leaf's state
	// through game.Playouts, all at once on a simulator that runs batches
	// (propnet.Flat's plays 64 on the lanes of one machine word) and one
	// after another on any other (under switches 4 and 5, whose playouts
	// are their own, always one after another). The leaf's value is the
	// mean of their goals, backed up as one visit: visits stay the
	// selections through a node, so virtual losses (one a leaf in play),
	// exact terminal and solved leaves (one visit each), the power mean's
	// weights, the root-parallel merge and the most-visited move keep
	// their meaning, where n visits a leaf would outweigh an exact leaf n
	// to 1 and shrink the exploration term as if the n playouts had
	// descended through n different children. The exploration term then
	// explores more than means of lower variance need; a smaller C makes
	// up for it. An iteration is one leaf, whatever its playouts:
	// Iterations and Stats.Iterations count leaves, Stats.Playouts counts
	// playouts, and Stats.NextCalls counts every playout's joint moves.
	// Budgets are checked between leaves, so a Next-call budget can be
	// passed by the last leaf's playouts (one leaf's a worker).
	LeafBatch int
	// Heuristic, if set, is blended into the value of every new node:
	// (1−HeuristicWeight)·playout + HeuristicWeight·heuristic.
	Heuristic       heuristic.Evaluator
	HeuristicWeight float64
	// Analysis is the latch analysis the switches use; when nil and a
	// switch is on, Start computes it on the machine's network (see
	// analysis.Network: a network, a wrapper of one, or a machine that
	// gives its rules, such as the prover).
	Analysis *latch.Analysis
	// LatchTerminal (switch 1): a node where every choosing role's
	// achievable range is a single value is a leaf with that value (the
	// root is still expanded one level).
	LatchTerminal bool
	// LatchWin (switch 2): a solved child that scores the maximum
	// achievable (not merely the maximum goal) for the role choosing at its
	// parent solves the parent as a win.
	LatchWin bool
	// LatchSelect (switch 3): selection favours moves that raise the
	// mover's minimum achievable score and disfavours moves that lower its
	// maximum.
	LatchSelect bool
	// LatchPlayout (switch 4): playouts avoid moves that lower the mover's
	// maximum achievable score when another move exists.
	LatchPlayout bool
	// VirtualTerminal (switch 5): a node whose final outcome the goal
	// counts already decide (emulate.VirtualTerminal: Dots and Boxes once
	// one side holds 13 of 25 boxes) is a solved leaf worth that outcome,
	// and playouts stop in such states. The root is still expanded.
	VirtualTerminal bool
	// Emulation supplies the virtual terminality; when nil and the switch
	// is on, Start takes it from an emulating machine (emulate.Of)
	// or computes it with emulate.Analyze on the machine's network.
	Emulation *emulate.Emulation
	// LocalSearch (a switch) feeds local-search hints to selection: see
	// localsearch.go and LocalPenalty. It needs a two-role turn-taking
	// game whose network analysis.Network can find or build.
	LocalSearch bool
	// LocalRetarget is how often the local-search worker is re-targeted;
	// 0 means one second.
	LocalRetarget time.Duration
	// Adapt is the meta-gaming of a player under a start clock: Start runs
	// the analyses and turns on, for this match, the switches measured to
	// pay off where the game's analysis says they apply: the four latch
	// switches when the latch analysis finds goal latches (notebook 04:
	// latch-aware MCTS against plain on escort-latch breakthrough), virtual
	// terminality when the goal emulation decides outcomes early (notebook
	// 05, Dots and Boxes) and local search when the move-distance rule
	// enables it (notebook 06, Breakthrough). An analysis that fails or
	// that the start budget cuts short leaves its switch off; Adapted says
	// what was decided and why.
	Adapt bool
	// PowerMean, when at least 1, is p of the power-mean backup (Power-UCT,
	// power.go): each role values a node by the power mean with exponent p
	// of its own moves' values, weighted by visits. 1 gives plain UCT's
	// choices exactly; large p approaches max backups. 0 means off (plain
	// UCT); values between 0 and 1 are refused.
	PowerMean float64
	// PolyExplore, when above 0, is the exponent e of the polynomial
	// exploration term C·N^(e/4)/√n that replaces UCT's c·√(ln N / n) in
	// selection (explore.go: a bonus of the polynomial kind that the
	// convergence analyses of power-mean MCTS use). It must lie in (0, 2);
	// 0 means UCT's term.
	PolyExplore float64
	// PolyExploreC is the polynomial term's constant C on the 0..1 value
	// scale; 0 means C's value. It may be set only with PolyExplore.
	PolyExploreC float64
	// DecisionNodes makes every node a decision of one role: where several
	// roles choose at once, they choose in turn at nodes of their own (the
	// player's own role first), and the state changes once all have chosen
	// (chain.go). A later role's node sees the earlier choices, which the
	// game hides: the player's values become those of committing first
	// (pure maximin), the opponents answering knowing its move. False
	// keeps one node per state, each choosing role with a bandit of its
	// own (decoupled UCT).
	// Turn-taking games search the same either way.
	DecisionNodes bool
	// Name overrides the player's name.
	Name string
}

// AllLatches returns o with all four latch switches on.
func (o Options) AllLatches() Options {
	o.LatchTerminal, o.LatchWin, o.LatchSelect, o.LatchPlayout = true, true, true, true
	return o
}

func (o Options) usesAnalysis() bool {
	return o.LatchTerminal || o.LatchWin || o.LatchSelect || o.LatchPlayout
}

func (o Options) threads() int {
	switch {
	case o.Threads < 0:
		return runtime.NumCPU()
	case o.Threads == 0:
		return 1
	}
	return o.Threads
}

func (o Options) poolSize() int {
	if o.PoolSize <= 0 {
		return 500000
	}
	return o.PoolSize
}

func (o Options) c() float64 {
	if o.C <= 0 {
		return 0.4
	}
	return o.C
}

// leafBatch is how many playouts evaluate a leaf.
func (o Options) leafBatch() int { return max(o.LeafBatch, 1) }

func (o Options) maxSteps() int {
	if o.MaxSteps <= 0 {
		return 1000
	}
	return o.MaxSteps
}

// Player is the MCTS player. It implements search.Player. Its tree
// survives from one Play to the next within a match.
type Player struct {
	base  Options // as given to New; Start adapts a copy when Adapt is on
	opt   Options
	m     game.Machine // the machine of Setup, metering wrappers included
	role  int
	seed  uint64
	an    *latch.Analysis
	t     *tree   // the search tree (the first one under root parallelism)
	more  []*tree // the other trees under root parallelism
	last  Stats
	moves int // Play calls so far, mixed into the seeds

	adapted Adaptation
	metric  *distance.Metric // the move distances Adapt computed, for local search
}

// New returns a player with the given options.
func New(opt Options) *Player { return &Player{base: opt, opt: opt} }

// Name describes the player, such as "mcts" or "mcts+latch(1234)".
func (p *Player) Name() string {
	if p.opt.Name != "" {
		return p.opt.Name
	}
	s := "mcts"
	if p.opt.usesAnalysis() {
		s += "+latch("
		for i, on := range []bool{p.opt.LatchTerminal, p.opt.LatchWin, p.opt.LatchSelect, p.opt.LatchPlayout} {
			if on {
				s += fmt.Sprint(i + 1)
			}
		}
		s += ")"
	}
	if p.opt.VirtualTerminal {
		s += "+virtual"
	}
	if p.opt.LocalSearch {
		s += "+local"
	}
	if p.opt.PowerMean > 0 {
		s += fmt.Sprintf("+power(%g)", p.opt.PowerMean)
	}
	if p.opt.PolyExplore > 0 {
		s += fmt.Sprintf("+poly(%g)", p.opt.PolyExplore)
	}
	if p.opt.DecisionNodes {
		s += "+decision"
	}
	if p.opt.LeafBatch > 1 {
		s += fmt.Sprintf("+batch(%d)", p.opt.LeafBatch)
	}
	return s
}

// Options returns the player's options.
func (p *Player) Options() Options { return p.opt }

// Analysis returns the latch analysis in use, or nil.
func (p *Player) Analysis() *latch.Analysis { return p.an }

// Start prepares a match: it records the machine and role, seeds the
// search, and runs the analyses the switches need. Every Next call of the
// search, in the tree and in playouts, goes through Setup's machine and
// its simulators, so a metering machine (search.Counter) counts them all.
func (p *Player) Start(ctx context.Context, setup search.Setup) error {
	if setup.Machine == nil {
		return errors.New("mcts: Setup has no Machine")
	}
	if setup.Role < 0 || setup.Role >= len(setup.Machine.Roles()) {
		return fmt.Errorf("mcts: role %d out of range", setup.Role)
	}
	if pm := p.base.PowerMean; pm != 0 && !(pm >= 1 && !math.IsInf(pm, 1)) {
		return fmt.Errorf("mcts: PowerMean %g: p must be 0 (off) or a finite number at least 1", pm)
	}
	if err := p.base.checkExplore(); err != nil {
		return err
	}
	if lb := p.base.LeafBatch; lb < 0 || lb > game.MaxBatch {
		return fmt.Errorf("mcts: LeafBatch %d: a leaf takes 0 to %d playouts", lb, game.MaxBatch)
	}
	p.m = setup.Machine
	p.role, p.seed, p.moves = setup.Role, setup.Seed, 0
	p.opt, p.adapted, p.metric = p.base, Adaptation{}, nil
	p.an = p.opt.Analysis
	if p.opt.Adapt {
		p.adapt(ctx, setup)
	}
	if p.an == nil && p.opt.usesAnalysis() {
		ctx, cancel := setup.Budget.Context(ctx)
		defer cancel()
		net, err := analysis.Network(ctx, p.m)
		if err != nil {
			return fmt.Errorf("mcts: latch switches: %w", err)
		}
		if p.an, err = latch.Analyze(ctx, net, latch.Options{}); err != nil {
			return fmt.Errorf("mcts: latch analysis: %w", err)
		}
	}
	vt, err := p.virtual(ctx, setup)
	if err != nil {
		return err
	}
	topt := p.opt.treeOptions()
	if p.t, err = newTree(p.m, p.an, vt, topt); err != nil {
		return err
	}
	p.t.first = p.role
	p.more = nil
	for i := 1; i < p.opt.rootTrees(); i++ {
		t, err := newTree(p.m, p.an, vt, topt)
		if err != nil {
			return err
		}
		t.first = p.role
		p.more = append(p.more, t)
	}
	if p.opt.LocalSearch {
		p.t.ls, err = newFeeder(ctx, p.m, p.metric, p.opt.LocalRetarget)
		if err != nil && p.adapted.Local {
			// Adapt chose it; a game local search cannot serve is played without.
			p.opt.LocalSearch, p.adapted.Local = false, false
			p.adapted.Why = append(p.adapted.Why, "local search off after all: "+err.Error())
			p.t.ls, err = nil, nil
		}
	}
	return err
}

// virtual returns the virtual terminality switch 5 uses, or nil when the
// switch is off or the emulation found none.
func (p *Player) virtual(ctx context.Context, setup search.Setup) (*emulate.VirtualTerminal, error) {
	if !p.opt.VirtualTerminal {
		return nil, nil
	}
	em := p.opt.Emulation
	if em == nil {
		em = emulate.Of(p.m)
	}
	if em == nil {
		ctx, cancel := setup.Budget.Context(ctx)
		defer cancel()
		net, err := analysis.Network(ctx, p.m)
		if err != nil {
			return nil, fmt.Errorf("mcts: virtual terminality: %w", err)
		}
		if em, err = emulate.Analyze(ctx, net, p.an, emulate.Options{}); err != nil {
			return nil, fmt.Errorf("mcts: goal emulation: %w", err)
		}
	}
	return em.Virtual, nil
}

// Stats describes the last search.
type Stats struct {
	Iterations int64         // leaves evaluated: by their playouts, or exactly (terminal, solved)
	Playouts   int64         // random playouts run (LeafBatch a leaf played out)
	Expansions int64         // nodes created
	NextCalls  int64         // Next calls, in the tree and in playouts
	PoolNodes  int           // nodes in the pool after the search
	RootSolved bool          // the root's value is exact
	RootValue  []float64     // the root's exact value per role when solved
	Time       time.Duration // wall-clock time of the search
}

// IterationsPerSecond is the search speed.
func (s Stats) IterationsPerSecond() float64 {
	if s.Time <= 0 {
		return 0
	}
	return float64(s.Iterations) / s.Time.Seconds()
}

// LastStats returns the statistics of the last Play or Search.
func (p *Player) LastStats() Stats { return p.last }

// Play searches from s within the budget and the iteration limit and
// returns the move with the most visits, or a move proved to reach the
// role's best achievable value.
func (p *Player) Play(ctx context.Context, s game.State, b search.Budget) (game.Move, search.Report, error) {
	start := time.Now()
	if p.t == nil {
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
		return moves[0], search.Report{Used: search.Usage{Time: time.Since(start)}, Value: -1}, nil
	}
	stop, err := p.Search(ctx, s, b)
	if err != nil {
		return moves[0], search.Report{Value: -1}, err
	}
	mv, val := p.bestMoveAll(p.role)
	if mv == game.NoMove {
		mv, val = moves[0], -1
	}
	if p.t.ls != nil {
		p.t.ls.prev, p.t.ls.prevMove = s, mv // to find the opponent's reply next turn
	}
	st := p.last
	rep := search.Report{
		Used:     search.Usage{Time: time.Since(start), Nodes: st.Expansions, NextCalls: st.NextCalls},
		Depth:    p.maxDepth(),
		Value:    val,
		Complete: st.RootSolved,
		Stopped:  stop,
	}
	return mv, rep, nil
}

// Search runs the search from s without choosing a move, leaving the tree
// for inspection (Root, DepthProfile). It stops at the iteration limit, the
// budget (time, deadline, node creations), when ctx ends, or when the
// root is solved, and reports which limit stopped it.
func (p *Player) Search(ctx context.Context, s game.State, b search.Budget) (search.Stop, error) {
	if p.t == nil {
		return search.StopNone, search.ErrNotStarted
	}
	p.moves++
	seed := heuristic.Mix(p.seed ^ uint64(p.moves)*0x9e3779b97f4a7c15)
	if p.t.ls != nil {
		p.t.ls.start(ctx)
		defer p.t.ls.stop()
	}
	st, stop, err := p.searchAll(ctx, s, b, seed)
	p.last = st
	return stop, err
}
