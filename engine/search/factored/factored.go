// Package factored owns search on the factors of a game: a player that,
// where engine/analysis/factor finds independent subgames, runs one MCTS
// or alpha-beta search per factor and moves in the factor whose search
// values its best move highest, and that plays the plain search where the
// game does not factor or the switch is off.
//
// A factor's search is Sancho's search of a subgame with the others held:
// the real game, its states and its goals, in which the roles may play
// only the factor's moves and the moves that change no factor (their
// noops). In a puzzle the other factors keep their state, so each goal's
// combination of the factors reduces to the searched factor's part: with
// a sum (Analysis.Sums), the other factors' scores are constants and the
// search maximises its own; with a disjunction, the other parts are false
// (or the game would be over) and the goal is the factor's part; with a
// conjunction, the other parts are as they are now, and the factor's part
// decides when they hold (the factor to protect in
// factoringMutuallyAssuredDestruction), while none is preferred when they
// do not. The values of the factors are thus values of the same real
// goal, comparable across factors, and the player moves in the factor
// with the highest (the first, on a tie). A state where a restricted role
// has no allowed move is terminal in the subgame: the factor has nothing
// left to play.
//
// A factor is searched where it can be played apart from the others: a
// goal or the terminal reads it, the player's role moves in it, and some
// role has a move of its own there, one that changes no other factor. A
// factor whose every move changes other factors too (asteroidsParallel,
// where each move steers both ships; the conditional factors of
// mummymaze2p, where every move changes several of them) has no
// subgame of its own, and the player searches the whole game when no
// factor qualifies.
//
// In a game of several roles the factors are played side by side, and a
// move's worth is its tempo: a reply may come on another board. There
// each factor is searched as one game of a sum of games: every role may
// also pass, playing a move in another factor whose effect there is
// undone (the other factors are held still: engine/analysis/splice keeps
// their base propositions), and once the factor is played out the search
// goes on in the whole game, so that a factor finished before the others
// is valued by what the rest gives. It goes on in the whole game too
// after a round of passes (every role passing in turn, which would lead
// back to where it started): nobody wants to move in the factor, and the
// rest of the game decides. The player moves in the factor where
// its move gains most over its pass (a proven win first): the board
// where the opponent threatens, or where a move wins a tempo, not the
// one whose position merely looks best. Options.NoPasses restricts the
// player's role only instead (and the others with HoldOpponents), and
// compares the factors' values.
//
// MCTS on factors splits a move's budget in two (Options.Lead): every
// factor's search gets an equal share of the first part, and the factor
// whose move gains most is searched again with the rest, its tree grown
// further, since the move is played there. Where the game ends when any
// factor ends and its goals read the factors by disjunction
// (dualConnect4), a factor's search also keeps its tree from move to move
// (Options.NoTreeReuse switches it off): it holds the other factors as
// they stood at its first search, which leaves its subgame as it is while
// they are unfinished, so the real position is a node of its tree again
// whichever board the moves since went to.
//
// With Options.AlphaBeta every search is iterative-deepening alpha-beta
// (search.AlphaBeta) on the same subgames. It fits puzzles, and games
// whose factors are small enough to search to the end: a factor's tree is
// the product of one factor's moves, not of all, so a board of a
// multi-board puzzle is proved in a small part of the nodes the whole
// game needs, and a proven win ends the move's search. In a game of
// several roles a factor's alpha-beta searches its sum-of-games view
// (passes included) and compares the factors by value: a factor whose
// best move is its pass offers none. With NoPasses and the opponents free
// it is paranoid over the opponents' full move set (a min node tries
// every joint reply, in any factor); with HoldOpponents it is the value
// against answers in the factor only. Where
// factors are too deep to search through, the values are the evaluator's
// estimates at the depth reached in each factor's share of the budget,
// and MCTS is the better fit.
//
// With Options.Conditional the factoring follows the match: facts that
// latches keep for the rest of the match are constants of the game from
// then on, and the game given them may split where the whole game does
// not (the course's conditional factors). The player reads them at each
// move and analyses the game given them when they change, within a
// quarter of the move's time; a factoring with more factors to move in
// replaces the one in use.
package factored

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"gdlab/engine/analysis"
	"gdlab/engine/analysis/factor"
	"gdlab/engine/analysis/latch"
	"gdlab/engine/game"
	"gdlab/engine/heuristic"
	"gdlab/engine/search"
	"gdlab/engine/search/mcts"
)

