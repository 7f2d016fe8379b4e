package ground

import (
	"fmt"
	"slices"

	"gdlab/engine/logic"
)

// Decomposition rewrites a dynamic rule whose body joins variables that its
// head does not mention, so that fewer ground rules say the same thing. A
// group of body literals G with variables E that occur nowhere else is
// replaced by an auxiliary atom over G's other variables, defined by the
// rule aux :- G. For
//
//	(<= (next (connected ?k ?m ?n)) (transfer ?e) (true (connected ?e ?m ?n)) (true (step ?k)))
//
// this makes aux(?m, ?n) :- transfer(?e), true(connected ?e ?m ?n) and the
// rule next(connected ?k ?m ?n) :- aux(?m, ?n), true(step ?k): 13 thousand
// ground rules in Hex instead of 531 thousand. Two kinds of groups are
// taken: first the connected components of the literals that mention
// non-head variables (always a gain); then, when one component is the whole
// body, the literals of one variable at a time, chosen by counting the
// matches of each candidate group, as long as that count is below the
// rule's own.
//
// It runs after the relaxed fixpoint, so every table the groups read is
// complete, and the auxiliary relations' tables are filled as they are made.

// decompose rewrites the rules of the given relations and of the auxiliary
// relations it makes; it returns the auxiliary relations.
func (g *grounder) decompose(rels []int) []int {
	var work []*logic.Rule
	for _, r := range rels {
		work = append(work, g.p.rels[r].rules...)
	}
	var aux []int
	for i := 0; i < len(work) && g.e.err == nil; i++ {
		for _, a := range g.decomposeRule(work[i]) {
			aux = append(aux, a)
			work = append(work, g.p.rels[a].rules...)
		}
	}
	return aux
}

// splitComponents rewrites the rules of a recursive group for its
// fixpoint: each set of literals connected by variables the head does not
// mention, if not the whole body, becomes an auxiliary atom of the group,
// so that the fixpoint joins the sets one by one instead of their product.
// It returns the group with the auxiliary relations added, and a function
// that restores the rules once the fixpoint is reached: the relations'
// facts are the same either way, and instantiation decomposes the rules
// afresh with every table complete.
func (g *grounder) splitComponents(scc []int) ([]int, func()) {
	out := scc
	type saved struct {
		r    *logic.Rule
		body []logic.Literal
	}
	var undo []saved
	auxBefore := len(g.auxRels)
	for _, rel := range scc {
		for _, r := range g.p.rels[rel].rules {
			head := map[int]bool{}
			for _, a := range r.Args {
				a.MarkSlots(head)
			}
			comps := components(r, head)
			if len(comps) == 0 || (len(comps) == 1 && len(comps[0]) == len(r.Body)) {
				continue
			}
			body := r.Body
			if made := g.extract(r, comps, head, false); len(made) > 0 {
				undo = append(undo, saved{r, body})
				out = append(out, made...)
			}
		}
	}
	return out, func() {
		for _, u := range undo {
			u.r.Body = u.body
		}
		g.auxRels = g.auxRels[:auxBefore] // the auxiliary atoms are not part of the program
	}
}

// decomposeRule rewrites r in place and returns the auxiliary relations made.
func (g *grounder) decomposeRule(r *logic.Rule) []int {
	var made []int
	for g.e.err == nil {
		head := map[int]bool{}
		for _, a := range r.Args {
			a.MarkSlots(head)
		}
		comps := components(r, head)
		if len(comps) == 0 {
			return made
		}
		if len(comps) > 1 || len(comps[0]) < len(r.Body) {
			return append(made, g.extract(r, comps, head, true)...)
		}
		group := g.bestGroup(r, head)
		if group == nil {
			return made
		}
		a := g.extract(r, [][]int{group}, head, true)
		if len(a) == 0 {
			return made
		}
		made = append(made, a...)
	}
	return made
}

// litVars returns the variable slots of a literal.
func litVars(l *logic.Literal) map[int]bool {
	vs := map[int]bool{}
	for _, a := range l.Args {
		a.MarkSlots(vs)
	}
	return vs
}

// components groups the body literals that mention non-head variables into
// sets connected by shared non-head variables.
func components(r *logic.Rule, head map[int]bool) [][]int {
	parent := make([]int, len(r.Body))
	for i := range parent {
		parent[i] = i
	}
	var find func(int) int
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	owner := map[int]int{} // non-head variable -> a literal that has it
	has := make([]bool, len(r.Body))
	for i := range r.Body {
		for v := range litVars(&r.Body[i]) {
			if head[v] {
				continue
			}
			has[i] = true
			if j, ok := owner[v]; ok {
				parent[find(i)] = find(j)
			} else {
				owner[v] = i
			}
		}
	}
	groups := map[int][]int{}
	var roots []int
	for i := range r.Body {
		if !has[i] {
			continue
		}
		root := find(i)
		if _, ok := groups[root]; !ok {
			roots = append(roots, root)
		}
		groups[root] = append(groups[root], i)
	}
	out := make([][]int, len(roots))
	for i, root := range roots {
		out[i] = groups[root]
	}
	return out
}

