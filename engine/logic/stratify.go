package logic

import (
	"fmt"
	"strings"
)

// Dependencies returns the dependency graph of rels: for each relation, the
// relations its rules read through positive or negated literals, each once,
// in the order they are first read. The strata of the program are its
// strongly connected components (ComponentsOf), each evaluated after the
// ones it reads.
func Dependencies(rels Relations) [][]int {
	deps := make([][]int, rels.Len())
	for i := range deps {
		seen := map[int]bool{}
		for _, r := range rels.Rules(i) {
			for _, l := range r.Body {
				if (l.Kind == LitPos || l.Kind == LitNeg) && !seen[l.Rel] {
					seen[l.Rel] = true
					deps[i] = append(deps[i], l.Rel)
				}
			}
		}
	}
	return deps
}

// Recursive reports whether a group of relations (a strongly connected
// component of the dependency graph) needs fixpoint iteration: it has more
// than one relation, or its relation reads itself through a positive
// literal.
func Recursive(rels Relations, scc []int) bool {
	if len(scc) > 1 {
		return true
	}
	for _, r := range rels.Rules(scc[0]) {
		for _, l := range r.Body {
			if l.Kind == LitPos && l.Rel == scc[0] {
				return true
			}
		}
	}
	return false
}

// NegativeCycle is a negated literal whose relation is in the same
// recursive group as the head of its rule: whether the relation holds
// depends on its own negation, so the group has no stratified model.
type NegativeCycle struct {
	Head int      // the relation whose rule holds the literal
	Lit  *Literal // the negated literal
}

// NegativeCycles returns the negated literals of the group's rules that
// read a relation of the group, in the order of the group, of each
// relation's rules and of each body.
func NegativeCycles(rels Relations, scc []int) []NegativeCycle {
	in := map[int]bool{}
	for _, r := range scc {
		in[r] = true
	}
	var out []NegativeCycle
	for _, r := range scc {
		for _, ru := range rels.Rules(r) {
			for i := range ru.Body {
				if l := &ru.Body[i]; l.Kind == LitNeg && in[l.Rel] {
					out = append(out, NegativeCycle{Head: r, Lit: l})
				}
			}
		}
	}
	return out
}

// Message describes the cycle for an error at the literal's position,
// naming the group as GroupNames does.
func (c NegativeCycle) Message(rels Relations, scc []int, show int) string {
	return fmt.Sprintf("negation is not stratified: %s depends on its own negation through the recursive group {%s}",
		rels.Key(c.Head), GroupNames(rels, scc, show))
}

// GroupNames names the relations of a group for messages: all of them when
// show is 0, else the first show and how many more.
func GroupNames(rels Relations, scc []int, show int) string {
	var names []string
	for i, x := range scc {
		if i == show && show > 0 {
			names = append(names, fmt.Sprintf("and %d more", len(scc)-show))
			break
		}
		names = append(names, rels.Key(x))
	}
	return strings.Join(names, ", ")
}
