package check

import (
	"sort"

	"gdlab/engine/gdl"
	"gdlab/engine/logic"
)

// Key returns the dependency-graph key of an atom's relation, "name/arity",
// so that a name used with two arities gives two distinct relations.
func Key(a *gdl.Atom) string { return RelationKey(a.Name, len(a.Args)) }

// RelationKey returns the key "name/arity" of a relation.
func RelationKey(name string, arity int) string { return logic.Key(name, arity) }

// Edge is one dependency of the graph: some rule whose head is From has the
// relation To in its body, under a `not` when Negative is set. Occurrences
// inside `or` are positive unless negated.
type Edge struct {
	From, To string  // relation keys: From is the rule head, To the body relation
	Negative bool    // To occurs negated
	Pos      gdl.Pos // the first body literal that gives rise to the edge
}

// Graph is the relation dependency graph of a description. Its nodes are the
// relation keys of every atom, in heads and bodies; it holds one Edge per
// (From, To, Negative) triple. A prover can evaluate the components of SCCs in
// the order given, and Strata groups them for stratified negation.
type Graph struct {
	Relations []string   // every relation key, sorted
	Edges     []Edge     // sorted by From, To, then positive before negative
	SCCs      [][]string // strongly connected components, each sorted; a component comes after every component it depends on

	index map[string]int // relation key -> position in Relations
	succ  [][]int        // distinct successors (dependencies) of each relation, ascending
	comp  []int          // relation -> index in SCCs
	self  []bool         // relation -> has an edge to itself
}

// NewGraph builds the dependency graph of d.
func NewGraph(d *gdl.Description) *Graph {
	g := &Graph{index: map[string]int{}}
	edges := map[Edge]gdl.Pos{} // keyed with Pos zero
	var order []Edge
	for _, r := range d.Rules {
		head := Key(r.Head)
		g.addRelation(head)
		for _, l := range r.Body {
			eachAtom(l, false, func(a *gdl.Atom, neg bool) {
				k := Key(a)
				g.addRelation(k)
				e := Edge{From: head, To: k, Negative: neg}
				if _, ok := edges[e]; !ok {
					edges[e] = a.Pos()
					order = append(order, e)
				}
			})
		}
	}
	for _, e := range order {
		e.Pos = edges[e]
		g.Edges = append(g.Edges, e)
	}
	g.finish()
	return g
}

func (g *Graph) addRelation(k string) {
	if _, ok := g.index[k]; !ok {
		g.index[k] = len(g.Relations)
		g.Relations = append(g.Relations, k)
	}
}

// finish sorts the relations and edges, builds the adjacency lists and finds
// the components.
func (g *Graph) finish() {
	sort.Strings(g.Relations)
	for i, k := range g.Relations {
		g.index[k] = i
	}
	sort.Slice(g.Edges, func(i, j int) bool {
		a, b := g.Edges[i], g.Edges[j]
		if a.From != b.From {
			return a.From < b.From
		}
		if a.To != b.To {
			return a.To < b.To
		}
		return !a.Negative && b.Negative
	})
	g.succ = make([][]int, len(g.Relations))
	g.self = make([]bool, len(g.Relations))
	for _, e := range g.Edges {
		from, to := g.index[e.From], g.index[e.To]
		if s := g.succ[from]; len(s) == 0 || s[len(s)-1] != to {
			g.succ[from] = append(s, to) // edges are sorted, so duplicates are adjacent
		}
		if from == to {
			g.self[from] = true
		}
	}
	g.findSCCs()
}

// Component returns the index in SCCs of the component of the relation key,
// or -1 when the graph has no such relation.
func (g *Graph) Component(key string) int {
	i, ok := g.index[key]
	if !ok {
		return -1
	}
	return g.comp[i]
}

// Recursive reports whether the relation lies on a cycle: its component has
// more than one relation, or it depends on itself directly.
func (g *Graph) Recursive(key string) bool {
	i, ok := g.index[key]
	if !ok {
		return false
	}
	return g.self[i] || len(g.SCCs[g.comp[i]]) > 1
}

