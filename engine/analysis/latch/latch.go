// Package latch owns the latch analysis of a game's propositional network.
// It finds latches (base propositions that, once true, stay true, or once
// false, stay false), goal latches (latches that decide a goal proposition
// for the rest of the game) and, from them, the achievable goal range of
// every role in any state, the analysis the Sancho player described and
// used to prune its Monte Carlo tree. Every result carries a sentence that
// explains why it holds.
package latch

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"gdlab/engine/analysis/internal/circuit"
	"gdlab/engine/game"
	"gdlab/engine/propnet"
)

// Latch is a base proposition that keeps a value once it has it.
type Latch struct {
	Base     int    // base proposition (index into Net.BaseProps)
	Fact     string // its fact text
	Positive bool   // true: once true it stays true; false: once false it stays false
	// Structural reports the textbook shape: next(X) = X OR … for a positive
	// latch, next(X) = X AND … for a negative one. Otherwise the latch was
	// proved by three-valued evaluation of next(X) with only X known.
	Structural bool
	Why        string // an explanation in one sentence
}

// Value is the value the latch keeps: true for a positive latch.
func (l Latch) Value() bool { return l.Positive }

// GoalLatch is a goal proposition decided by latches: while the latches
// hold their latched values, (goal Role Value) is false (Forces false) or
// true (Forces true) for the rest of the game.
type GoalLatch struct {
	Role   int
	Value  int      // the goal value
	Bases  []int    // the latches (one, or a pair that decides only together)
	Facts  []string // their fact texts
	Values []bool   // the values of Bases that decide the goal
	Forces bool     // true: the goal holds; false: it can no longer hold
	// Kept reports a kept pair (see Options.KeptPairs): Bases[0] is a latch
	// and Bases[1] is not, but keeps its value while the latch holds.
	Kept bool
	Why  string
}

// Options tune Analyze. The zero value gives the defaults.
type Options struct {
	// MaxPairLatches bounds the latches in a goal's support for which pairs
	// of latches are also tried; 0 means 40, negative means no pairs.
	MaxPairLatches int
	// KeptPairs also tries, for a base X in a goal's support that is not a
	// latch, each latch L in the support of next(X): when next(X) keeps X's
	// value v whenever L holds its latched value (three-valued evaluation
	// with only L and X known), the pair {L, X = v} is invariant once it
	// holds, and decides the goal if the goal evaluates with it alone. In
	// untwistycomplex2 the latch p and the corridor's end q8 form such a
	// pair: q8 can become true only while p is false.
	KeptPairs bool
}

// Analysis is what Analyze found in one network. Its methods are safe for
// concurrent use.
type Analysis struct {
	Roles       []string
	Latches     []Latch
	GoalLatches []GoalLatch
	goals       [][]goalValue // per role, by value ascending
	facts       []string      // base -> fact text
	latchOf     map[int]int   // base -> index into Latches
	factIndex   map[string]int
	net         *propnet.Net // the network read, whose states' bits index bases
}

// goalValue is one goal value of a role with the latch conditions that
// decide it.
type goalValue struct {
	value  int
	kills  []cond // any one present: the value is unreachable
	forces []cond // any one present: the value is certain
}

// cond is a conjunction of one or two latched literals.
type cond struct {
	bases []int
	vals  []bool
	kept  bool // bases[1] is no latch, kept by the latch bases[0]
}

