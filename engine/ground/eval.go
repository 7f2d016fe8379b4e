package ground

import (
	"context"

	"gdlab/engine/logic"
)

// evaluator joins rule bodies against the relations' tables. In the
// fixpoint it derives head facts (relaxed for dynamic rules); in the
// instantiation it hands every complete match to emit.
type evaluator struct {
	logic.Bindings
	p       *program
	pl      planner
	ctx     context.Context
	matched []int32   // per body literal: the tuple it matched
	out     []Term    // head tuples derived by the current rule
	nOut    int       // how many: out is empty for a 0-ary head
	outSet  hashIndex // the tuples of out, so that out holds each once
	emit    func(r *logic.Rule)
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
func (e *evaluator) countMatch(*logic.Rule) {
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
func (e *evaluator) run(r *logic.Rule, plan []step) {
	e.Reset(r.Slots)
	if cap(e.matched) < len(r.Body) {
		e.matched = make([]int32, len(r.Body))
	}
	e.matched = e.matched[:len(r.Body)]
	e.join(r, plan, 0)
}

func (e *evaluator) join(r *logic.Rule, plan []step, i int) {
	if e.err != nil || e.stop {
		return
	}
	if i == len(plan) {
		e.emit(r)
		return
	}
	st := &plan[i]
	l := &r.Body[st.lit]
	switch l.Kind {
	case logic.LitPos:
		e.joinPositive(r, plan, i, st, l)
	case logic.LitNeg:
		tuple, ok := e.BuildTuple(l.Args, false)
		if !ok || e.p.rels[l.Rel].tab.find(tuple) < 0 {
			e.join(r, plan, i+1)
		}
	case logic.LitDistinct, logic.LitEqual:
		a, _ := e.Build(l.Args[0], false)
		b, _ := e.Build(l.Args[1], false)
		// A term never interned differs from every interned one; two such
		// terms are compared by value.
		var differ bool
		if a == logic.NoTerm || b == logic.NoTerm {
			differ = !e.sameUninterned(l.Args[0], l.Args[1])
		} else {
			differ = a != b
		}
		if differ == (l.Kind == logic.LitDistinct) {
			e.join(r, plan, i+1)
		}
	}
}

// sameUninterned compares two bound patterns by value when at least one of
// them builds a term that was never interned.
func (e *evaluator) sameUninterned(a, b logic.Pattern) bool {
	x, _ := e.Build(a, true)
	y, _ := e.Build(b, true)
	return x == y
}

// joinPositive enumerates the facts of l's relation that match its arguments.
func (e *evaluator) joinPositive(r *logic.Rule, plan []step, i int, st *step, l *logic.Literal) {
	t := e.p.rels[l.Rel].tab
	switch {
	case st.delta:
		for ti := e.deltaLo[l.Rel]; ti < e.deltaHi[l.Rel] && e.tick(); ti++ {
			e.try(r, plan, i, st, l, t, int32(ti))
		}
	case st.full:
		if !e.tick() {
			return
		}
		if tuple, ok := e.BuildTuple(l.Args, false); ok {
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
		h, ok := e.keyHash(l.Args, st.key)
		if !ok {
			return
		}
		x := t.lookup(st.key)
		for ti := x.first(h); ti >= 0 && e.tick(); ti = x.next[ti] {
			e.try(r, plan, i, st, l, t, ti)
		}
	}
}

func (e *evaluator) try(r *logic.Rule, plan []step, i int, st *step, l *logic.Literal, t *table, ti int32) {
	mark := e.Mark()
	if e.MatchAll(l.Args, t.tuple(int(ti))) {
		e.matched[st.lit] = ti
		e.join(r, plan, i+1)
	}
	e.Undo(mark)
}

// derive is the fixpoint's emit: it collects the head tuple of a match,
// unless the head's table or the collection already holds it. Tables do not
// change during a join, so new tuples wait in out.
func (e *evaluator) derive(r *logic.Rule) {
	if tuple, ok := e.BuildTuple(r.Args, false); ok && e.p.rels[r.Head].tab.find(tuple) >= 0 {
		return
	}
	tuple, _ := e.BuildTuple(r.Args, true)
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
