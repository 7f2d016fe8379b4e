package emulate

import (
	"context"
	"fmt"
	"strings"

	"gdlab/engine/propnet"
)

// Form is the shape of a goal hypothesis.
type Form int

// The forms of goal calculation that Hypothesize proposes, lettered as in
// Sancho's description; HeldValue counters make any of them form (d).
const (
	// Majority (a): each role's goal depends on whether it holds more
	// than, exactly or less than half of a fixed set of Size positions.
	Majority Form = iota
	// Cardinality (b): each role's goal is its count.
	Cardinality
	// Compare (c): each role's goal depends on whether its count is
	// greater than, equal to or less than the largest other role's.
	Compare
)

func (f Form) String() string {
	switch f {
	case Majority:
		return "majority"
	case Cardinality:
		return "cardinality"
	case Compare:
		return "compare"
	}
	return fmt.Sprintf("Form(%d)", int(f))
}

// The outcome classes of the Majority and Compare forms, indexing
// Hypothesis.Table.
const (
	ClassAhead  = 0 // more than the others (Compare) or than half (Majority)
	ClassEqual  = 1
	ClassBehind = 2
)

// Hypothesis is a proposed goal calculation: a counter per role and a form
// that turns the counts into goal values. For Majority and Compare the
// goal of each outcome class is read off the network by Verify (Table);
// Hypothesize leaves it unknown.
type Hypothesis struct {
	Form     Form
	Held     bool      // form (d): the counts are held in successor-counting propositions
	Counters []Counter // per role
	Size     int       // Majority: the size of the fixed set
	Family   string    // the relation counted, as name/arity
	// InGoalSupport: the goal outputs read the family (otherwise it was
	// proposed because it never influences legality or termination).
	InGoalSupport bool
	// Table gives, per role, the goal of each outcome class (ClassAhead,
	// ClassEqual, ClassBehind); -1 where no sampled state showed it.
	Table [][3]int
	Why   string
}

// Name is a short label such as "(c) compare |(cell * * black)| …".
func (h *Hypothesis) Name() string {
	letter := map[Form]string{Majority: "a", Cardinality: "b", Compare: "c"}[h.Form]
	if h.Held {
		letter += "+d"
	}
	var cs []string
	for _, c := range h.Counters {
		cs = append(cs, c.Text)
	}
	return fmt.Sprintf("(%s) %s of %s", letter, h.Form, strings.Join(cs, " vs "))
}

// counts writes every role's count in a state into dst (resized) and
// reports whether every counter could be read.
func (h *Hypothesis) counts(has func(int) bool, dst []int) ([]int, bool) {
	dst = dst[:0]
	all := true
	for i := range h.Counters {
		n, ok := h.Counters[i].count(has)
		all = all && ok
		dst = append(dst, n)
	}
	return dst, all
}

// class returns role r's outcome class for the counts.
func (h *Hypothesis) class(counts []int, r int) int {
	if h.Form == Majority {
		return classOf(2*counts[r], h.Size)
	}
	other := -1
	for q, c := range counts {
		if q != r && c > other {
			other = c
		}
	}
	return classOf(counts[r], other)
}

// goal returns role r's goal for the counts, or -1 when the hypothesis
// does not know it (a class never sampled).
func (h *Hypothesis) goal(counts []int, r int) int {
	if h.Form == Cardinality {
		return counts[r]
	}
	if h.Table == nil {
		return -1
	}
	return h.Table[r][h.class(counts, r)]
}

// HypothesizeOptions tune Hypothesize. The zero value gives the defaults.
type HypothesizeOptions struct {
	// MaxHypotheses bounds the hypotheses proposed; 0 means 200.
	MaxHypotheses int
}

// Hypothesize proposes goal calculations from the structure of net. It
// groups base propositions into families (relation name and arity), keeps
// those that the goal outputs read or that never influence legality or
// termination, finds an argument that names the roles (or, with two or
// three roles, takes the same number of other marks, trying every way to
// assign them), and an integer argument running over consecutive numbers
// (a successor-counting family). Each candidate counter gives hypotheses of
// forms (a) majority, (b) cardinality and (c) compare, form (d) when the
// count is held. Hypotheses are guesses: Verify tests them.
func Hypothesize(ctx context.Context, net *propnet.Net, opt HypothesizeOptions) ([]Hypothesis, error) {
	limit := opt.MaxHypotheses
	if limit <= 0 {
		limit = 200
	}
	sup, err := readSupports(net)
	if err != nil {
		return nil, err
	}
	roles := net.Roles()
	initial := net.Initial().(*propnet.State).Has
	var out []Hypothesis
	for _, f := range families(net.BaseProps()) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		inGoal, quiet := sup.classify(f)
		if len(f.bases) < 2 || !inGoal && !quiet {
			continue
		}
		for _, h := range familyHypotheses(f, roles, initial) {
			h.InGoalSupport = inGoal
			h.Why = hypothesisWhy(&h, inGoal)
			if len(out) < limit {
				out = append(out, h)
			}
		}
	}
	return out, nil
}

// supports marks the base propositions that goal, legal and terminal
// outputs read.
type supports struct {
	goal, legal, terminal map[int]bool
}

