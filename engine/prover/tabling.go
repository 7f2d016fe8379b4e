package prover

import (
	"encoding/binary"
	"slices"

	"gdlab/engine/logic"
)

// A question asks for the facts of a relation on demand whose arguments at
// some positions are given (its mode's at least) and at the others free; it
// is written as a tuple with NoTerm at the free positions. Its answers are
// tabled: computed once by running the relation's rules with the head bound
// to the question, and kept in the relation's table in the model (for a
// static relation, for the whole game).
//
// Recursive relations ask questions of their own, and a question may come
// back to itself, directly or through others (a path over a cyclic graph).
// Such a question reads the answers found so far; the oldest question of the
// cycle (its leader) runs its rules again until a whole pass finds no new
// answer anywhere, and completes the questions of the cycle with itself.
// Until then they stay incomplete, and one that is asked again is run again
// unless nothing was found since its run started (running it again would
// find nothing either). This is SLG-style completion in its simplest form:
// the answers only grow, the fact bound limits them, and at completion every
// question of the cycle was run against answers that no longer change, so
// they are closed under the rules, which is the least model's answer.

// answers is the table of one question.
type answers struct {
	q        []logic.Term
	key      string
	home     map[string]*answers // the map holding it, to drop it
	facts    *table
	complete bool
	depth    int // position on the tabling stack while its rules run, else -1
	low      int // lowest stack position of a running question it read; noLow if none
	mark     int // length of the pending list when it was pushed
	started  int // clock when its latest pass started
}

// noLow is an answers' low when it read no question still running.
const noLow = int(^uint(0) >> 1)

// tabling is the bookkeeping of the questions being answered in one
// evaluation, shared by its nested evaluators.
type tabling struct {
	stack   []*answers // questions whose rules are running, oldest first
	pending []*answers // incomplete questions run under the questions on the stack
	clock   int        // ticks at every pass and every new answer
	lastNew int        // clock at the latest new answer
}

// solve returns the answers to question q about relation rel, running the
// relation's rules unless they are complete or cannot change. q is not
// retained.
func (e *evaluator) solve(rel int, q []logic.Term) *answers {
	t := e.tables[rel]
	if t.questions == nil {
		t.questions = map[string]*answers{}
	}
	key := tupleKey(q)
	a := t.questions[key]
	switch {
	case a == nil:
		a = &answers{q: slices.Clone(q), key: key, home: t.questions, facts: newTable(t.arity), depth: -1}
		t.questions[key] = a
		if e.spend(rel); e.err != nil { // a question counts against the fact bound too
			a.drop()
			return a
		}
	case a.complete:
		return a
	case a.depth >= 0: // a cycle: read what it has found so far
		e.readIncomplete(a.depth)
		return a
	case a.started > e.tab.lastNew: // run since the latest new answer
		e.readIncomplete(a.low)
		return a
	}
	sub := e.subEvaluator(false)
	sub.run(rel, a)
	e.err = sub.err
	return a
}

// readIncomplete records that the running question read answers that depend
// on the question at stack position low, so it cannot complete before that
// one does.
func (e *evaluator) readIncomplete(low int) {
	if n := len(e.tab.stack); n > 0 {
		top := e.tab.stack[n-1]
		top.low = min(top.low, low)
	}
}

// run answers question a about relation rel: one pass over the rules, or
// passes until nothing new is found when a leads a cycle.
func (e *evaluator) run(rel int, a *answers) {
	tab := e.tab
	a.depth, a.mark = len(tab.stack), len(tab.pending)
	tab.stack = append(tab.stack, a)
	for {
		tab.clock++
		a.started, a.low = tab.clock, noLow
		e.into = a
		for _, r := range e.p.rels[rel].rules {
			e.answer(r, a.q)
		}
		if e.err != nil || a.low != a.depth || tab.lastNew < a.started {
			break
		}
	}
	depth := a.depth
	tab.stack, a.depth = tab.stack[:depth], -1
	switch {
	case e.err != nil:
		a.drop()
		for _, p := range tab.pending[a.mark:] {
			p.drop()
		}
		tab.pending = tab.pending[:a.mark]
	case a.low < depth:
		e.follow(a)
	default:
		e.complete(a)
	}
}

