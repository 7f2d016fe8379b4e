package ground

import (
	"fmt"
	"strings"

	"gdlab/engine/gdl"
)

// dependencies lists, for each relation, the relations its rules read.
func (p *program) dependencies() [][]int {
	deps := make([][]int, len(p.rels))
	for i, rel := range p.rels {
		seen := map[int]bool{}
		for _, r := range rel.rules {
			for _, l := range r.body {
				if (l.kind == litPos || l.kind == litNeg) && !seen[l.rel] {
					seen[l.rel] = true
					deps[i] = append(deps[i], l.rel)
				}
			}
		}
	}
	return deps
}

// checkStratified reports every negated literal whose relation is in the
// same recursive group of static relations as the rule's head: such rules
// have no stratified model to evaluate. Dynamic relations are only
// instantiated, never evaluated, so their negation need only be stratified
// atom by atom: (goal ?p 0) may read (not (goal ?p 100)). The network
// checks that when it orders its gates.
func (p *program) checkStratified(d *gdl.Description, deps [][]int) error {
	var errs gdl.ErrorList
	for _, scc := range tarjan(len(p.rels), deps) {
		if !p.rels[scc[0]].static {
			continue
		}
		in := map[int]bool{}
		for _, r := range scc {
			in[r] = true
		}
		for _, r := range scc {
			for _, ru := range p.rels[r].rules {
				for _, l := range ru.body {
					if l.kind == litNeg && in[l.rel] {
						errs.Add(d.Position(l.pos), "negation is not stratified: %s depends on its own negation through the recursive group {%s}",
							relKey(p.rels[r].name, p.rels[r].arity), p.groupNames(scc))
					}
				}
			}
		}
	}
	errs.Sort()
	return errs.Err()
}

// groupNames names the relations of a group for messages, eliding long groups.
func (p *program) groupNames(scc []int) string {
	const show = 4
	var names []string
	for i, x := range scc {
		if i == show {
			names = append(names, fmt.Sprintf("and %d more", len(scc)-show))
			break
		}
		names = append(names, relKey(p.rels[x].name, p.rels[x].arity))
	}
	return strings.Join(names, ", ")
}

// addStateRules adds the rules of the relaxed game: a fact may be true if
// it is initial or may be next, and a move may be done if it may be legal.
func (p *program) addStateRules() {
	x := pattern{kind: patVar, slot: 0}
	y := pattern{kind: patVar, slot: 1}
	add := func(head, body int, args []pattern) {
		r := &rule{head: head, args: args, slots: len(args),
			body: []literal{{kind: litPos, rel: body, args: args}}}
		p.rels[head].rules = append(p.rels[head].rules, r)
	}
	add(p.rel.true, p.rel.init, []pattern{x})
	add(p.rel.true, p.rel.next, []pattern{x})
	add(p.rel.does, p.rel.legal, []pattern{x, y})
}

// classify marks the relations that depend on neither true nor does as
// static, and returns the relevant relations' strongly connected components
// in evaluation order (each after those it reads). Relevant relations are
// those the network's outputs, the initial state and the roles depend on.
func (p *program) classify() ([][]int, error) {
	deps := p.dependencies()
	relevant := make([]bool, len(p.rels))
	var visit func(int)
	visit = func(r int) {
		if relevant[r] {
			return
		}
		relevant[r] = true
		for _, d := range deps[r] {
			visit(d)
		}
	}
	for _, r := range []int{p.rel.legal, p.rel.goal, p.rel.terminal, p.rel.next, p.rel.init, p.rel.role} {
		visit(r)
	}
	sub := make([][]int, len(p.rels))
	for r := range p.rels {
		if relevant[r] {
			sub[r] = deps[r]
		}
	}
	var order [][]int
	for _, scc := range tarjan(len(p.rels), sub) {
		if !relevant[scc[0]] {
			continue
		}
		static := true
		in := map[int]bool{}
		for _, r := range scc {
			in[r] = true
		}
		for _, r := range scc {
			rel := p.rels[r]
			switch r {
			case p.rel.true, p.rel.does, p.rel.legal, p.rel.goal, p.rel.terminal, p.rel.next:
				rel.keyword, static = true, false
			}
			for _, d := range deps[r] {
				static = static && (in[d] || p.rels[d].static)
			}
		}
		for _, r := range scc {
			p.rels[r].static = static
		}
		order = append(order, scc)
	}
	for _, r := range []int{p.rel.init, p.rel.role} {
		if !p.rels[r].static {
			return nil, fmt.Errorf("ground: %s depends on true or does; it must be static", relKey(p.rels[r].name, p.rels[r].arity))
		}
	}
	return order, nil
}

// tarjan returns the strongly connected components of a graph of n nodes,
// each component after all components it has edges into.
func tarjan(n int, edges [][]int) [][]int {
	index := make([]int, n)
	low := make([]int, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int
	var out [][]int
	next := 0
	var visit func(v int)
	visit = func(v int) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		for _, w := range edges[v] {
			if index[w] < 0 {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			var scc []int
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				scc = append(scc, w)
				if w == v {
					break
				}
			}
			out = append(out, scc)
		}
	}
	for v := 0; v < n; v++ {
		if index[v] < 0 {
			visit(v)
		}
	}
	return out
}

// recursive reports whether a group needs fixpoint iteration: more than one
// relation, or one that reads itself.
func (p *program) recursive(scc []int) bool {
	if len(scc) > 1 {
		return true
	}
	for _, r := range p.rels[scc[0]].rules {
		for _, l := range r.body {
			if l.kind == litPos && l.rel == scc[0] {
				return true
			}
		}
	}
	return false
}
