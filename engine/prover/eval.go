package prover

import (
	"fmt"
	"slices"
)

// table holds the facts of one relation in one model: tuples stored flat,
// an open-addressing hash set over them for membership and, built on first
// use, an index per argument.
type table struct {
	arity int
	n     int // number of tuples
	data  []termID
	slots []int32 // tuple index + 1, or 0 for an empty slot; len is a power of two
	index []map[termID][]int32
	// absent holds the tuples known not to hold, for a relation evaluated
	// on demand (demand.go); nil otherwise.
	absent *table
	// questions holds the tabled questions about a relation on demand,
	// by tupleKey (tabling.go); nil until one is asked.
	questions map[string]*answers
}

func newTable(arity int) *table {
	return &table{arity: arity, slots: make([]int32, 8), index: make([]map[termID][]int32, arity)}
}

func (t *table) tuple(i int) []termID { return t.data[i*t.arity : (i+1)*t.arity] }

func hashTuple(tuple []termID) uint64 {
	h := uint64(len(tuple)) * 0x9E3779B97F4A7C15
	for _, a := range tuple {
		h ^= uint64(uint32(a))
		h *= 0xBF58476D1CE4E5B9
		h ^= h >> 31
	}
	return h
}

// find returns the slot holding tuple, or the empty slot where it belongs.
func (t *table) find(tuple []termID) (int, bool) {
	mask := len(t.slots) - 1
	for i := int(hashTuple(tuple)) & mask; ; i = (i + 1) & mask {
		s := t.slots[i]
		if s == 0 {
			return i, false
		}
		if slices.Equal(t.tuple(int(s-1)), tuple) {
			return i, true
		}
	}
}

func (t *table) contains(tuple []termID) bool {
	_, ok := t.find(tuple)
	return ok
}

// add inserts a tuple and reports whether it was new. tuple is copied.
func (t *table) add(tuple []termID) bool {
	slot, ok := t.find(tuple)
	if ok {
		return false
	}
	i := int32(t.n)
	t.slots[slot] = i + 1
	t.data = append(t.data, tuple...)
	t.n++
	for pos, idx := range t.index {
		if idx != nil {
			idx[tuple[pos]] = append(idx[tuple[pos]], i)
		}
	}
	if 2*t.n > len(t.slots) {
		t.grow()
	}
	return true
}

// grow doubles the hash set, keeping the load factor at most one half.
func (t *table) grow() {
	t.slots = make([]int32, 2*len(t.slots))
	mask := len(t.slots) - 1
	for k := 0; k < t.n; k++ {
		i := int(hashTuple(t.tuple(k))) & mask
		for t.slots[i] != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = int32(k + 1)
	}
}

// candidates returns the tuples whose argument pos is id.
func (t *table) candidates(pos int, id termID) []int32 {
	if t.index[pos] == nil {
		idx := map[termID][]int32{}
		for i := 0; i < t.n; i++ {
			a := t.data[i*t.arity+pos]
			idx[a] = append(idx[a], int32(i))
		}
		t.index[pos] = idx
	}
	return t.index[pos][id]
}

// LimitError reports that evaluation derived more facts than the prover's
// bound allows: the game is too large (or not finite) for the prover.
type LimitError struct {
	Limit    int
	Where    string // which layer of the model was being computed
	Relation string // the relation whose fact went over the limit
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("prover: more than %d facts derived while computing the %s (at %s); the game is too large for the reference prover", e.Limit, e.Where, e.Relation)
}

// evaluator computes one layer of a model bottom-up.
type evaluator struct {
	p      *program
	tables []*table
	bind   []termID
	trail  []int
	tup    []termID // scratch for buildTuple
	done   []bool   // body literals joined so far in the current rule
	ndone  int
	left   *int // facts that may still be derived before the limit, shared with sub
	limit  int
	where  string
	err    error
	// the facts of the previous semi-naive round of each relation: [lo, hi)
	deltaLo, deltaHi []int
	// query is set on an evaluator that answers membership questions for
	// relations evaluated on demand: it stops at the first derivation,
	// setting found, instead of storing facts. sub answers e's questions.
	query, found bool
	sub          *evaluator
	// into is set on an evaluator that answers a tabled question: derive
	// adds to its answers. tab is shared by the nested evaluators.
	into *answers
	tab  *tabling
}

