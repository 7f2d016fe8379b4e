// Package factor owns the detection of independent subgames (factors) in
// a game's propositional network: which base and input propositions form
// parts of the game that do not influence one another's next and legal
// logic, how the goals and the terminal condition combine the parts, which
// moves are shared by several parts or change none, and, when the game
// does not factor, the propositions that couple the candidate parts. Verify
// checks a factoring by seeded random play through the game.Machine
// contract.
//
// The dependency graph is read off the network's gates. A base
// proposition p depends on a base q when next(p) reads q, and on a move m
// when next(p) reads m and m can change p (the move's effects, as the
// move-distance metric defines them: a frame rule that reads every move,
// "the cell keeps its mark unless the move played marks it", does not make
// every move an effect; a frame rule "the cell stays blank when another
// cell is marked" makes the unread move an effect by its absence). A
// move's legality reads its enablers. Base
// propositions that change without any move, from one another only (step
// counters, a turn marker that alternates, facts that never change), are
// the context: every factor may read them, since their values follow from
// the number of steps played alone. The remaining base propositions are
// joined when next(p) reads q, when a move's enabler and its effect lie in
// different parts, and when a goal or the terminal needs conditions on
// several parts at once (see Coupled) and does not add per-factor scores
// (see Score); the parts that remain are the factors. A move whose
// legality reads only the context may change several factors: it is a
// joint move, one move in each.
package factor

import (
	"context"
	"fmt"
	"slices"

	"gdlab/engine/analysis/internal/circuit"
	"gdlab/engine/analysis/latch"
	"gdlab/engine/game"
	"gdlab/engine/propnet"
)

// Options switch the inferences of Analyze off one by one, to measure what
// each contributes. The zero value turns every inference on.
type Options struct {
	// NoContext keeps the context propositions (counters, turn markers)
	// among the candidates: every factor that reads one is joined to it.
	NoContext bool
	// NoKeepTest takes every move a next output reads as an effect of the
	// move, without the three-valued test that proves frame rules leave
	// the proposition as it was.
	NoKeepTest bool
	// NoJointMoves joins the factors a move changes together; by default
	// a move whose legality reads the context only (a noop, a press that
	// is always legal) and that changes several factors is kept as a joint
	// move of each (Analysis.Joint).
	NoJointMoves bool
	// ProductMoves also keeps apart the parts changed by a move whose
	// legality is an AND of conditions that each read the context or one
	// part the move changes, as in games where one move marks a cell on
	// each of two boards. Such a move is one move in each part only if
	// every combination of parts' moves is a move, which the network does
	// not show: the inference is off by default, and Verify finds where it
	// fails (blocksWorldParallel, blockerParallel).
	ProductMoves bool
	// NoCombination skips the analysis of goals and terminal.
	NoCombination bool
	// NoSums does not try to read a role's coupled goal outputs as a sum
	// of per-factor scores (see Score), so they join their factors.
	NoSums bool
	// NoOutputJoins keeps factors that a goal or the terminal couples (see
	// Coupled) apart; by default they are joined, until every output
	// combines the factors it reads by one OR or one AND.
	NoOutputJoins bool
}

// Analysis is the factoring of one game's network.
type Analysis struct {
	Roles []string
	Bases []string   // the base propositions' facts (Net.BaseProps)
	Moves [][]string // per role: its moves (Net.InputProps)
	// Context lists the base propositions set apart as context.
	Context []int
	// Factors are the parts of the other base propositions, largest first
	// (ties by their first base proposition).
	Factors []Factor
	// Noops lists per role the moves that change no factor.
	Noops [][]game.Move
	// Joint lists the moves that change several factors.
	Joint []JointMove
	// Couplings are the joins that merged two candidate parts, those
	// between the largest parts first (at most MaxCouplings): why the game
	// does not factor further.
	Couplings []Coupling
	// Joins counts every join of two candidate parts.
	Joins int
	// Terminal and Goals (per role, per goal value) say how the outputs
	// combine the factors; nil with Options.NoCombination.
	Terminal *Combination
	Goals    [][]Combination
	// Sums holds per role the per-factor scores its goal adds up, or nil
	// when its goal is no sum.
	Sums [][]Score
	// Given lists the facts the analysis took as fixed (AnalyzeGiven):
	// the factoring holds in the states where they hold for the rest of
	// the game. Nil for the factoring of every state.
	Given    []Fact
	opt      Options
	circuit  *circuit.Circuit // for Verify's check of sums
	factorOf []int            // base -> factor, -1 for context
	effects  [][][]int        // per role, per move: the bases it can change
}

