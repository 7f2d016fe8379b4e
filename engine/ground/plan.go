package ground

import "gdlab/engine/logic"

// step is one literal of a join plan, with what is known when it runs.
type step struct {
	lit   int      // index into the rule body
	key   *keySpec // LitPos: what is known of the matching tuples; nil if nothing
	full  bool     // LitPos: every argument is bound, so it is a membership test
	delta bool     // LitPos: ranges over the facts new in the last round only
}

// planner orders rule bodies for evaluation.
type planner struct {
	p *program
}

// included reports whether literal l takes part in joins: every literal
// except negations of dynamic relations, which the relaxed evaluation
// assumes true and the instantiation keeps as body literals.
func (pl planner) included(l *logic.Literal) bool {
	return l.Kind != logic.LitNeg || pl.p.rels[l.Rel].static
}

// plan orders r's body; when first >= 0 that literal comes first and ranges
// over the last round's new facts. Tests run as soon as their variables are
// bound; otherwise the positive literal with the most bound arguments goes
// next, static before dynamic, smaller before larger.
func (pl planner) plan(r *logic.Rule, first int) []step {
	done := make([]bool, len(r.Body))
	bound := map[int]bool{}
	var out []step
	take := func(i int, delta bool) {
		done[i] = true
		l := &r.Body[i]
		st := step{lit: i, delta: delta}
		if l.Kind == logic.LitPos {
			st.key, st.full = pl.keyOf(l.Args, bound)
			for _, a := range l.Args {
				a.MarkSlots(bound)
			}
		}
		out = append(out, st)
	}
	if first >= 0 {
		take(first, true)
	}
	for {
		if i := pl.nextTest(r, done, bound); i >= 0 {
			take(i, false)
			continue
		}
		i := pl.nextPositive(r, done, bound)
		if i < 0 {
			return out
		}
		take(i, false)
	}
}

func (pl planner) nextTest(r *logic.Rule, done []bool, bound map[int]bool) int {
	for i := range r.Body {
		l := &r.Body[i]
		if done[i] || l.Kind == logic.LitPos || !pl.included(l) {
			continue
		}
		ok := true
		for _, a := range l.Args {
			ok = ok && a.GroundUnder(bound)
		}
		if ok {
			return i
		}
	}
	return -1
}

// nextPositive picks the positive literal to join next, or -1 when none
// is left: the one expected to match the fewest facts per binding so far.
func (pl planner) nextPositive(r *logic.Rule, done []bool, bound map[int]bool) int {
	best, bestCost := -1, 0.0
	for i := range r.Body {
		l := &r.Body[i]
		if done[i] || l.Kind != logic.LitPos {
			continue
		}
		if c := pl.cost(l, bound); best < 0 || c < bestCost {
			best, bestCost = i, c
		}
	}
	return best
}

// cost estimates how many facts of l's relation match l once the
// variables in bound are known: the table's size divided by the number of
// distinct keys of its index on the known parts. A membership test costs
// least; a static relation is preferred among equals, as it is complete.
func (pl planner) cost(l *logic.Literal, bound map[int]bool) float64 {
	rel := pl.p.rels[l.Rel]
	t := rel.tab
	key, full := pl.keyOf(l.Args, bound)
	c := float64(t.n)
	switch {
	case full:
		c = 0.25
	case key != nil && t.n > 0:
		c = float64(t.n) / float64(max(t.lookup(key).keys, 1))
	}
	if !rel.static {
		c += 0.5
	}
	return c
}