// follow leaves a incomplete, part of a cycle through an older question:
// the questions run under a share its lowest dependency, and so does the
// question that asked it.
func (e *evaluator) follow(a *answers) {
	tab := e.tab
	for _, p := range tab.pending[a.mark:] {
		p.low = min(p.low, a.low)
	}
	tab.pending = append(tab.pending, a)
	e.readIncomplete(a.low)
}

// complete marks a complete, with the incomplete questions run under it
// since the latest new answer; the others were run against answers that
// have grown since, so they are dropped, to be asked afresh.
func (e *evaluator) complete(a *answers) {
	tab := e.tab
	a.complete = true
	for _, p := range tab.pending[a.mark:] {
		if p.started > tab.lastNew {
			p.complete = true
		} else {
			p.drop()
		}
	}
	tab.pending = tab.pending[:a.mark]
}

// drop forgets an incomplete question.
func (a *answers) drop() {
	if a.home[a.key] == a {
		delete(a.home, a.key)
	}
}

// answer runs rule r with its head bound to the question q, adding what it
// derives to e.into.
func (e *evaluator) answer(r *logic.Rule, q []logic.Term) {
	e.reset(r)
	for pos, id := range q {
		if id != logic.NoTerm && !e.Match(r.Args[pos], id) {
			return
		}
	}
	e.join(r, len(r.Body))
}

// tupleKey encodes a question as a map key.
func tupleKey(q []logic.Term) string {
	b := make([]byte, 0, 4*len(q))
	for _, id := range q {
		b = binary.LittleEndian.AppendUint32(b, uint32(id))
	}
	return string(b)
}

// question returns the question that l asks under the current bindings:
// its bound arguments, NoTerm at the others. The slice is scratch space.
func (e *evaluator) question(l *logic.Literal) []logic.Term {
	out := e.q[:0]
	for pos, a := range l.Args {
		id := logic.NoTerm
		if e.Bound(l.ArgVars[pos]) {
			id, _ = e.Build(a, true)
		}
		out = append(out, id)
	}
	e.q = out
	return out
}

// ready reports whether l's question binds the arguments its relation needs.
func (e *evaluator) ready(l *logic.Literal) bool {
	for pos, n := range e.p.rels[l.Rel].need {
		if n && !e.Bound(l.ArgVars[pos]) {
			return false
		}
	}
	return true
}

// joinAsk extends the join over the answers to the first question of r that
// is ready, once r has no materialised literal left to join: a question
// binds the variables of its answers, so it is asked after the literals that
// bind its arguments. The modes guarantee that one is ready (modes.go);
// were none, the first would be asked with what is bound, which is still
// right, only larger.
func (e *evaluator) joinAsk(r *logic.Rule, delta int) {
	k := -1
	for i := range r.Body {
		if !e.done[i] && r.Body[i].Kind == logic.LitAsk && (k < 0 || !e.ready(&r.Body[k]) && e.ready(&r.Body[i])) {
			k = i
		}
	}
	l := &r.Body[k]
	a := e.solve(l.Rel, e.question(l))
	if e.err != nil {
		return
	}
	e.setDone(k, true)
	// a may grow while its answers are joined (a cycle): the loop reads n
	// afresh and picks up the new ones too.
	for ti := 0; ti < a.facts.n; ti++ {
		e.tryTuple(r, delta, l, a.facts.tuple(ti))
	}
	e.setDone(k, false)
}

// member reports whether a ground tuple is a fact of the relation on demand
// rel. tuple is not retained.
func (e *evaluator) member(rel int, tuple []logic.Term) bool {
	if e.p.rels[rel].tabled {
		return e.solve(rel, tuple).facts.n > 0
	}
	return e.holds(rel, tuple)
}
