package prover

import (
	"slices"

	"gdlab/engine/logic"
)

// Some relations are evaluated on demand rather than bottom-up: those every
// reader asks about with all arguments bound. A negated literal is tested
// once its variables are bound, and a positive literal whose variables the
// rest of its rule binds can be tested the same way, so every question
// asked of such a relation is a membership question for one ground tuple;
// the prover answers it by running the relation's rules with the head bound
// to that tuple and remembers the answer for the model.
//
// Why: games written for top-down provers (ggp-base's) use relations such as
// chess's (threatened_with_capture ?owner ?cx ?cy ?x ?y ?ignorex ?ignorey)
// or sudoku's (exactlyFirst ?z ?x1 ... ?x9), whose full extension has
// millions of tuples while the rules only ever ask about a handful of them.
// Materialising them exceeds the fact bound; answering on demand costs a
// few joins per question.
//
// A static relation over the bound that some reader asks with arguments
// free is answered on demand too, its readers with it: see modes.go and
// tabling.go.

// keywordRelations are read by the Machine methods from their tables, so
// they are always computed bottom-up.
var keywordRelations = map[string]bool{
	"role": true, "init": true, "true": true, "does": true, "next": true,
	"legal": true, "goal": true, "terminal": true, "base": true, "input": true,
}

// markDemand marks the relations that are evaluated on demand and turns
// their positive readings into questions (LitAsk). A relation qualifies when
// it has rules and readers, is not a GDL keyword, is not recursive, is read
// positively only if ask allows it (see askInstead), and every literal that
// reads it, positive or negated, has each of its variables bound by the
// rest of its rule: by a positive literal of a relation evaluated
// bottom-up, or by the head when the rule itself belongs to a relation on
// demand (its rules run only with the head bound). The qualifying set is
// the largest one with that property, found by removing relations that
// fail it until none does. The relations in p.forced are then answered on
// demand with the modes forceDemand finds, and so are their readers. ask
// may be nil.
func (p *program) markDemand(ask []bool) {
	read, readPos := make([]bool, len(p.rels)), make([]bool, len(p.rels))
	for _, rel := range p.rels {
		for _, r := range rel.rules {
			for _, l := range r.Body {
				read[l.Rel] = read[l.Rel] || positive(l) || l.Kind == logic.LitNeg
				readPos[l.Rel] = readPos[l.Rel] || positive(l)
			}
		}
	}
	cand := make([]bool, len(p.rels))
	for i, rel := range p.rels {
		cand[i] = read[i] && !keywordRelations[rel.name] && len(rel.rules) > 0 && !logic.Recursive(p, []int{i}) && !p.inCycle(i) &&
			(!readPos[i] || ask != nil && ask[i])
	}
	for changed := true; changed; {
		changed = false
		for _, rel := range p.rels {
			for _, r := range rel.rules {
				for i, l := range r.Body {
					if (positive(l) || l.Kind == logic.LitNeg) && cand[l.Rel] && !boundBy(r, i, cand) {
						cand[l.Rel], changed = false, true
					}
				}
			}
		}
	}
	need := make([][]bool, len(p.rels))
	for i, c := range cand {
		if c {
			need[i] = allTrue(p.rels[i].arity)
		}
	}
	for _, f := range p.forced {
		p.forceDemand(f, need)
	}
	for i, rel := range p.rels {
		rel.need, rel.demand = need[i], need[i] != nil
		rel.tabled = rel.demand && (logic.Recursive(p, []int{i}) || p.inCycle(i))
		for _, r := range rel.rules {
			for k := range r.Body {
				if l := &r.Body[k]; positive(*l) {
					l.Kind = logic.LitPos
					if need[l.Rel] != nil {
						l.Kind = logic.LitAsk
					}
				}
			}
		}
	}
}

// positive reports whether l reads a relation positively.
func positive(l logic.Literal) bool { return l.Kind == logic.LitPos || l.Kind == logic.LitAsk }

