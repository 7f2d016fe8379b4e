// Package emulate owns goal-structure emulation, Sancho's "playing an
// approximation of the game": it proposes counting hypotheses for a game's
// goals from its propositional network (Hypothesize), tests them on random
// matches (Verify), computes the goals of an accepted one outside the
// network on a machine built without the goal rules (Machine), and draws
// inferences from it: virtual terminality and the heuristic of owning the
// latched counted propositions. Detect makes a game's row of the detection
// table. Every finding explains itself.
package emulate

import (
	"context"
	"fmt"

	"gdlab/engine/analysis/latch"
	"gdlab/engine/game"
	"gdlab/engine/propnet"
)

// Options tune Analyze. The zero value gives the defaults.
type Options struct {
	Hypothesize HypothesizeOptions
	Verify      VerifyOptions // the hypotheses' verification
	Heuristic   VerifyOptions // the matches of the heuristic's test
}

// Emulation is what Analyze found about a game's goal structure: every
// hypothesis with its verdict, the accepted one that emulates the goals,
// and the inferences drawn from it. Each part explains itself; nil parts
// were not found or not justified. An Emulation is immutable and safe for
// concurrent use.
type Emulation struct {
	Roles    []string
	Facts    []string  // the network's base propositions, which the counters index
	Verdicts []Verdict // every hypothesis tested, in the order proposed
	// Goal is the accepted hypothesis that computes the goals, nil when
	// none was accepted. Hypotheses the goal outputs read come first, then
	// those held in successor-counting propositions.
	Goal *Verdict
	// Virtual decides states whose outcome the counts already fix (nil
	// when no accepted hypothesis justifies it).
	Virtual *VirtualTerminal
	// Own is the "own these propositions" heuristic, nil when no counted
	// proposition is a latch; Own.Kept says whether its test kept it.
	Own *OwnHeuristic

	factIndex map[string]int
}

// Analyze proposes goal hypotheses for net (Hypothesize), verifies them on
// random matches (Verify), picks the accepted hypothesis that emulates the
// goals, and draws the inferences: virtual terminality when the counted
// propositions are latches and the counts share a fixed-size set, and the
// heuristic of owning the latched counted propositions, kept only if its
// statistical test passes. an gives the latches of net; nil means
// latch.Analyze(net).
func Analyze(ctx context.Context, net *propnet.Net, an *latch.Analysis, opt Options) (*Emulation, error) {
	if an == nil {
		var err error
		if an, err = latch.Analyze(ctx, net, latch.Options{}); err != nil {
			return nil, err
		}
	}
	hyps, err := Hypothesize(ctx, net, opt.Hypothesize)
	if err != nil {
		return nil, err
	}
	vs, err := Verify(ctx, net, hyps, opt.Verify)
	if err != nil {
		return nil, err
	}
	e := &Emulation{Roles: net.Roles(), Facts: net.BaseProps(), Verdicts: vs, factIndex: map[string]int{}}
	for b, f := range e.Facts {
		e.factIndex[f] = b
	}
	e.Goal = bestVerdict(vs)
	e.Virtual = virtualTerminal(vs, an, e.factIndex)
	if e.Own, err = ownHeuristic(ctx, net, vs, an, e.factIndex, opt.Heuristic); err != nil {
		return nil, err
	}
	return e, nil
}

// bestVerdict picks the accepted hypothesis to emulate the goals with:
// accepted in every state before terminal states only, then one the goal
// outputs read, then one held in successor-counting propositions (the
// rules' own bookkeeping), then the first proposed.
func bestVerdict(vs []Verdict) *Verdict {
	var best *Verdict
	score := func(v *Verdict) int {
		s := 0
		if !v.TerminalOnly {
			s += 4
		}
		if v.Hypothesis.InGoalSupport {
			s += 2
		}
		if v.Hypothesis.Held {
			s++
		}
		return s
	}
	for i := range vs {
		if v := &vs[i]; v.Accepted && (best == nil || score(v) > score(best)) {
			best = v
		}
	}
	return best
}

// Accepted returns the accepted verdicts.
func (e *Emulation) Accepted() []Verdict {
	var out []Verdict
	for _, v := range e.Verdicts {
		if v.Accepted {
			out = append(out, v)
		}
	}
	return out
}

// has returns a membership test for the base propositions of s.
func (e *Emulation) has(s game.State) func(int) bool {
	if st, ok := s.(*propnet.State); ok {
		return st.Has
	}
	set := map[int]bool{}
	for _, f := range s.Facts() {
		if b, ok := e.factIndex[f]; ok {
			set[b] = true
		}
	}
	return func(b int) bool { return set[b] }
}

// Goals writes every role's emulated goal in the state whose base
// propositions has reports into dst (resized), -1 where the accepted
// hypothesis gives none, and returns it. terminal matters only for a
// hypothesis accepted for terminal states: elsewhere it gives none.
func (e *Emulation) Goals(has func(int) bool, terminal bool, dst []int) []int {
	dst = dst[:0]
	if e.Goal == nil || (e.Goal.TerminalOnly && !terminal) {
		for range e.Roles {
			dst = append(dst, -1)
		}
		return dst
	}
	h := &e.Goal.Hypothesis
	var buf [8]int
	counts, ok := h.counts(has, buf[:0])
	for r := range e.Roles {
		g := -1
		if ok {
			g = h.goal(counts, r)
		}
		dst = append(dst, g)
	}
	return dst
}

// Explain lists the findings: the hypotheses with their verdicts and
// evidence, then the inferences.
func (e *Emulation) Explain() []string {
	var out []string
	for _, v := range e.Verdicts {
		out = append(out, fmt.Sprintf("hypothesis %s: %s. %s", v.Hypothesis.Name(), v.Hypothesis.Why, v.Why))
	}
	if e.Goal == nil {
		out = append(out, "emulation: no hypothesis accepted; the goals stay in the network")
	} else {
		out = append(out, fmt.Sprintf("emulation: goals computed by %s (table ahead/equal/behind per role: %v)", e.Goal.Hypothesis.Name(), e.Goal.Hypothesis.Table))
	}
	if e.Virtual != nil {
		out = append(out, "virtual terminality: "+e.Virtual.Why)
	}
	if e.Own != nil {
		out = append(out, "heuristic: "+e.Own.Why)
	}
	return out
}