// groupArgs returns the variables of the literals in group that the rest of
// the rule (head or other literals) also uses: the auxiliary atom's arguments.
func groupArgs(r *logic.Rule, group []int, head map[int]bool) []int {
	in := map[int]bool{}
	for _, i := range group {
		in[i] = true
	}
	outside := map[int]bool{}
	for v := range head {
		outside[v] = true
	}
	for i := range r.Body {
		if !in[i] {
			for v := range litVars(&r.Body[i]) {
				outside[v] = true
			}
		}
	}
	var args []int
	seen := map[int]bool{}
	for _, i := range group {
		for v := range litVars(&r.Body[i]) {
			if outside[v] && !seen[v] {
				seen[v] = true
				args = append(args, v)
			}
		}
	}
	slices.Sort(args)
	return args
}

// safe reports whether every variable of the group's tests and negations
// is bound by one of its positive literals.
func safe(r *logic.Rule, group []int) bool {
	bound := map[int]bool{}
	for _, i := range group {
		if r.Body[i].Kind == logic.LitPos {
			for v := range litVars(&r.Body[i]) {
				bound[v] = true
			}
		}
	}
	for _, i := range group {
		for v := range litVars(&r.Body[i]) {
			if !bound[v] {
				return false
			}
		}
	}
	return true
}

// bestGroup picks, for a rule whose body is one component, the literals of
// the non-head variable whose group has the fewest matches, if that is
// fewer than the rule's own; nil if none is.
func (g *grounder) bestGroup(r *logic.Rule, head map[int]bool) []int {
	seen := map[string]bool{}
	var cands [][]int
	for v := 0; v < r.Slots; v++ {
		if head[v] {
			continue
		}
		var group []int
		for i := range r.Body {
			if litVars(&r.Body[i])[v] {
				group = append(group, i)
			}
		}
		key := fmt.Sprint(group)
		if len(group) == 0 || len(group) == len(r.Body) || seen[key] || !safe(r, group) {
			continue
		}
		seen[key] = true
		cands = append(cands, group)
	}
	if len(cands) == 0 {
		return nil
	}
	// Count each candidate's matches, stopping past the best so far; then
	// the rule's own, stopping as soon as it has more than the best group.
	var best []int
	limit := maxGroupMatches
	for _, c := range cands {
		body := make([]logic.Literal, len(c))
		for i, j := range c {
			body[i] = r.Body[j]
		}
		if n := g.countMatches(r, body, limit-1); n < limit {
			best, limit = c, n
		}
	}
	if best == nil || g.countMatches(r, r.Body, limit) <= limit {
		return nil
	}
	return best
}

// maxGroupMatches bounds the matches of a group worth making an
// auxiliary relation of.
const maxGroupMatches = 4_000_000

// countMatches counts the matches of body (with r's variables), up to max+1.
func (g *grounder) countMatches(r *logic.Rule, body []logic.Literal, max int) int {
	e := g.e
	tmp := &logic.Rule{Head: r.Head, Body: body, Slots: r.Slots}
	saved := e.emit
	e.emit, e.count, e.countMax, e.stop = e.countMatch, 0, max, false
	e.run(tmp, e.pl.plan(tmp, -1))
	e.emit, e.stop = saved, false
	return e.count
}

// extract replaces each group of r's body that can stand alone (no test
// or negation in it would be unbound) by an auxiliary atom, defines the
// atom by a new rule and fills its table. It returns the relations made.
func (g *grounder) extract(r *logic.Rule, groups [][]int, head map[int]bool, now bool) []int {
	var made []int
	var body []logic.Literal
	in := map[int]bool{}
	for _, group := range groups {
		if !safe(r, group) {
			continue
		}
		a, lit := g.auxiliary(r, group, head, now)
		made = append(made, a)
		body = append(body, lit)
		for _, i := range group {
			in[i] = true
		}
	}
	if len(made) == 0 {
		return nil
	}
	for i, l := range r.Body {
		if !in[i] {
			body = append(body, l)
		}
	}
	r.Body = body
	return made
}

// auxiliary makes the relation and rule standing for a group of r's body
// and returns the relation and the literal that replaces the group. With
// now, the group reads complete relations and the relation's table is
// filled at once; otherwise the relation joins the fixpoint of r's group.
func (g *grounder) auxiliary(r *logic.Rule, group []int, head map[int]bool, now bool) (int, logic.Literal) {
	p := g.p
	args := groupArgs(r, group, head)
	pats := make([]logic.Pattern, len(args))
	for i, v := range args {
		pats[i] = logic.Pattern{Kind: logic.PatVar, Slot: v}
	}
	a := p.Relation(g.auxName(p.rels[r.Head].name), len(args))
	g.auxRels = append(g.auxRels, a)
	aux := &logic.Rule{Head: a, Args: pats, Slots: r.Slots, Src: r.Src}
	static := true
	for _, i := range group {
		l := r.Body[i]
		aux.Body = append(aux.Body, l)
		if l.Kind == logic.LitPos || l.Kind == logic.LitNeg {
			static = static && p.rels[l.Rel].static
		}
	}
	rel := p.rels[a]
	rel.static = static && now
	rel.rules = []*logic.Rule{aux}
	if now {
		g.derive(aux, -1)
	}
	l := logic.Literal{Kind: logic.LitPos, Rel: a, Args: pats, Src: r.Body[group[0]].Src}
	l.SetVars()
	return a, l
}

// auxName returns an unused relation name for an auxiliary of relation base.
func (g *grounder) auxName(base string) string {
	for {
		g.aux++
		name := fmt.Sprintf("%s~%d", base, g.aux)
		used := false
		for _, r := range g.p.rels {
			used = used || r.name == name
		}
		if !used {
			return name
		}
	}
}
