package ground

import "context"

// evaluator joins rule bodies against the relations' tables. In the
// fixpoint it derives head facts (relaxed for dynamic rules); in the
// instantiation it hands every complete match to emit.
type evaluator struct {
	p       *program
	pl      planner
	ctx     context.Context
	bind    []Term
	trail   []int
	tup     []Term
	matched []int32   // per body literal: the tuple it matched
	out     []Term    // head tuples derived by the current rule
	nOut    int       // how many: out is empty for a 0-ary head
	outSet  hashIndex // the tuples of out, so that out holds each once
	emit    func(r *rule)
	size    int // atoms + ground rules so far
	lim     limits
	work    int64
	err     error
	// the facts of the previous semi-naive round of each relation: [lo, hi)
	deltaLo, deltaHi []int
	where            string // what is being computed, for limit errors
	stop             bool   // abandon the current join (a count passed its limit)
	count, countMax  int    // for countMatch
}

// countMatch is an emit that counts matches, stopping past countMax.
func (e *evaluator) countMatch(*rule) {
	e.count++
	if e.count > e.countMax {
		e.stop = true
	}
}

// limits are the resolved bounds of one grounding.
type limits struct {
	size int
	work int64
}

// tick counts one unit of join work, checking the bound and, now and then,
// the context.
func (e *evaluator) tick() bool {
	e.work++
	if e.work&0x3fff == 0 {
		if err := e.ctx.Err(); err != nil {
			e.err = err
		} else if e.work > e.lim.work {
			e.err = &LimitError{Bound: "join steps", Limit: int(e.lim.work), Reached: int(e.work), Where: e.where}
		}
	}
	return e.err == nil
}

// grow counts n new atoms or rules against the size bound.
func (e *evaluator) grow(n int) {
	e.size += n
	if e.size > e.lim.size && e.err == nil {
		e.err = &LimitError{Bound: "ground atoms and rules", Limit: e.lim.size, Reached: e.size, Where: e.where}
	}
}

// run joins r's body in the given plan, calling e.emit on every match.
func (e *evaluator) run(r *rule, plan []step) {
	if cap(e.bind) < r.slots {
		e.bind = make([]Term, r.slots)
	}
	e.bind = e.bind[:r.slots]
	for i := range e.bind {
		e.bind[i] = noTerm
	}
	if cap(e.matched) < len(r.body) {
		e.matched = make([]int32, len(r.body))
	}
	e.matched = e.matched[:len(r.body)]
	e.join(r, plan, 0)
}

func (e *evaluator) join(r *rule, plan []step, i int) {
	if e.err != nil || e.stop {
		return
	}
	if i == len(plan) {
		e.emit(r)
		return
	}
	st := &plan[i]
	l := &r.body[st.lit]
	switch l.kind {
	case litPos:
		e.joinPositive(r, plan, i, st, l)
	case litNeg:
		tuple, ok := e.buildTuple(l.args, false)
		if !ok || e.p.rels[l.rel].tab.find(tuple) < 0 {
			e.join(r, plan, i+1)
		}
	case litDistinct, litEqual:
		a, _ := e.build(l.args[0], false)
		b, _ := e.build(l.args[1], false)
		// A term never interned differs from every interned one; two such
		// terms are compared by value.
		var differ bool
		if a == noTerm || b == noTerm {
			differ = !e.sameUninterned(l.args[0], l.args[1])
		} else {
			differ = a != b
		}
		if differ == (l.kind == litDistinct) {
			e.join(r, plan, i+1)
		}
	}
}

// sameUninterned compares two bound patterns by value when at least one of
// them builds a term that was never interned.
func (e *evaluator) sameUninterned(a, b pattern) bool {
	x, _ := e.build(a, true)
	y, _ := e.build(b, true)
	return x == y
}

// joinPositive enumerates the facts of l's relation that match its arguments.
func (e *evaluator) joinPositive(r *rule, plan []step, i int, st *step, l *literal) {
	t := e.p.rels[l.rel].tab
	switch {
	case st.delta:
		for ti := e.deltaLo[l.rel]; ti < e.deltaHi[l.rel] && e.tick(); ti++ {
			e.try(r, plan, i, st, l, t, int32(ti))
		}
	case st.full:
		if !e.tick() {
			return
		}
		if tuple, ok := e.buildTuple(l.args, false); ok {
			if ti := t.find(tuple); ti >= 0 {
				e.matched[st.lit] = ti
				e.join(r, plan, i+1)
			}
		}
	case st.key == nil:
		for ti, n := 0, t.n; ti < n && e.tick(); ti++ {
			e.try(r, plan, i, st, l, t, int32(ti))
		}
	default:
		h, ok := e.keyHash(l.args, st.key)
		if !ok {
			return
		}
		x := t.lookup(st.key)
		for ti := x.first(h); ti >= 0 && e.tick(); ti = x.next[ti] {
			e.try(r, plan, i, st, l, t, ti)
		}
	}
}

