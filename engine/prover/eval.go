package prover

import (
	"fmt"
	"slices"

	"gdlab/engine/logic"
)

// table holds the facts of one relation in one model: tuples stored flat,
// an open-addressing hash set over them for membership and, built on first
// use, an index per argument.
type table struct {
	arity int
	n     int // number of tuples
	data  []logic.Term
	slots []int32 // tuple index + 1, or 0 for an empty slot; len is a power of two
	index []map[logic.Term][]int32
	// absent holds the tuples known not to hold, for a relation evaluated
	// on demand (demand.go); nil otherwise.
	absent *table
	// questions holds the tabled questions about a relation on demand,
	// by tupleKey (tabling.go); nil until one is asked.
	questions map[string]*answers
}

func newTable(arity int) *table {
	return &table{arity: arity, slots: make([]int32, 8), index: make([]map[logic.Term][]int32, arity)}
}

func (t *table) tuple(i int) []logic.Term { return t.data[i*t.arity : (i+1)*t.arity] }

func hashTuple(tuple []logic.Term) uint64 {
	h := uint64(len(tuple)) * 0x9E3779B97F4A7C15
	for _, a := range tuple {
		h ^= uint64(uint32(a))
		h *= 0xBF58476D1CE4E5B9
		h ^= h >> 31
	}
	return h
}

// find returns the slot holding tuple, or the empty slot where it belongs.
func (t *table) find(tuple []logic.Term) (int, bool) {
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

func (t *table) contains(tuple []logic.Term) bool {
	_, ok := t.find(tuple)
	return ok
}

// add inserts a tuple and reports whether it was new. tuple is copied.
func (t *table) add(tuple []logic.Term) bool {
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
func (t *table) candidates(pos int, id logic.Term) []int32 {
	if t.index[pos] == nil {
		idx := map[logic.Term][]int32{}
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
	logic.Bindings
	p      *program
	tables []*table
	done   []bool       // body literals joined so far in the current rule
	q      []logic.Term // scratch for question
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
	e := &evaluator{Bindings: logic.Bindings{Terms: p.terms}, p: p, tables: tables, left: &left, limit: limit, where: where, tab: &tabling{},
		deltaLo: make([]int, len(p.rels)), deltaHi: make([]int, len(p.rels))}
	for _, scc := range p.strata[layer] {
		if p.rels[scc[0]].demand {
			continue // answered when asked (demand.go)
		}
		if logic.Recursive(p, scc) {
			e.fixpoint(scc)
		} else {
			for _, r := range p.rels[scc[0]].rules {
				e.evalRule(r, len(r.Body))
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
			e.evalRule(r, len(r.Body))
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
				for k, l := range r.Body {
					if l.Kind == logic.LitPos && in[l.Rel] && e.deltaLo[l.Rel] < e.deltaHi[l.Rel] {
						e.evalRule(r, k)
					}
				}
			}
		}
	}
}

// evalRule derives the heads of r; when delta < len(r.Body), body literal
// delta ranges only over the facts of the previous round.
func (e *evaluator) evalRule(r *logic.Rule, delta int) {
	e.reset(r)
	e.join(r, delta)
}

// reset clears the bindings and the joined literals for rule r.
func (e *evaluator) reset(r *logic.Rule) {
	e.Reset(r.Slots)
	if cap(e.done) < len(r.Body) {
		e.done = make([]bool, len(r.Body))
	}
	e.done, e.ndone = e.done[:len(r.Body)], 0
	clear(e.done)
}

// join extends the current bindings over the body literals not yet done.
// The order is chosen as the join goes: a test (negation, distinct) as soon
// as its variables are bound, then the delta literal of a semi-naive round,
// then the positive literal with the fewest matching facts under the current
// bindings. Choosing late keeps the prover fast on rules written for top-down
// evaluation without giving up the simplicity of bottom-up semantics.
func (e *evaluator) join(r *logic.Rule, delta int) {
	if e.err != nil || e.found {
		return
	}
	if e.ndone == len(r.Body) {
		e.derive(r)
		return
	}
	for i := range r.Body {
		l := &r.Body[i]
		if !e.done[i] && l.Kind != logic.LitPos && e.Bound(l.Vars) {
			e.setDone(i, true)
			if e.test(l) {
				e.join(r, delta)
			}
			e.setDone(i, false)
			return
		}
	}
	if delta < len(r.Body) && !e.done[delta] {
		l := &r.Body[delta]
		e.setDone(delta, true)
		for ti := e.deltaLo[l.Rel]; ti < e.deltaHi[l.Rel]; ti++ {
			e.tryTuple(r, delta, l, e.tables[l.Rel].tuple(ti))
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

// test evaluates a negation, a question to a relation on demand, a distinct
// or an equality, once its variables are bound.
func (e *evaluator) test(l *logic.Literal) bool {
	switch l.Kind {
	case logic.LitNeg:
		if e.p.rels[l.Rel].demand {
			// Intern: the rules may build a term no fact holds yet.
			tuple, _ := e.BuildTuple(l.Args, true)
			return !e.member(l.Rel, tuple)
		}
		tuple, ok := e.BuildTuple(l.Args, false)
		return !ok || !e.tables[l.Rel].contains(tuple)
	case logic.LitAsk:
		tuple, _ := e.BuildTuple(l.Args, true)
		return e.member(l.Rel, tuple)
	case logic.LitDistinct, logic.LitEqual:
		a, _ := e.Build(l.Args[0], true)
		b, _ := e.Build(l.Args[1], true)
		return (a != b) == (l.Kind == logic.LitDistinct)
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
func (e *evaluator) joinCheapest(r *logic.Rule, delta int) {
	best := access{lit: -1}
	for i := range r.Body {
		if e.done[i] || r.Body[i].Kind != logic.LitPos {
			continue
		}
		a := e.access(&r.Body[i])
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
	l := &r.Body[best.lit]
	t := e.tables[l.Rel]
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
func (e *evaluator) access(l *logic.Literal) access {
	t := e.tables[l.Rel]
	if e.Bound(l.Vars) {
		tuple, ok := e.BuildTuple(l.Args, false)
		if !ok || !t.contains(tuple) {
			return access{cost: 0}
		}
		return access{cost: 1, all: true}
	}
	a := access{cost: t.n, scan: true}
	for pos, p := range l.Args {
		if !e.Bound(l.ArgVars[pos]) {
			continue
		}
		id, ok := e.Build(p, false)
		if !ok {
			return access{cost: 0} // a term never interned matches nothing
		}
		if c := t.candidates(pos, id); len(c) < a.cost || a.scan {
			a = access{cost: len(c), cands: c}
		}
	}
	return a
}

func (e *evaluator) tryTuple(r *logic.Rule, delta int, l *logic.Literal, tuple []logic.Term) {
	mark := e.Mark()
	if e.MatchAll(l.Args, tuple) {
		e.join(r, delta)
	}
	e.Undo(mark)
}

// derive adds the head of r under the bindings to its table, or to the
// answers of the question being answered, or notes that a membership
// question holds.
func (e *evaluator) derive(r *logic.Rule) {
	if e.query {
		e.found = true
		return
	}
	tuple, _ := e.BuildTuple(r.Args, true)
	if e.into == nil {
		if e.tables[r.Head].add(tuple) {
			e.spend(r.Head)
		}
	} else if e.into.facts.add(tuple) {
		e.tab.clock++
		e.tab.lastNew = e.tab.clock
		e.spend(r.Head)
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
