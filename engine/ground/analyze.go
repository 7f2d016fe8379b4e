package ground

import (
	"fmt"

	"gdlab/engine/gdl"
	"gdlab/engine/logic"
)

// checkStratified reports every negated literal whose relation is in the
// same recursive group of static relations as the rule's head: such rules
// have no stratified model to evaluate. Dynamic relations are only
// instantiated, never evaluated, so their negation need only be stratified
// atom by atom: (goal ?p 0) may read (not (goal ?p 100)). The network
// checks that when it orders its gates.
func (p *program) checkStratified(d *gdl.Description, deps [][]int) error {
	var errs gdl.ErrorList
	for _, scc := range logic.ComponentsOf(deps) {
		if !p.rels[scc[0]].static {
			continue
		}
		for _, c := range logic.NegativeCycles(p, scc) {
			errs.Add(d.Position(c.Lit.Pos()), "%s", c.Message(p, scc, groupShown))
		}
	}
	errs.Sort()
	return errs.Err()
}

// groupShown is how many relations of a recursive group messages name.
const groupShown = 4

// addStateRules adds the rules of the relaxed game: a fact may be true if
// it is initial or may be next, and a move may be done if it may be legal.
func (p *program) addStateRules() {
	x := logic.Pattern{Kind: logic.PatVar, Slot: 0}
	y := logic.Pattern{Kind: logic.PatVar, Slot: 1}
	add := func(head, body int, args []logic.Pattern) {
		r := &logic.Rule{Head: head, Args: args, Slots: len(args),
			Body: []logic.Literal{{Kind: logic.LitPos, Rel: body, Args: args}}}
		p.rels[head].rules = append(p.rels[head].rules, r)
	}
	add(p.rel.True, p.rel.Init, []logic.Pattern{x})
	add(p.rel.True, p.rel.Next, []logic.Pattern{x})
	add(p.rel.Does, p.rel.Legal, []logic.Pattern{x, y})
}

// classify marks the relations that depend on neither true nor does as
// static, and returns the relevant relations' strongly connected components
// in evaluation order (each after those it reads). Relevant relations are
// those the network's outputs, the initial state and the roles depend on.
func (p *program) classify() ([][]int, error) {
	deps := logic.Dependencies(p)
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
	for _, r := range []int{p.rel.Legal, p.rel.Goal, p.rel.Terminal, p.rel.Next, p.rel.Init, p.rel.Role} {
		visit(r)
	}
	sub := make([][]int, len(p.rels))
	for r := range p.rels {
		if relevant[r] {
			sub[r] = deps[r]
		}
	}
	var order [][]int
	for _, scc := range logic.ComponentsOf(sub) {
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
			case p.rel.True, p.rel.Does, p.rel.Legal, p.rel.Goal, p.rel.Terminal, p.rel.Next:
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
	for _, r := range []int{p.rel.Init, p.rel.Role} {
		if !p.rels[r].static {
			return nil, fmt.Errorf("ground: %s depends on true or does; it must be static", p.Key(r))
		}
	}
	return order, nil
}