// evalLayer derives every relation of the given layer into tables, which
// already holds the tables of the layers below.
func (p *program) evalLayer(tables []*table, layer int, limit int, where string) error {
	left := limit
	e := &evaluator{p: p, tables: tables, left: &left, limit: limit, where: where, tab: &tabling{},
		deltaLo: make([]int, len(p.rels)), deltaHi: make([]int, len(p.rels))}
	for _, scc := range p.strata[layer] {
		if p.rels[scc[0]].demand {
			continue // answered when asked (demand.go)
		}
		if p.recursive(scc) {
			e.fixpoint(scc)
		} else {
			for _, r := range p.rels[scc[0]].rules {
				e.evalRule(r, len(r.body))
			}
		}
		if e.err != nil {
			return e.err
		}
	}
	return nil
}

// fixpoint evaluates a recursive group semi-naively: after a first full
// round, each round joins at least one fact new in the previous round.
func (e *evaluator) fixpoint(scc []int) {
	in := map[int]bool{}
	before := map[int]int{}
	for _, r := range scc {
		in[r] = true
		before[r] = e.tables[r].n
	}
	for _, rel := range scc {
		for _, r := range e.p.rels[rel].rules {
			e.evalRule(r, len(r.body))
		}
	}
	for e.err == nil {
		changed := false
		for _, r := range scc {
			e.deltaLo[r], e.deltaHi[r] = before[r], e.tables[r].n
			before[r] = e.tables[r].n
			changed = changed || e.deltaLo[r] < e.deltaHi[r]
		}
		if !changed {
			return
		}
		for _, rel := range scc {
			for _, r := range e.p.rels[rel].rules {
				for k, l := range r.body {
					if l.kind == litPos && in[l.rel] && e.deltaLo[l.rel] < e.deltaHi[l.rel] {
						e.evalRule(r, k)
					}
				}
			}
		}
	}
}

// evalRule derives the heads of r; when delta < len(r.body), body literal
// delta ranges only over the facts of the previous round.
func (e *evaluator) evalRule(r *rule, delta int) {
	e.reset(r)
	e.join(r, delta)
}

// reset clears the bindings and the joined literals for rule r.
func (e *evaluator) reset(r *rule) {
	if cap(e.bind) < r.slots {
		e.bind = make([]termID, r.slots)
	}
	e.bind = e.bind[:r.slots]
	for i := range e.bind {
		e.bind[i] = noTerm
	}
	if cap(e.done) < len(r.body) {
		e.done = make([]bool, len(r.body))
	}
	e.done, e.ndone = e.done[:len(r.body)], 0
	clear(e.done)
	e.trail = e.trail[:0]
}

// join extends the current bindings over the body literals not yet done.
// The order is chosen as the join goes: a test (negation, distinct) as soon
// as its variables are bound, then the delta literal of a semi-naive round,
// then the positive literal with the fewest matching facts under the current
// bindings. Choosing late keeps the prover fast on rules written for top-down
// evaluation without giving up the simplicity of bottom-up semantics.
func (e *evaluator) join(r *rule, delta int) {
	if e.err != nil || e.found {
		return
	}
	if e.ndone == len(r.body) {
		e.derive(r)
		return
	}
	for i := range r.body {
		l := &r.body[i]
		if !e.done[i] && l.kind != litPos && e.bound(l.vars) {
			e.setDone(i, true)
			if e.test(l) {
				e.join(r, delta)
			}
			e.setDone(i, false)
			return
		}
	}
	if delta < len(r.body) && !e.done[delta] {
		l := &r.body[delta]
		e.setDone(delta, true)
		for ti := e.deltaLo[l.rel]; ti < e.deltaHi[l.rel]; ti++ {
			e.tryTuple(r, delta, l, e.tables[l.rel].tuple(ti))
		}
		e.setDone(delta, false)
		return
	}
	e.joinCheapest(r, delta)
}

func (e *evaluator) setDone(i int, done bool) {
	e.done[i] = done
	if done {
		e.ndone++
	} else {
		e.ndone--
	}
}

// bound reports whether every given variable slot is bound.
func (e *evaluator) bound(slots []int) bool {
	for _, s := range slots {
		if e.bind[s] == noTerm {
			return false
		}
	}
	return true
}

// test evaluates a negation, a question to a relation on demand, a distinct
// or an equality, once its variables are bound.
func (e *evaluator) test(l *literal) bool {
	switch l.kind {
	case litNeg:
		if e.p.rels[l.rel].demand {
			// Intern: the rules may build a term no fact holds yet.
			tuple, _ := e.buildTuple(l.args, true)
			return !e.member(l.rel, tuple)
		}
		tuple, ok := e.buildTuple(l.args, false)
		return !ok || !e.tables[l.rel].contains(tuple)
	case litAsk:
		tuple, _ := e.buildTuple(l.args, true)
		return e.member(l.rel, tuple)
	case litDistinct, litEqual:
		a, _ := e.build(l.args[0], true)
		b, _ := e.build(l.args[1], true)
		return (a != b) == (l.kind == litDistinct)
	}
	return false
}

