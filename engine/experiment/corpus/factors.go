package corpus

import (
	"context"
	"fmt"
	"strings"

	"gdlab/engine/analysis/factor"
	"gdlab/engine/propnet"
)

// FactorEntry is one game's row of the factoring table
// (datasets/results/factors-corpus.json): the independent subgames that
// factor.Analyze finds in the game's network with the default options,
// how the goals and the terminal combine them, and whether factor.Verify
// confirms them; or why the game does not factor.
type FactorEntry struct {
	Game    string
	Bases   int `json:",omitempty"` // base propositions
	Context int `json:",omitempty"` // of them, context (counters, turn markers)
	Factors int `json:",omitempty"` // factors in which some role moves
	// Relevant counts those that a goal or the terminal reads: a factor no
	// output reads changes nothing that matters.
	Relevant int          `json:",omitempty"`
	Sizes    []FactorSize `json:",omitempty"` // those factors' sizes, largest first
	Joint    int          `json:",omitempty"` // moves that change several factors
	Noops    int          `json:",omitempty"` // moves that change no factor, all roles
	// Terminal and Goals say how the outputs read the factors: a
	// factor.Join, with " with context" when the gate above it adds a
	// condition on the context alone; Goals per role, "VALUE:JOIN" per
	// goal value.
	Terminal string   `json:",omitempty"`
	Goals    []string `json:",omitempty"`
	// Verified: factor.Verify (seed 1, default options) made checks and
	// none failed; Checks counts them, Vacuous the mixed states that
	// equalled the sampled one (a game of one step has nothing else),
	// SumChecks the states where a sum was compared with the goal;
	// Failure is the first failure.
	Verified  bool   `json:",omitempty"`
	Checks    int    `json:",omitempty"`
	Vacuous   int    `json:",omitempty"`
	SumChecks int    `json:",omitempty"`
	Failure   string `json:",omitempty"`
	// Why, for a game that does not factor, names the join between the
	// largest candidate parts.
	Why   string `json:",omitempty"`
	Error string `json:",omitempty"` // "over 20 s" when over Timeout
	// Given describes the conditional factoring, when it finds at least
	// two relevant factors with moves and more than the game has in every
	// state; nil otherwise.
	Given *GivenEntry `json:",omitempty"`
	// GivenError says why the conditional factoring was not computed
	// ("over 20 s" when over its own Timeout).
	GivenError string `json:",omitempty"`
}

// GivenEntry is the conditional factoring of a game at one state of a
// seeded random match: factor.AnalyzeGiven given the facts its latches
// keep from there on (factor.LatchedIn), and factor.Verify from that
// state.
type GivenEntry struct {
	Step     int    // the match's step
	Facts    int    // the latched facts given
	Factors  int    // factors with moves
	Relevant int    // of them, those that a goal or the terminal reads
	Verified bool   `json:",omitempty"`
	Checks   int    `json:",omitempty"`
	Failure  string `json:",omitempty"`
}

// FactorSize is one factor's size.
type FactorSize struct{ Bases, Moves int }

// FactorRow analyses the corpus game in folder dir (shared/games/<key>):
// its network with the default bounds, factor.Analyze with the default
// options and, when the game factors, factor.Verify with seed 1, all
// within Timeout; then, within another Timeout, the conditional factoring
// (see conditional).
func FactorRow(ctx context.Context, dir string) FactorEntry {
	e := FactorEntry{Game: key(dir)}
	if msg := onNetwork(ctx, dir, func(ctx context.Context, net *propnet.Net) error {
		a, err := factor.Analyze(ctx, net, factor.Options{})
		if err == nil {
			err = e.fill(ctx, net, a)
		}
		return err
	}); msg != "" {
		return FactorEntry{Game: e.Game, Error: msg}
	}
	e.GivenError = onNetwork(ctx, dir, func(ctx context.Context, net *propnet.Net) error {
		g, err := conditional(ctx, net, e.Relevant)
		e.Given = g
		return err
	})
	return e
}

// fill copies the analysis into the row and verifies a factoring.
func (e *FactorEntry) fill(ctx context.Context, net *propnet.Net, a *factor.Analysis) error {
	e.Bases, e.Context = len(a.Bases), len(a.Context)
	for _, f := range a.Factors {
		if b, m := f.Size(); m > 0 {
			e.Factors++
			if f.Relevant {
				e.Relevant++
			}
			e.Sizes = append(e.Sizes, FactorSize{b, m})
		}
	}
	e.Joint = len(a.Joint)
	for _, ms := range a.Noops {
		e.Noops += len(ms)
	}
	e.Terminal = joinText(*a.Terminal)
	for r, gs := range a.Goals {
		var parts []string
		for _, g := range gs {
			value := strings.TrimSuffix(g.Output[strings.LastIndexByte(g.Output, ' ')+1:], ")")
			parts = append(parts, value+":"+joinText(g))
		}
		e.Goals = append(e.Goals, a.Roles[r]+" "+strings.Join(parts, " "))
	}
	if !a.Factored() {
		e.Why = whyNot(a)
		return nil
	}
	v, err := factor.Verify(ctx, net, a, factor.VerifyOptions{Seed: 1})
	if err != nil {
		return err
	}
	e.Verified, e.Checks, e.Vacuous, e.SumChecks = v.Verified(), v.Checks, v.Vacuous, v.SumChecks
	if len(v.Failures) > 0 {
		e.Failure = v.Failures[0].String()
	}
	return nil
}

func joinText(c factor.Combination) string {
	s := string(c.Join)
	if c.WithContext {
		s += " with context"
	}
	return s
}

// whyNot says why a game has fewer than two factors with moves.
func whyNot(a *factor.Analysis) string {
	if len(a.Couplings) > 0 {
		c := a.Couplings[0]
		return fmt.Sprintf("%s (joining parts of %d and %d base propositions; %d joins in all)", c.Why, c.Sizes[0], c.Sizes[1], a.Joins)
	}
	if len(a.Factors) == 0 {
		return "every base proposition is context: no move changes the state"
	}
	return "one factor with moves and no join: the game has one part"
}

// ReadFactors reads the committed factoring table from datasets/results of
// the repository at ledger.Root(). A missing table is an error wrapping
// fs.ErrNotExist.
func ReadFactors() ([]FactorEntry, error) {
	var rows []FactorEntry
	return rows, readTable(FactorsFile, &rows)
}