// Options configure the player. The zero value searches factors with
// plain single-threaded MCTS (mcts.Options' zero value).
type Options struct {
	// MCTS configures every search, of a factor or of the whole game,
	// unless AlphaBeta is set. Its Iterations, when set, are shared
	// equally among the factors searched in a move, unless PerFactor.
	MCTS mcts.Options
	// PerFactor gives every factor's MCTS search the whole of
	// MCTS.Iterations instead of an equal share: a move over k factors
	// then runs k times the iterations of the plain search. It tells the
	// factored model apart from its divided budget: a factored player
	// that loses even so loses by what its searches see, not by how
	// little each gets.
	PerFactor bool
	// AlphaBeta, when not nil, makes every search iterative-deepening
	// alpha-beta instead of MCTS: each search plays a fresh copy of this
	// value, so its Eval, MaxDepth, TableSize, NoTable and NoOrdering
	// carry over. Budgets are shared among the factors as for MCTS.
	AlphaBeta *search.AlphaBeta
	// Unfactored is the switch: true plays the plain search (exactly
	// mcts.New(MCTS), or a copy of AlphaBeta) whatever the analysis would
	// find.
	Unfactored bool
	// Analysis is the factoring to use; when nil, Start computes it on
	// the machine's network (analysis.Network) under the start clock.
	Analysis *factor.Analysis
	// Factor configures that analysis.
	Factor factor.Options
	// HoldOpponents, with NoPasses, restricts the other roles to the
	// factor as well, as Sancho's puzzles do; otherwise (with NoPasses)
	// only the player's role is restricted and the others play any legal
	// move, so that an answer on another board is seen, but the player
	// may never answer it there.
	HoldOpponents bool
	// NoPasses switches off the sum-of-games view of games of several
	// roles. By default, in such a game every role in a factor's search
	// plays the factor's moves, its noops, or a pass (a move in another
	// factor whose effect there is undone: the other factors are held
	// still), until the factor is played out or a round of passes is
	// played, when the subgame goes on as the whole game; the player then
	// moves in the factor where moving
	// gains most over passing (the value of its best move less the value
	// of its pass; a proven win first), since there a reply may come on
	// another board and a move's worth is its tempo. With NoPasses, the
	// searches restrict the player's role only (and the others with
	// HoldOpponents), and the factor valued highest is moved in.
	// Single-player games never pass.
	NoPasses bool
	// NoTreeReuse starts every factor's search afresh at every move. By
	// default, with passes, in a game that ends when any factor ends and
	// whose goals read the factors by disjunction (or one alone), a
	// factor's search keeps its tree from move to move, as plain MCTS
	// does: there a factor's subgame plays the same whatever the other
	// factors hold while they are unfinished, so each search holds them
	// as they were at its first move (restricted.rebase), and the real
	// state, seen with those, is a node of its tree. Its branches that go
	// on as the whole game (after a round of passes, or once the factor
	// is played out) play on with the other factors as held, an older
	// position of theirs than the real one. Elsewhere the other
	// factors' positions can change the subgame's values, the searches
	// hold them as they are, and a move anywhere else leaves the tree's
	// nodes behind.
	NoTreeReuse bool
	// Lead is the share of a move's budget (its time, nodes and Next
	// calls) that MCTS on factors keeps back from the factors' equal
	// shares and gives to the leading factor (the one whose move gains
	// most) to search on: a move is chosen in one factor, and there its
	// search decides which. 0 means DefaultLead; a negative value splits
	// the whole budget equally. With MCTS.Iterations set, or with
	// AlphaBeta, the budget is split equally.
	Lead float64
	// Conditional switches on conditional factoring: Start finds the
	// game's latches, and at each move the player reads the facts the
	// state's latches keep for the rest of the match. When they have
	// changed, it analyses the game given them (factor.AnalyzeGiven)
	// within a quarter of the move's time, and when that factoring gives
	// the role more factors to search (see the package doc) than the one
	// in use (at least two), it searches those from then on, with fresh
	// searches. A game that does not factor at the start may thus factor
	// later.
	Conditional bool
	// Name overrides the player's name.
	Name string
}

// DefaultLead is Options.Lead's default.
const DefaultLead = 0.75

// Player is the factored player. It implements search.Player and
// search.Preparer.
type Player struct {
	opt   Options
	m     game.Machine
	role  int
	an    *factor.Analysis
	plain searcher // the whole game's search when it does not factor
	whole searcher // the fallback when no factor offers a move
	parts []part
	why   string
	last  Stats
	cond  *conditional // nil unless Options.Conditional
}