// Analyze finds the latches and goal latches of net.
func Analyze(ctx context.Context, net *propnet.Net, opt Options) (*Analysis, error) {
	c, err := circuit.Read(ctx, net)
	if err != nil {
		return nil, err
	}
	a := &Analysis{Roles: c.Roles, facts: c.Bases, latchOf: map[int]int{}, factIndex: map[string]int{}, net: net}
	for i, f := range c.Bases {
		a.factIndex[f] = i
	}
	e := circuit.NewEvaluator(c)
	if err := a.findLatches(ctx, c, e); err != nil {
		return nil, err
	}
	maxPair := opt.MaxPairLatches
	if maxPair == 0 {
		maxPair = 40
	}
	for r := range c.Roles {
		if err := a.findGoalLatches(ctx, c, e, r, maxPair, opt.KeptPairs); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// findLatches proves, base by base, whether next(X) keeps X's value.
func (a *Analysis) findLatches(ctx context.Context, c *circuit.Circuit, e *circuit.Evaluator) error {
	for b, f := range c.Bases {
		if b&255 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		nx := c.Next[b]
		for _, pos := range []bool{true, false} {
			if e.With(nx, []int{b}, []bool{pos}) != circuit.ValueOf(pos) {
				continue
			}
			l := Latch{Base: b, Fact: f, Positive: pos, Structural: c.Structural(nx, b, pos)}
			l.Why = latchWhy(l, nx)
			a.latchOf[b] = len(a.Latches)
			a.Latches = append(a.Latches, l)
			break // a base latched both ways never changes; report it once
		}
	}
	return nil
}

func latchWhy(l Latch, nx circuit.Lit) string {
	switch {
	case nx == circuit.LitTrue:
		return fmt.Sprintf("next(%s) is always true", l.Fact)
	case nx == circuit.LitFalse:
		return fmt.Sprintf("next(%s) is always false: false after the first move and never true again", l.Fact)
	case l.Structural && l.Positive:
		return fmt.Sprintf("next(%s) = %s OR …: once true it stays true", l.Fact, l.Fact)
	case l.Structural:
		return fmt.Sprintf("next(%s) = %s AND …: once false it stays false", l.Fact, l.Fact)
	case l.Positive:
		return fmt.Sprintf("next(%s) evaluates to true whenever %s is true, whatever the moves and the other facts (three-valued proof)", l.Fact, l.Fact)
	}
	return fmt.Sprintf("next(%s) evaluates to false whenever %s is false, whatever the moves and the other facts (three-valued proof)", l.Fact, l.Fact)
}

// findGoalLatches tries every latch, and pairs of latches, in the support
// of each of role's goal propositions.
func (a *Analysis) findGoalLatches(ctx context.Context, c *circuit.Circuit, e *circuit.Evaluator, r, maxPair int, kept bool) error {
	var vals []goalValue
	for _, g := range c.Goals[r] {
		if !g.OK {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		gv := goalValue{value: g.Value}
		var in []int // latches in the goal's support not decisive alone
		for _, b := range c.SupportBases(g.Lit) {
			li, ok := a.latchOf[b]
			if !ok {
				continue
			}
			lv := a.Latches[li].Positive
			switch e.With(g.Lit, []int{b}, []bool{lv}) {
			case circuit.False:
				gv.kills = append(gv.kills, cond{bases: []int{b}, vals: []bool{lv}})
			case circuit.True:
				gv.forces = append(gv.forces, cond{bases: []int{b}, vals: []bool{lv}})
			default:
				in = append(in, b)
			}
		}
		if len(in) <= maxPair {
			for i := range in {
				for j := i + 1; j < len(in); j++ {
					bs := []int{in[i], in[j]}
					vs := []bool{a.Latches[a.latchOf[in[i]]].Positive, a.Latches[a.latchOf[in[j]]].Positive}
					switch e.With(g.Lit, bs, vs) {
					case circuit.False:
						gv.kills = append(gv.kills, cond{bases: bs, vals: vs})
					case circuit.True:
						gv.forces = append(gv.forces, cond{bases: bs, vals: vs})
					}
				}
			}
		}
		if kept {
			a.keptPairs(c, e, g.Lit, &gv)
		}
		for _, k := range gv.kills {
			a.GoalLatches = append(a.GoalLatches, a.goalLatch(r, g.Value, k, false))
		}
		for _, k := range gv.forces {
			a.GoalLatches = append(a.GoalLatches, a.goalLatch(r, g.Value, k, true))
		}
		vals = append(vals, gv)
	}
	sort.SliceStable(vals, func(i, j int) bool { return vals[i].value < vals[j].value })
	a.goals = append(a.goals, vals)
	return nil
}

// keptPairs adds to gv the kept pairs that decide goal g: a base X of
// g's support that is no latch, with a latch L of next(X)'s support under
// which next(X) keeps X's value.
func (a *Analysis) keptPairs(c *circuit.Circuit, e *circuit.Evaluator, g circuit.Lit, gv *goalValue) {
	for _, x := range c.SupportBases(g) {
		if _, ok := a.latchOf[x]; ok {
			continue
		}
		for _, l := range c.SupportBases(c.Next[x]) {
			li, ok := a.latchOf[l]
			if !ok {
				continue
			}
			lv := a.Latches[li].Positive
			for _, v := range []bool{true, false} {
				bs, vs := []int{l, x}, []bool{lv, v}
				if e.With(c.Next[x], bs, vs) != circuit.ValueOf(v) {
					continue
				}
				switch e.With(g, bs, vs) {
				case circuit.False:
					gv.kills = append(gv.kills, cond{bases: bs, vals: vs, kept: true})
				case circuit.True:
					gv.forces = append(gv.forces, cond{bases: bs, vals: vs, kept: true})
				}
			}
		}
	}
}

func (a *Analysis) goalLatch(r, value int, k cond, forces bool) GoalLatch {
	gl := GoalLatch{Role: r, Value: value, Bases: k.bases, Values: k.vals, Forces: forces, Kept: k.kept}
	var parts []string
	for i, b := range k.bases {
		fact := a.facts[b]
		gl.Facts = append(gl.Facts, fact)
		word := "true"
		if !k.vals[i] {
			word = "false"
		}
		if li, ok := a.latchOf[b]; ok {
			parts = append(parts, fmt.Sprintf("%s is %s (a %s latch)", fact, word, polarity(a.Latches[li].Positive)))
		} else {
			parts = append(parts, fmt.Sprintf("%s is %s (kept %s while %s is: next(%s) is %s whenever both are)", fact, word, word, a.facts[k.bases[0]], fact, word))
		}
	}
	verdict := "can never hold again"
	if forces {
		verdict = "holds for the rest of the game"
	}
	gl.Why = fmt.Sprintf("once %s, (goal %s %d) %s", strings.Join(parts, " and "), a.Roles[r], value, verdict)
	return gl
}

func polarity(pos bool) string {
	if pos {
		return "positive"
	}
	return "negative"
}

// HasGoalLatches reports whether any goal of any role depends on latches.
func (a *Analysis) HasGoalLatches() bool { return len(a.GoalLatches) > 0 }

// Latch returns the latch of base proposition b, if b is one.
func (a *Analysis) Latch(b int) (Latch, bool) {
	i, ok := a.latchOf[b]
	if !ok {
		return Latch{}, false
	}
	return a.Latches[i], true
}

// Held returns the latches that have their latched value in s: facts
// that hold in s and in every state after it.
func (a *Analysis) Held(s game.State) []Latch {
	has := a.stateHas(s)
	var out []Latch
	for _, l := range a.Latches {
		if has(l.Base) == l.Positive {
			out = append(out, l)
		}
	}
	return out
}

// stateHas returns a membership test for the base propositions of s: the
// state's own bit test when it is a state of the network analysed, a test
// of its facts otherwise.
func (a *Analysis) stateHas(s game.State) func(b int) bool {
	if st, ok := s.(*propnet.State); ok && st.Net() == a.net {
		return st.Has
	}
	set := make(map[int]bool)
	for _, f := range s.Facts() {
		if b, ok := a.factIndex[f]; ok {
			set[b] = true
		}
	}
	return func(b int) bool { return set[b] }
}

func (k cond) holds(has func(int) bool) bool {
	for i, b := range k.bases {
		if has(b) != k.vals[i] {
			return false
		}
	}
	return true
}

// Range returns the goal values role can still achieve from s, as the
// smallest and largest value that the latches of s do not rule out: the
// role's final goal lies in [min, max]. A role whose goal values are all
// ruled out (which sound rules never allow) gets its full range. Range
// costs a few bit tests per goal latch.
func (a *Analysis) Range(s game.State, role int) (min, max int) {
	if role < 0 || role >= len(a.goals) || len(a.goals[role]) == 0 {
		return 0, 100
	}
	return a.rangeWith(a.stateHas(s), role)
}

// Ranges writes every role's range into lo and hi (resized as needed) and
// returns them.
func (a *Analysis) Ranges(s game.State, lo, hi []int) ([]int, []int) {
	has := a.stateHas(s)
	lo, hi = lo[:0], hi[:0]
	for r := range a.Roles {
		mn, mx := 0, 100
		if r < len(a.goals) && len(a.goals[r]) > 0 {
			mn, mx = a.rangeWith(has, r)
		}
		lo, hi = append(lo, mn), append(hi, mx)
	}
	return lo, hi
}

func (a *Analysis) rangeWith(has func(int) bool, role int) (int, int) {
	vals := a.goals[role]
	mn, mx, any := 0, 0, false
	for _, gv := range vals {
		for _, k := range gv.forces {
			if k.holds(has) {
				return gv.value, gv.value
			}
		}
		killed := false
		for _, k := range gv.kills {
			if k.holds(has) {
				killed = true
				break
			}
		}
		if killed {
			continue
		}
		if !any {
			mn = gv.value
			any = true
		}
		mx = gv.value
	}
	if !any {
		return vals[0].value, vals[len(vals)-1].value
	}
	return mn, mx
}

// Explain lists the findings as lines of text: the latches, then the goal
// latches.
func (a *Analysis) Explain() []string {
	var out []string
	for _, l := range a.Latches {
		kind := "proved"
		if l.Structural {
			kind = "structural"
		}
		out = append(out, fmt.Sprintf("latch %s %s (%s): %s", polarity(l.Positive), l.Fact, kind, l.Why))
	}
	for _, g := range a.GoalLatches {
		out = append(out, "goal latch: "+g.Why)
	}
	return out
}

// Summary counts the findings.
type Summary struct {
	Bases, Positive, Negative, Structural, GoalLatches int
	Roles                                              int // roles with at least one goal latch
}

// Summary counts latches by kind and goal latches.
func (a *Analysis) Summary(bases int) Summary {
	s := Summary{Bases: bases, GoalLatches: len(a.GoalLatches)}
	for _, l := range a.Latches {
		if l.Positive {
			s.Positive++
		} else {
			s.Negative++
		}
		if l.Structural {
			s.Structural++
		}
	}
	seen := map[int]bool{}
	for _, g := range a.GoalLatches {
		seen[g.Role] = true
	}
	s.Roles = len(seen)
	return s
}

// BaseProps returns the base propositions of the network the analysis
// read, in that network's numbering: the props analysis.Holds needs.
func (a *Analysis) BaseProps() []string { return circuit.Props(a.factIndex) }

// RangeHolding is Range for the state whose base propositions has
// reports, as analysis.Holds gives it for a simulator.
func (a *Analysis) RangeHolding(has func(b int) bool, role int) (min, max int) {
	if role < 0 || role >= len(a.goals) || len(a.goals[role]) == 0 {
		return 0, 100
	}
	return a.rangeWith(has, role)
}