// Strata groups the relations by stratum, lowest first: a relation's stratum
// is the least number such that it is at least the stratum of every relation
// it depends on, and greater than that of every relation it depends on
// negatively. Negative edges inside a component, which Check reports as
// unstratified negation, are ignored, so Strata is meaningful only for a
// description that passed Check.
func (g *Graph) Strata() [][]string {
	level := make([]int, len(g.SCCs))
	top := 0
	for c, members := range g.SCCs { // dependencies come first
		for _, k := range members {
			for _, e := range g.edgesFrom(k) {
				d := g.comp[g.index[e.To]]
				if d == c {
					continue
				}
				l := level[d]
				if e.Negative {
					l++
				}
				level[c] = max(level[c], l)
			}
		}
		top = max(top, level[c])
	}
	var strata [][]string
	if len(g.SCCs) > 0 {
		strata = make([][]string, top+1)
	}
	for c, members := range g.SCCs {
		strata[level[c]] = append(strata[level[c]], members...)
	}
	for _, s := range strata {
		sort.Strings(s)
	}
	return strata
}

// edgesFrom returns the edges whose From is key, using the sort order of Edges.
func (g *Graph) edgesFrom(key string) []Edge {
	lo := sort.Search(len(g.Edges), func(i int) bool { return g.Edges[i].From >= key })
	hi := lo
	for hi < len(g.Edges) && g.Edges[hi].From == key {
		hi++
	}
	return g.Edges[lo:hi]
}

// edge returns the edge from one relation to another, preferring the
// negative one when both exist.
func (g *Graph) edge(from, to string) (Edge, bool) {
	var found Edge
	ok := false
	for _, e := range g.edgesFrom(from) {
		if e.To == to {
			found, ok = e, true
		}
	}
	return found, ok
}

// findSCCs finds the components: logic.Components emits a component only
// after every component reachable from it, which for head-to-body edges is
// exactly evaluation order, and its search keeps its own stack, so that a
// long chain of relations in hostile input cannot exhaust the goroutine's.
func (g *Graph) findSCCs() {
	g.comp = make([]int, len(g.Relations))
	for c, comp := range logic.ComponentsOf(g.succ) {
		members := make([]string, len(comp))
		for i, w := range comp {
			g.comp[w] = c
			members[i] = g.Relations[w]
		}
		sort.Strings(members)
		g.SCCs = append(g.SCCs, members)
	}
}

// path returns a shortest path of relation keys from one relation to the
// first relation accepted by goal, following edges whose target keep accepts;
// it returns nil when there is none. The path starts with from.
func (g *Graph) path(from string, goal, keep func(string) bool) []string {
	start, ok := g.index[from]
	if !ok {
		return nil
	}
	prev := map[int]int{start: -1}
	queue := []int{start}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, w := range g.succ[v] {
			if _, seen := prev[w]; seen || !keep(g.Relations[w]) {
				continue
			}
			prev[w] = v
			if goal(g.Relations[w]) {
				return g.trace(prev, w)
			}
			queue = append(queue, w)
		}
	}
	return nil
}

// trace follows prev links back from w and returns the path in order.
func (g *Graph) trace(prev map[int]int, w int) []string {
	var rev []string
	for v := w; v != -1; v = prev[v] {
		rev = append(rev, g.Relations[v])
	}
	out := make([]string, len(rev))
	for i, k := range rev {
		out[len(rev)-1-i] = k
	}
	return out
}

// eachAtom calls fn for every atom in the literal l, with neg telling whether
// the atom is under a `not`. neg is the polarity of l itself.
func eachAtom(l gdl.Literal, neg bool, fn func(a *gdl.Atom, neg bool)) {
	switch l := l.(type) {
	case *gdl.Atom:
		fn(l, neg)
	case *gdl.Not:
		eachAtom(l.Arg, true, fn)
	case *gdl.Or:
		for _, a := range l.Args {
			eachAtom(a, neg, fn)
		}
	}
}