// part is the search of one factor.
type part struct {
	factor int // index into Analysis.Factors
	sub    *restricted
	s      searcher
	held   game.State // the last state searched from, nil before the first
}

// Stats describe the last move's searches.
type Stats struct {
	Factored bool // the move came from the factors' searches
	// Factors lists the factors searched (indexes into
	// Analysis.Factors), Values the value each gave its best move
	// (0..100, -1 when it offered none), Reports each factor's report
	// (its nodes, depth and whether its value is exact, with passes the
	// chosen move's; the zero Report but for Value -1 where the role had
	// no move in the factor) and Searches each factor's MCTS statistics
	// (the zero Stats where the role had no move; nil with alpha-beta).
	// A factor searched twice (the lead's second search) has the usage
	// and the counts of both added up, and the rest of the second's.
	Factors  []int
	Values   []float64
	Reports  []search.Report
	Searches []mcts.Stats
	// Gains are, with passes, what each factor's move gains over passing
	// there (the factor's value without passes), the measure the factor
	// moved in is chosen by.
	Gains  []float64
	Chosen int // the factor moved in, -1 when none
	// Solved says the chosen factor's value is exact in its subgame: its
	// MCTS search solved its root (with passes: the chosen move's child),
	// or its alpha-beta search was Complete.
	// The move's Report does not claim it (Complete stays false): in the
	// real game the player may move in the other factors too. Where the
	// whole game is searched (unfactored), Solved is the Report's
	// Complete.
	Solved bool
	// Iterations adds up the MCTS iterations of every search of the
	// move, Nodes the node expansions (Report.Used.Nodes) of every search
	// of the move, the whole game's fallback included, and Time is the
	// move's time, the conditional analysis included.
	Iterations int64
	Nodes      int64
	Time       time.Duration
	// Given is the number of latched facts the factoring in use was
	// given (Options.Conditional); 0 for the game's own factoring.
	// Refactored says this move adopted that factoring, and Analysis is
	// the time the move spent analysing the game given latched facts.
	Given      int
	Refactored bool
	Analysis   time.Duration
}

// New returns a player with the given options.
func New(opt Options) *Player { return &Player{opt: opt} }

// Name describes the player: "mcts+factors", or "mcts" when switched off;
// "alphabeta+factors" and "alphabeta" with Options.AlphaBeta.
func (p *Player) Name() string {
	if p.opt.Name != "" {
		return p.opt.Name
	}
	name := "mcts"
	if p.opt.AlphaBeta != nil {
		name = "alphabeta"
	}
	if p.opt.Unfactored {
		return name
	}
	return name + "+factors"
}

// Analysis returns the factoring in use, or nil when the match is
// searched unfactored.
func (p *Player) Analysis() *factor.Analysis { return p.an }

// Factored reports whether the match is searched on factors.
func (p *Player) Factored() bool { return p.plain == nil && p.m != nil }

// Prepared says whether the match is searched on factors, and why.
func (p *Player) Prepared() string { return p.why }

// LastStats returns the statistics of the last Play.
func (p *Player) LastStats() Stats { return p.last }

// Start prepares a match: it analyses the game (unless switched off or
// given an analysis) and starts one search per factor it can search
// (see the package doc), or one plain MCTS or alpha-beta player when the
// game does not factor or no factor can be searched, started with the
// very same setup so that it plays identically.
func (p *Player) Start(ctx context.Context, setup search.Setup) error {
	if setup.Machine == nil {
		return errors.New("factored: Setup has no Machine")
	}
	if setup.Role < 0 || setup.Role >= len(setup.Machine.Roles()) {
		return fmt.Errorf("factored: role %d out of range", setup.Role)
	}
	p.m, p.role, p.an, p.plain, p.whole, p.parts, p.last, p.cond = setup.Machine, setup.Role, nil, nil, nil, nil, Stats{}, nil
	if p.opt.Unfactored {
		p.why = "unfactored: switched off"
		p.plain = p.newSearcher(1)
		return p.plain.Start(ctx, setup)
	}
	an, condWhy, err := p.prepare(ctx, setup)
	switch {
	case err != nil:
		p.why = "unfactored: " + err.Error()
	case !an.Factored():
		p.why = "unfactored: the game does not factor"
	default:
		p.an = an
	}
	err = p.startSearches(ctx, setup)
	p.why += condWhy
	if p.cond != nil {
		p.cond.base, p.cond.baseWhy = p.an, p.why
	}
	return err
}

