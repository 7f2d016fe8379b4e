package prover

import "slices"

// Relations read only under negation are evaluated on demand rather than
// bottom-up. A negated literal is tested when all its variables are bound,
// so every question asked of such a relation is a membership question for
// one ground tuple; the prover answers it by running the relation's rules
// with the head bound to that tuple and remembers the answer for the model.
//
// Why: games written for top-down provers (ggp-base's) use relations such as
// chess's (threatened_with_capture ?owner ?cx ?cy ?x ?y ?ignorex ?ignorey),
// whose full extension has millions of tuples in some positions while the
// rules only ever ask about a handful of them. Materialising them exceeds
// the fact bound; answering on demand costs a few joins per question.

// keywordRelations are read by the Machine methods from their tables, so
// they are always computed bottom-up.
var keywordRelations = map[string]bool{
	"role": true, "init": true, "true": true, "does": true, "next": true,
	"legal": true, "goal": true, "terminal": true, "base": true, "input": true,
}

// markDemand marks the relations that are evaluated on demand: they have
// rules, are read under negation and by no positive literal, and are not GDL
// keywords. Such a relation is never recursive: a cycle through it would
// pass a negation and the program is stratified.
func (p *program) markDemand() {
	positive := make([]bool, len(p.rels))
	negative := make([]bool, len(p.rels))
	for _, rel := range p.rels {
		for _, r := range rel.rules {
			for _, l := range r.body {
				switch l.kind {
				case litPos:
					positive[l.rel] = true
				case litNeg:
					negative[l.rel] = true
				}
			}
		}
	}
	for i, rel := range p.rels {
		rel.demand = negative[i] && !positive[i] && !keywordRelations[rel.name] && len(rel.rules) > 0
	}
}

// holds reports whether the ground tuple is a fact of the demand relation
// rel, evaluating its rules with the head bound when the model does not
// know the answer yet. tuple is not retained.
func (e *evaluator) holds(rel int, tuple []termID) bool {
	t := e.tables[rel]
	if t.contains(tuple) {
		return true
	}
	if t.absent != nil && t.absent.contains(tuple) {
		return false
	}
	tuple = slices.Clone(tuple) // the caller's slice is scratch space
	q := e.subEvaluator()
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

// subEvaluator returns the evaluator that answers e's demand questions. It
// is kept and reused: questions nest strictly, each level with its own
// bindings.
func (e *evaluator) subEvaluator() *evaluator {
	if e.sub == nil {
		e.sub = &evaluator{p: e.p, query: true, limit: e.limit, where: e.where}
	}
	q := e.sub
	q.tables, q.left, q.err = e.tables, e.left, nil
	return q
}

// prove reports whether rule r derives the ground head tuple.
func (e *evaluator) prove(r *rule, tuple []termID) bool {
	e.found = false
	e.reset(r)
	if e.matchAll(r.args, tuple) {
		e.join(r, len(r.body))
	}
	return e.found
}
