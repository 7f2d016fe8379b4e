package prover

import (
	"fmt"
	"strings"
)

// stratifyOrSplit stratifies the program; where negation goes through a
// cycle, it splits the relations concerned by their constant arguments (see
// split.go) and tries again.
func (p *program) stratifyOrSplit() []posError {
	for {
		errs, cyclic := p.stratify()
		if len(errs) == 0 || !p.splitCycles(cyclic) {
			return errs
		}
		p.strata = [numLayers][][]int{}
	}
}

// stratify assigns every relation its layer and orders the relations of each
// layer into strata: groups of mutually recursive relations, each evaluated
// after everything it depends on. A cycle through negation cannot be
// evaluated and is reported.
func (p *program) stratify() (errs []posError, cyclic [][]int) {
	deps := p.dependencies()
	sccs := tarjan(len(p.rels), deps)
	// tarjan yields each component after every component it depends on.
	for _, scc := range sccs {
		if e := p.negativeCycle(scc); e != nil {
			errs = append(errs, *e)
			cyclic = append(cyclic, scc)
		}
		layer := layerStatic
		for _, r := range scc {
			switch r {
			case p.trueRel:
				layer = max(layer, layerState)
			case p.doesRel:
				layer = max(layer, layerMove)
			}
			for _, d := range deps[r] {
				layer = max(layer, p.rels[d].layer)
			}
		}
		for _, r := range scc {
			p.rels[r].layer = layer
		}
		p.strata[layer] = append(p.strata[layer], scc)
	}
	return errs, cyclic
}

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

// negativeCycle reports a negated literal whose relation is in the same
// recursive group as the rule's head.
func (p *program) negativeCycle(scc []int) *posError {
	in := map[int]bool{}
	for _, r := range scc {
		in[r] = true
	}
	for _, r := range scc {
		for _, ru := range p.rels[r].rules {
			for _, l := range ru.body {
				if l.kind == litNeg && in[l.rel] {
					names := make([]string, len(scc))
					for i, x := range scc {
						names[i] = relKey(p.rels[x].name, p.rels[x].arity)
					}
					return &posError{l.src.Pos(), fmt.Sprintf("negation is not stratified: %s depends on its own negation through the recursive group {%s}",
						relKey(p.rels[r].name, p.rels[r].arity), strings.Join(names, ", "))}
				}
			}
		}
	}
	return nil
}

// tarjan returns the strongly connected components of a graph of n nodes, each
// component after all components it has edges into.
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