// startSearches starts the searches of p.an's factors, or the plain
// searcher when p.an is nil, no factor can be searched, or the factors'
// searches cannot all be started (an analysis or a start that ran out of
// the start clock): the match is then played unfactored, and Prepared
// says why.
func (p *Player) startSearches(ctx context.Context, setup search.Setup) error {
	if p.an != nil {
		if err := p.startParts(ctx, setup); err != nil {
			p.an, p.parts, p.whole, p.why = nil, nil, nil, "unfactored: "+err.Error()
		}
	}
	if p.an != nil {
		return nil
	}
	p.plain = p.newSearcher(1)
	return p.plain.Start(ctx, setup)
}

// prepare returns the game's factoring (Options.Analysis, or computed
// under the start clock) and, with Options.Conditional, finds the game's
// latches with what the clock leaves, for Play to read the facts they
// keep; the two analyses share one network. When the latches cannot be
// found, the match is played without conditional factoring, and condWhy
// says why.
func (p *Player) prepare(ctx context.Context, setup search.Setup) (an *factor.Analysis, condWhy string, err error) {
	ctx, cancel := setup.Budget.Context(ctx)
	defer cancel()
	an = p.opt.Analysis
	if an != nil && !p.opt.Conditional {
		return an, "", nil
	}
	net, err := analysis.Network(ctx, setup.Machine)
	switch {
	case err != nil && an != nil:
		return an, "; no conditional factoring: " + err.Error(), nil
	case err == nil && an == nil:
		an, err = factor.Analyze(ctx, net, p.opt.Factor)
	}
	if err != nil || !p.opt.Conditional {
		return an, "", err
	}
	// Pairs of latches are not sought: the factoring is given single facts.
	lat, err := latch.Analyze(ctx, net, latch.Options{MaxPairLatches: -1})
	if err != nil {
		return an, "; no conditional factoring: " + err.Error(), nil
	}
	opt := p.opt.Factor
	p.cond = &conditional{lat: lat, setup: setup,
		analyse: func(ctx context.Context, given []factor.Fact) (*factor.Analysis, error) {
			return factor.AnalyzeGiven(ctx, net, given, opt)
		}}
	return an, "", nil
}

// startParts starts a search for every factor the role can search (see
// searchable), and the whole game's search as a fallback; where there is
// none, it sets p.an to nil and starts nothing.
func (p *Player) startParts(ctx context.Context, setup search.Setup) error {
	searched := searchable(p.an, p.role)
	if len(searched) == 0 {
		p.an, p.why = nil, "unfactored: the role moves in no relevant factor that has moves of its own"
		return nil
	}
	for _, k := range searched {
		sub, err := p.subgame(k)
		if err != nil {
			return err
		}
		pl := p.newSearcher(len(searched))
		s := setup
		s.Machine, s.Seed = sub, heuristic.Mix(setup.Seed^uint64(k+1)*0x9e3779b97f4a7c15)
		if err := pl.Start(ctx, s); err != nil {
			return err
		}
		p.parts = append(p.parts, part{factor: k, sub: sub, s: pl})
	}
	p.whole = p.newSearcher(1)
	p.why = p.describe(searched)
	return p.whole.Start(ctx, setup)
}

// searchable lists the relevant factors of an in which role has moves
// and some role has a move of its own, one that changes that factor
// alone. In a factor where every move changes other factors too, no move
// can be searched apart from them: with passes the subgame is played out
// from the start and goes on as the whole game, and without them the
// search follows moves whose effects on the other factors it does not
// see; the role searches such a factor only as part of the whole game.
func searchable(an *factor.Analysis, role int) []int {
	var out []int
	for k, f := range an.Factors {
		if f.Relevant && role < len(f.Moves) && len(f.Moves[role]) > 0 && hasOwnMoves(an, f) {
			out = append(out, k)
		}
	}
	return out
}

// hasOwnMoves reports whether some role has a move of f that changes no
// other factor.
func hasOwnMoves(an *factor.Analysis, f factor.Factor) bool {
	for r, ms := range f.Moves {
		if len(soloMoves(an, r, ms)) > 0 {
			return true
		}
	}
	return false
}