// access is how a positive literal would be enumerated: a membership test,
// the facts indexed under one bound argument, or a scan.
type access struct {
	lit   int
	cost  int
	all   bool    // every argument bound: membership test
	cands []int32 // facts with a bound argument's value, when indexed
	scan  bool
}

// joinCheapest enumerates the positive literal with the fewest candidates.
func (e *evaluator) joinCheapest(r *rule, delta int) {
	best := access{lit: -1}
	for i := range r.body {
		if e.done[i] || r.body[i].kind != litPos {
			continue
		}
		a := e.access(&r.body[i])
		if a.cost == 0 {
			return // no fact can match: the join is empty
		}
		if best.lit < 0 || a.cost < best.cost {
			best, best.lit = a, i
		}
	}
	if best.lit < 0 {
		e.joinAsk(r, delta) // only questions are left
		return
	}
	l := &r.body[best.lit]
	t := e.tables[l.rel]
	e.setDone(best.lit, true)
	switch {
	case best.all:
		e.join(r, delta)
	case best.scan:
		for ti := 0; ti < t.n; ti++ {
			e.tryTuple(r, delta, l, t.tuple(ti))
		}
	default:
		for _, ti := range best.cands {
			e.tryTuple(r, delta, l, t.tuple(int(ti)))
		}
	}
	e.setDone(best.lit, false)
}

// access estimates how to enumerate l under the current bindings. A cost of
// 0 means nothing matches.
func (e *evaluator) access(l *literal) access {
	t := e.tables[l.rel]
	if e.bound(l.vars) {
		tuple, ok := e.buildTuple(l.args, false)
		if !ok || !t.contains(tuple) {
			return access{cost: 0}
		}
		return access{cost: 1, all: true}
	}
	a := access{cost: t.n, scan: true}
	for pos, p := range l.args {
		if !e.bound(l.argVars[pos]) {
			continue
		}
		id, ok := e.build(p, false)
		if !ok {
			return access{cost: 0} // a term never interned matches nothing
		}
		if c := t.candidates(pos, id); len(c) < a.cost || a.scan {
			a = access{cost: len(c), cands: c}
		}
	}
	return a
}

func (e *evaluator) tryTuple(r *rule, delta int, l *literal, tuple []termID) {
	mark := len(e.trail)
	if e.matchAll(l.args, tuple) {
		e.join(r, delta)
	}
	e.undo(mark)
}

// derive adds the head of r under the bindings to its table, or to the
// answers of the question being answered, or notes that a membership
// question holds.
func (e *evaluator) derive(r *rule) {
	if e.query {
		e.found = true
		return
	}
	tuple, _ := e.buildTuple(r.args, true)
	if e.into == nil {
		if e.tables[r.head].add(tuple) {
			e.spend(r.head)
		}
	} else if e.into.facts.add(tuple) {
		e.tab.clock++
		e.tab.lastNew = e.tab.clock
		e.spend(r.head)
	}
}

// spend counts a new fact of relation rel against the bound.
func (e *evaluator) spend(rel int) {
	*e.left--
	if *e.left < 0 && e.err == nil {
		r := e.p.rels[rel]
		e.err = &LimitError{Limit: e.limit, Where: e.where, Relation: relKey(r.name, r.arity)}
	}
}

// buildTuple instantiates args under the bindings. Without intern, it fails
// (ok false) when a variable is unbound or a term was never interned; the
// returned slice is only valid until the next call.
func (e *evaluator) buildTuple(args []pattern, intern bool) ([]termID, bool) {
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

// build instantiates p. It returns (noTerm, false) when p has an unbound
// variable or, without intern, when the ground term does not exist.
func (e *evaluator) build(p pattern, intern bool) (termID, bool) {
	switch p.kind {
	case patGround:
		return p.id, true
	case patVar:
		id := e.bind[p.slot]
		return id, id != noTerm
	}
	var buf [8]termID
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

func (e *evaluator) matchAll(ps []pattern, tuple []termID) bool {
	for i, p := range ps {
		if !e.match(p, tuple[i]) {
			return false
		}
	}
	return true
}

// match unifies a pattern with a ground term, recording new bindings on the trail.
func (e *evaluator) match(p pattern, id termID) bool {
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