// MaxCouplings bounds Analysis.Couplings.
const MaxCouplings = 5

// Factor is one independent part of the game.
type Factor struct {
	Bases []int // base propositions, ascending
	// Moves lists per role the moves that change a base proposition of
	// the factor (ascending; a joint move appears in each factor it
	// changes).
	Moves [][]game.Move
	// Relevant: a goal or the terminal reads the factor. A factor no
	// output reads (a cell that stays blank, a light nothing asks about)
	// changes nothing that matters, and its moves are as good as noops.
	Relevant bool
}

// Size is the factor's base propositions and moves, all roles together.
func (f Factor) Size() (bases, moves int) {
	for _, ms := range f.Moves {
		moves += len(ms)
	}
	return len(f.Bases), moves
}

// JointMove is a move that changes several factors at once.
type JointMove struct {
	Role    int
	Move    game.Move
	Factors []int // indexes into Analysis.Factors, ascending
}

// Coupling is one join of two candidate parts: the dependency that joined
// them and the parts' sizes (base propositions) before the join.
type Coupling struct {
	Why   string
	Sizes [2]int
}

// Factored reports whether the game splits into at least two factors in
// which some role moves.
func (a *Analysis) Factored() bool { return a.moving() >= 2 }

// FactorOf returns the factor of base proposition b, or -1 for the
// context (or a number out of range).
func (a *Analysis) FactorOf(b int) int {
	if b < 0 || b >= len(a.factorOf) {
		return -1
	}
	return a.factorOf[b]
}

// Analyze finds the factors of net. It stops with ctx's error when ctx is
// done.
func Analyze(ctx context.Context, net *propnet.Net, opt Options) (*Analysis, error) {
	return AnalyzeGiven(ctx, net, nil, opt)
}

// Fact is a base proposition (an index into Net.BaseProps) with a value.
type Fact struct {
	Base  int
	Value bool
}

// AnalyzeGiven finds the factors of net in the states where the given
// facts hold and keep holding: the course's conditional factors, which
// appear only in some states of a game. Each given base is a constant in
// the network's logic (circuit.Given), so a dependency that runs through
// it only while it has the other value is gone; the given bases become
// context. The result is sound from a state on only if the facts hold
// there for the rest of the game, as latches that have taken their
// latched value do (see LatchedIn); Verify checks it from such a state
// (VerifyOptions.Start).
func AnalyzeGiven(ctx context.Context, net *propnet.Net, given []Fact, opt Options) (*Analysis, error) {
	if net == nil {
		return nil, fmt.Errorf("factor: no network")
	}
	c, err := circuit.Read(ctx, net)
	if err != nil {
		return nil, err
	}
	if len(given) > 0 {
		bases, vals := make([]int, len(given)), make([]bool, len(given))
		for i, f := range given {
			bases[i], vals[i] = f.Base, f.Value
		}
		if c, err = c.Given(bases, vals); err != nil {
			return nil, fmt.Errorf("factor: %w", err)
		}
	}
	a := &Analysis{Roles: net.Roles(), Bases: net.BaseProps(), opt: opt, circuit: c, Given: slices.Clone(given)}
	for r := range a.Roles {
		a.Moves = append(a.Moves, net.InputProps(r))
	}
	g, err := readGraph(ctx, c, a.Moves, opt)
	if err != nil {
		return nil, err
	}
	a.Context = g.contextList()
	p, err := a.partition(ctx, g)
	if err != nil {
		return nil, err
	}
	if opt.NoCombination {
		return a, nil
	}
	for {
		if err := a.combine(ctx, c); err != nil {
			return nil, err
		}
		coupled := a.firstCoupled()
		if opt.NoOutputJoins || coupled == nil {
			return a, nil
		}
		a.joinOutput(p, coupled)
		a.collect(p, g)
	}
}

// LatchedIn returns the facts that the latches of lat keep from s on: each
// latch that has its latched value in s. They are the facts AnalyzeGiven
// may take as given for the states that follow s. lat must be an analysis
// of the same network (its bases numbered alike).
func LatchedIn(lat *latch.Analysis, s game.State) []Fact {
	var out []Fact
	for _, l := range lat.Held(s) {
		out = append(out, Fact{Base: l.Base, Value: l.Positive})
	}
	return out
}