// subgame returns factor k's restricted machine. The analysis numbers
// moves as the network does; the machine may number them otherwise, so
// they are carried over by their text.
func (p *Player) subgame(k int) (*restricted, error) {
	f := p.an.Factors[k]
	sub := &restricted{Machine: p.m, allow: make([]moveSet, len(p.an.Roles)), own: make([]moveSet, len(p.an.Roles)), solo: make([]moveSet, len(p.an.Roles))}
	for r := range p.an.Roles {
		if r != p.role && !p.opt.HoldOpponents && !p.passes() {
			sub.allow[r].all = true
			continue
		}
		var own, noops []game.Move
		if r < len(f.Moves) {
			own = f.Moves[r]
		}
		if r < len(p.an.Noops) {
			noops = p.an.Noops[r]
		}
		if err := p.addMoves(&sub.allow[r], r, own, noops); err != nil {
			return nil, fmt.Errorf("factored: factor %d: %w", k, err)
		}
		if err := p.addMoves(&sub.own[r], r, own); err != nil {
			return nil, fmt.Errorf("factored: factor %d: %w", k, err)
		}
		if err := p.addMoves(&sub.solo[r], r, soloMoves(p.an, r, own)); err != nil {
			return nil, fmt.Errorf("factored: factor %d: %w", k, err)
		}
	}
	if p.passes() {
		sub.hold = &holding{props: p.an.Bases, carry: !p.opt.NoTreeReuse && endsByAny(p.an)}
		for j, g := range p.an.Factors {
			if j != k {
				sub.hold.others = append(sub.hold.others, g.Bases...)
			}
		}
		if _, err := sub.newSim(); err != nil {
			return nil, err
		}
	}
	return sub, nil
}

// endsByAny says whether the game ends when any factor ends and every
// goal reads the factors by disjunction, or one factor or the context
// alone: while the other factors are unfinished, the searched factor's
// parts of the outputs decide its subgame (see Options.NoTreeReuse).
func endsByAny(an *factor.Analysis) bool {
	if an.Terminal == nil || an.Terminal.Join != factor.Disjunction || an.Terminal.WithContext {
		return false
	}
	for _, gs := range an.Goals {
		for _, g := range gs {
			switch g.Join {
			case factor.Disjunction, factor.ReadsOne, factor.ReadsContext:
			default:
				return false
			}
		}
	}
	return true
}

// lead is the share of a move's budget the leading factor gets (see
// Options.Lead).
func (p *Player) lead() float64 {
	switch {
	case len(p.parts) < 2 || p.opt.AlphaBeta != nil || p.opt.MCTS.Iterations > 0 || p.opt.Lead < 0:
		return 0
	case p.opt.Lead == 0:
		return DefaultLead
	}
	return min(p.opt.Lead, 1)
}

// passes says whether factors are searched with passes: in games of
// several roles, unless Options.NoPasses.
func (p *Player) passes() bool { return !p.opt.NoPasses && len(p.an.Roles) > 1 }

// soloMoves are role r's moves of own that change no other factor of
// an: a joint move (a noop whose frame rules touch every board) does not
// show that the factor is still played.
func soloMoves(an *factor.Analysis, r int, own []game.Move) []game.Move {
	var out []game.Move
	for _, mv := range own {
		if !slices.ContainsFunc(an.Joint, func(j factor.JointMove) bool { return j.Role == r && j.Move == mv }) {
			out = append(out, mv)
		}
	}
	return out
}

// addMoves adds role r's moves of the lists, numbered as the analysis
// numbers them, to ms in the machine's numbering: the two may differ, so
// moves are carried over by their text.
func (p *Player) addMoves(ms *moveSet, r int, lists ...[]game.Move) error {
	for _, l := range lists {
		for _, mv := range l {
			real, err := p.m.ParseMove(r, p.an.Moves[r][mv])
			if err != nil {
				return fmt.Errorf("move %s: %w", p.an.Moves[r][mv], err)
			}
			ms.add(real)
		}
	}
	return nil
}

// describe says what Start decided, with the goal structure it relies on.
func (p *Player) describe(searched []int) string {
	var joins []string
	if t := p.an.Terminal; t != nil {
		joins = append(joins, "terminal "+string(t.Join))
	}
	if p.role < len(p.an.Goals) {
		for _, g := range p.an.Goals[p.role] {
			joins = append(joins, g.Output+" "+string(g.Join))
		}
	}
	return fmt.Sprintf("factored: %d of %d factors searched %v; %s", len(searched), len(p.an.Factors), searched, strings.Join(joins, ", "))
}