func readSupports(net *propnet.Net) (*supports, error) {
	var goals, legals []propnet.Output
	for r := range net.Roles() {
		for i := range net.GoalValues(r) {
			goals = append(goals, propnet.Output{Kind: propnet.Goal, Role: r, Index: i})
		}
		for i := range net.InputProps(r) {
			legals = append(legals, propnet.Output{Kind: propnet.Legal, Role: r, Index: i})
		}
	}
	s := &supports{}
	for _, x := range []struct {
		outs []propnet.Output
		dst  *map[int]bool
	}{{goals, &s.goal}, {legals, &s.legal}, {[]propnet.Output{{Kind: propnet.Terminal}}, &s.terminal}} {
		sp, err := net.SupportOf(x.outs)
		if err != nil {
			return nil, err
		}
		*x.dst = map[int]bool{}
		for _, b := range sp.Bases {
			(*x.dst)[b] = true
		}
	}
	return s, nil
}

// classify reports whether the goals read some member of f, and whether
// no legal or terminal output reads any.
func (s *supports) classify(f *family) (inGoal, quiet bool) {
	quiet = true
	for _, b := range f.bases {
		inGoal = inGoal || s.goal[b]
		quiet = quiet && !s.legal[b] && !s.terminal[b]
	}
	return inGoal, quiet
}

// familyHypotheses proposes the hypotheses of one family; initial tells
// the initial state's propositions.
func familyHypotheses(f *family, roles []string, initial func(int) bool) []Hypothesis {
	var out []Hypothesis
	for i := 0; i < f.arity(); i++ {
		for _, owner := range owners(f.distinct(i), roles) {
			out = append(out, ownedHypotheses(f, i, owner, initial)...)
		}
	}
	// Without an owner, a count is everybody's: a score held by the family,
	// or, in one-player games, the number of its propositions that hold.
	if h := f.heldArg(-1); h >= 0 {
		if c := f.heldCounter(-1, "", h); c.startsDefined(initial) {
			out = append(out, Hypothesis{Form: Cardinality, Held: true, Counters: same(c, len(roles)), Family: f.key()})
		}
	}
	if len(roles) == 1 {
		c := f.setCounter(-1, "")
		out = append(out, Hypothesis{Form: Cardinality, Counters: same(c, len(roles)), Family: f.key()})
	}
	return out
}

// startsDefined reports whether exactly one of the counter's propositions
// holds initially: a held count is defined from the start, which tells a
// score apart from, say, cells numbered 1, 2, 3.
func (c *Counter) startsDefined(initial func(int) bool) bool {
	_, ok := c.count(initial)
	return ok
}

func (f *family) key() string { return fmt.Sprintf("%s/%d", f.name, f.arity()) }

func same(c Counter, n int) []Counter {
	out := make([]Counter, n)
	for r := range out {
		out[r] = c
	}
	return out
}

// ownedHypotheses proposes the hypotheses of a family whose argument i
// says which role owns a member (owner[r] is role r's value): counts of
// the members each role owns and, when the family holds a number that is
// defined from the start, that number.
func ownedHypotheses(f *family, i int, owner []string, initial func(int) bool) []Hypothesis {
	set := make([]Counter, len(owner))
	for r, v := range owner {
		set[r] = f.setCounter(i, v)
	}
	out := formsOf(Hypothesis{Counters: set, Family: f.key(), Size: f.positions(i)})
	held := f.heldArg(i)
	if held < 0 {
		return out
	}
	cs := make([]Counter, len(owner))
	for r, v := range owner {
		if cs[r] = f.heldCounter(i, v, held); !cs[r].startsDefined(initial) {
			return out
		}
	}
	return append(out, formsOf(Hypothesis{Held: true, Counters: cs, Family: f.key(), Size: cs[0].max()})...)
}

// formsOf returns base in each form that applies.
func formsOf(base Hypothesis) []Hypothesis {
	var out []Hypothesis
	for _, form := range []Form{Majority, Cardinality, Compare} {
		if form == Compare && len(base.Counters) < 2 {
			continue
		}
		h := base
		h.Form = form
		out = append(out, h)
	}
	return out
}

// owners lists the ways to read values as role owners: the roles
// themselves when the values are the role names, otherwise, with two or
// three roles and as many values, every assignment of values to roles.
func owners(vals, roles []string) [][]string {
	if len(vals) != len(roles) {
		return nil
	}
	isRole := map[string]bool{}
	for _, r := range roles {
		isRole[r] = true
	}
	all := true
	for _, v := range vals {
		all = all && isRole[v]
	}
	if all {
		return [][]string{roles}
	}
	if len(roles) < 2 || len(roles) > 3 {
		return nil
	}
	return permutations(vals)
}

func permutations(xs []string) [][]string {
	if len(xs) <= 1 {
		return [][]string{append([]string(nil), xs...)}
	}
	var out [][]string
	for k, x := range xs {
		rest := append(append([]string(nil), xs[:k]...), xs[k+1:]...)
		for _, p := range permutations(rest) {
			out = append(out, append([]string{x}, p...))
		}
	}
	return out
}

// hypothesisWhy says what was detected and from which components.
func hypothesisWhy(h *Hypothesis, inGoal bool) string {
	src := "the goal outputs read the family " + h.Family
	if !inGoal {
		src = "the family " + h.Family + " never influences legality or termination"
	}
	var what string
	c := &h.Counters[0]
	switch h.Form {
	case Majority:
		what = fmt.Sprintf("a role's goal depends on whether %s is more than, equal to or less than half of %d", c.describe(), h.Size)
	case Cardinality:
		what = fmt.Sprintf("a role's goal is %s", c.describe())
	case Compare:
		what = fmt.Sprintf("a role's goal depends on who has more: %s against the other roles' counts", c.describe())
	}
	if h.Held {
		what += ", the count held in successor-counting propositions"
	}
	return what + "; proposed because " + src
}