func (e *evaluator) try(r *rule, plan []step, i int, st *step, l *literal, t *table, ti int32) {
	mark := len(e.trail)
	if e.matchAll(l.args, t.tuple(int(ti))) {
		e.matched[st.lit] = ti
		e.join(r, plan, i+1)
	}
	e.undo(mark)
}

// derive is the fixpoint's emit: it collects the head tuple of a match,
// unless the head's table or the collection already holds it. Tables do not
// change during a join, so new tuples wait in out.
func (e *evaluator) derive(r *rule) {
	if tuple, ok := e.buildTuple(r.args, false); ok && e.p.rels[r.head].tab.find(tuple) >= 0 {
		return
	}
	tuple, _ := e.buildTuple(r.args, true)
	if e.nOut > 0 && e.pending(tuple) {
		return
	}
	if e.nOut == 0 {
		e.outSet.init(nil, 64)
		e.outSet.next = e.outSet.next[:0]
	}
	e.out = append(e.out, tuple...)
	e.outSet.insert(int32(e.nOut), hashTerms(tuple))
	e.nOut++
	if len(e.outSet.heads) < 2*e.nOut {
		e.regrowPending(len(tuple))
	}
	if e.size+e.nOut > e.lim.size && e.err == nil { // bound the buffer too
		e.err = &LimitError{Bound: "ground atoms and rules", Limit: e.lim.size, Reached: e.size + e.nOut, Where: e.where}
	}
}

// pending reports whether tuple is already waiting in out.
func (e *evaluator) pending(tuple []Term) bool {
	k := len(tuple)
	for i := e.outSet.first(hashTerms(tuple)); i >= 0; i = e.outSet.next[i] {
		if equalTerms(e.out[int(i)*k:int(i+1)*k], tuple) {
			return true
		}
	}
	return false
}

// regrowPending rebuilds the set over out with more buckets.
func (e *evaluator) regrowPending(arity int) {
	e.outSet.init(nil, 2*e.nOut)
	e.outSet.next = e.outSet.next[:0]
	for i := 0; i < e.nOut; i++ {
		e.outSet.insert(int32(i), hashTerms(e.out[i*arity:(i+1)*arity]))
	}
}

// buildTuple instantiates args under the bindings. Without intern, it fails
// (ok false) when a term was never interned; the returned slice is only
// valid until the next call.
func (e *evaluator) buildTuple(args []pattern, intern bool) ([]Term, bool) {
	out := e.tup[:0]
	for _, a := range args {
		id, ok := e.build(a, intern)
		if !ok {
			return nil, false
		}
		out = append(out, id)
	}
	e.tup = out
	return out, true
}

// build instantiates p under the bindings. Without intern it returns
// (noTerm, false) when the ground term does not exist.
func (e *evaluator) build(p pattern, intern bool) (Term, bool) {
	switch p.kind {
	case patGround:
		return p.id, true
	case patVar:
		id := e.bind[p.slot]
		return id, id != noTerm
	}
	var buf [8]Term
	args := buf[:0]
	for _, a := range p.args {
		id, ok := e.build(a, intern)
		if !ok {
			return noTerm, false
		}
		args = append(args, id)
	}
	if intern {
		return e.p.terms.intern(p.sym, true, args), true
	}
	id := e.p.terms.lookup(p.sym, true, args)
	return id, id != noTerm
}

func (e *evaluator) matchAll(ps []pattern, tuple []Term) bool {
	for i, p := range ps {
		if !e.match(p, tuple[i]) {
			return false
		}
	}
	return true
}

// match unifies a pattern with a ground term, recording new bindings on the trail.
func (e *evaluator) match(p pattern, id Term) bool {
	switch p.kind {
	case patGround:
		return p.id == id
	case patVar:
		if b := e.bind[p.slot]; b != noTerm {
			return b == id
		}
		e.bind[p.slot] = id
		e.trail = append(e.trail, p.slot)
		return true
	}
	t := &e.p.terms.terms[id]
	if !t.compound || t.sym != p.sym || len(t.args) != len(p.args) {
		return false
	}
	for i, a := range p.args {
		if !e.match(a, t.args[i]) {
			return false
		}
	}
	return true
}

func (e *evaluator) undo(mark int) {
	for _, slot := range e.trail[mark:] {
		e.bind[slot] = noTerm
	}
	e.trail = e.trail[:mark]
}