// askInstead is the prover's answer to a static relation that exceeds the
// fact bound when computed bottom-up: if every reader asks about it with
// its arguments bound, it is answered on demand instead (markDemand with
// the relation allowed), and askInstead reports true. Otherwise the
// readers that leave its arguments free are answered on demand as well, by
// tabled questions with some arguments free (extendDemand); askInstead
// reports whether that works. Relations are
// materialised first because a positive literal of a materialised relation
// can generate bindings through its indexes, which a question cannot:
// answering merrills' adjacent/4 and mill/6 on demand made its replay five
// times slower. sudoku's exactlyFirst/10 (9^10 tuples) is the case for it.
//
// The static relations that read it, directly or through one another, are
// allowed too: a reader such as sudoku's exactlyOne/10, which only renames
// exactlyFirst/10's arguments, binds them through its own head, so it can
// pass questions on only if it is asked itself.
func (p *program) askInstead(relation string, ask []bool) bool {
	for i, rel := range p.rels {
		if relKey(rel.name, rel.arity) != relation || rel.layer != layerStatic || rel.demand || slices.Contains(p.forced, i) {
			continue
		}
		if !ask[i] {
			p.allowReaders(i, ask)
			p.markDemand(ask)
		}
		if !rel.demand {
			p.forced = append(p.forced, i)
			p.markDemand(ask)
		}
		return rel.demand
	}
	return false
}

// allowReaders sets ask for relation i and every static relation that
// reads it, transitively.
func (p *program) allowReaders(i int, ask []bool) {
	ask[i] = true
	for j, rel := range p.rels {
		if ask[j] || rel.layer != layerStatic {
			continue
		}
		for _, r := range rel.rules {
			if slices.ContainsFunc(r.Body, func(l logic.Literal) bool { return positive(l) && l.Rel == i }) {
				p.allowReaders(j, ask)
				break
			}
		}
	}
}

// inCycle reports whether relation i is in a group of mutually recursive
// relations.
func (p *program) inCycle(i int) bool {
	for _, layer := range p.strata {
		for _, scc := range layer {
			if len(scc) > 1 && slices.Contains(scc, i) {
				return true
			}
		}
	}
	return false
}

// boundBy reports whether every variable of r's body literal i occurs in a
// positive literal of r over a relation outside demand, or in r's head when
// r's own relation is in demand.
func boundBy(r *logic.Rule, i int, demand []bool) bool {
	var head map[int]bool
	if demand[r.Head] {
		head = map[int]bool{}
		for _, a := range r.Args {
			a.MarkSlots(head)
		}
	}
	for _, v := range r.Body[i].Vars {
		if !head[v] && !boundInBody(r, i, v, demand) {
			return false
		}
	}
	return true
}

func boundInBody(r *logic.Rule, i, v int, demand []bool) bool {
	for k, l := range r.Body {
		if k != i && positive(l) && !demand[l.Rel] && slices.Contains(l.Vars, v) {
			return true
		}
	}
	return false
}

// holds reports whether the ground tuple is a fact of the demand relation
// rel, evaluating its rules with the head bound when the model does not
// know the answer yet. tuple is not retained.
func (e *evaluator) holds(rel int, tuple []logic.Term) bool {
	t := e.tables[rel]
	if t.contains(tuple) {
		return true
	}
	if t.absent != nil && t.absent.contains(tuple) {
		return false
	}
	tuple = slices.Clone(tuple) // the caller's slice is scratch space
	q := e.subEvaluator(true)
	found := false
	for _, r := range e.p.rels[rel].rules {
		if q.prove(r, tuple) {
			found = true
			break
		}
	}
	if q.err != nil {
		e.err = q.err
		return false
	}
	if found {
		t.add(tuple)
	} else {
		if t.absent == nil {
			t.absent = newTable(t.arity)
		}
		t.absent.add(tuple)
	}
	return found
}

// subEvaluator returns the evaluator that answers e's demand questions: a
// membership question stopping at the first derivation (query), or a tabled
// question (tabling.go). It is kept and reused: questions nest strictly,
// each level with its own bindings.
func (e *evaluator) subEvaluator(query bool) *evaluator {
	if e.sub == nil {
		e.sub = &evaluator{Bindings: logic.Bindings{Terms: e.p.terms}, p: e.p, limit: e.limit, where: e.where, left: e.left, tab: e.tab}
	}
	q := e.sub
	q.tables, q.err, q.query, q.found, q.into = e.tables, nil, query, false, nil
	return q
}

// prove reports whether rule r derives the ground head tuple.
func (e *evaluator) prove(r *logic.Rule, tuple []logic.Term) bool {
	e.found = false
	e.reset(r)
	if e.MatchAll(r.Args, tuple) {
		e.join(r, len(r.Body))
	}
	return e.found
}
