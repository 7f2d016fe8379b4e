package prover

import (
	"fmt"

	"gdlab/engine/gdl"
)

// Layers of relations: a relation belongs to the lowest layer that holds
// everything it depends on. Static relations are computed once per game,
// state relations once per state, move relations once per state and joint move.
const (
	layerStatic = iota
	layerState
	layerMove
	numLayers
)

// pattern is a compiled term of a rule: ground, a variable slot, or a
// function term with at least one variable inside.
type pattern struct {
	kind patKind
	id   termID    // patGround
	slot int       // patVar
	sym  int32     // patFunc
	args []pattern // patFunc
}

type patKind uint8

const (
	patGround patKind = iota
	patVar
	patFunc
)

// litKind is the kind of a flattened body literal.
type litKind uint8

const (
	litPos      litKind = iota // a positive atom
	litNeg                     // a negated atom
	litDistinct                // (distinct a b)
	litEqual                   // (not (distinct a b))
	litAsk                     // a positive atom of a relation on demand, tested when bound (demand.go)
)

// literal is a flattened body literal: no `or`, negation only of atoms.
type literal struct {
	kind    litKind
	rel     int       // litPos, litNeg
	args    []pattern // litPos, litNeg; the two terms for litDistinct, litEqual
	vars    []int     // the variable slots the literal mentions
	argVars [][]int   // the slots each argument mentions
	src     gdl.Literal
}

// rule is one disjunct of a source rule, compiled for bottom-up evaluation.
type rule struct {
	head  int // relation
	args  []pattern
	body  []literal
	slots int // number of variable slots
	src   *gdl.Rule
}

// relation is a predicate name/arity with its rules.
type relation struct {
	name  string
	arity int
	layer int
	rules []*rule
	// A variant made by split holds the facts whose arguments at keyPos
	// are key.
	key    []termID
	keyPos []int
	// demand is set when every reader asks about the relation with bound
	// arguments and it is answered on demand rather than materialised
	// (demand.go). need is its mode, the arguments its questions bind: all
	// of them, unless extendDemand made it a reader of a relation on
	// demand (modes.go). A tabled relation is recursive: its questions
	// go through tables even with every argument bound (tabling.go), as
	// proving a tuple by its first derivation could loop.
	demand bool
	need   []bool
	tabled bool
}

// program is a compiled game description.
type program struct {
	terms  *termStore
	rels   []*relation
	relIdx map[string]int // "name/arity"
	// strata[layer] lists groups of mutually recursive relations, in the
	// order they must be evaluated.
	strata           [numLayers][][]int
	trueRel, doesRel int
	// forced lists the static relations over the fact bound that
	// extendDemand answers on demand although some readers leave their
	// arguments free.
	forced []int
}

func relKey(name string, arity int) string { return fmt.Sprintf("%s/%d", name, arity) }

// relation returns the index of name/arity, creating it if new.
func (p *program) relation(name string, arity int) int {
	k := relKey(name, arity)
	if i, ok := p.relIdx[k]; ok {
		return i
	}
	i := len(p.rels)
	p.rels = append(p.rels, &relation{name: name, arity: arity})
	p.relIdx[k] = i
	return i
}

// compile turns a description into a program, or reports the positioned
// problems that make bottom-up evaluation impossible (unsafe variables,
// rules defining true or does, unstratified negation).
func compile(d *gdl.Description) (*program, error) {
	p := &program{terms: newTermStore(), relIdx: map[string]int{}}
	p.trueRel = p.relation("true", 1)
	p.doesRel = p.relation("does", 2)
	var errs gdl.ErrorList
	for _, r := range d.Rules {
		if r.Head.Name == "true" || r.Head.Name == "does" {
			errs.Add(d.Position(r.Pos()), "rules may not define %q", r.Head.Name)
			continue
		}
		for _, body := range expand(r.Body, false) {
			cr, err := p.compileRule(r, body)
			if err != nil {
				errs.Add(d.Position(err.pos), "%s", err.msg)
				continue
			}
			p.rels[cr.head].rules = append(p.rels[cr.head].rules, cr)
		}
	}
	if len(errs) == 0 {
		for _, e := range p.stratifyOrSplit() {
			errs.Add(d.Position(e.pos), "%s", e.msg)
		}
		p.markDemand(nil)
	}
	errs.Sort()
	return p, errs.Err()
}

type posError struct {
	pos gdl.Pos
	msg string
}

// expand flattens a body into its disjuncts: a list of conjunctions of
// atoms, negated atoms, distinct and equality tests. neg says whether the
// literals are under an odd number of `not`s.
func expand(body []gdl.Literal, neg bool) [][]gdl.Literal {
	out := [][]gdl.Literal{nil}
	for _, l := range body {
		alts := expandOne(l, neg)
		var next [][]gdl.Literal
		for _, prefix := range out {
			for _, alt := range alts {
				c := append(append([]gdl.Literal(nil), prefix...), alt...)
				next = append(next, c)
			}
		}
		out = next
	}
	return out
}

func expandOne(l gdl.Literal, neg bool) [][]gdl.Literal {
	switch l := l.(type) {
	case *gdl.Not:
		return expandOne(l.Arg, !neg)
	case *gdl.Or:
		if neg { // not (a or b) = (not a) and (not b)
			return expand(l.Args, true)
		}
		var alts [][]gdl.Literal
		for _, a := range l.Args {
			alts = append(alts, expandOne(a, false)...)
		}
		return alts
	}
	if neg {
		return [][]gdl.Literal{{&gdl.Not{Lparen: l.Pos(), Arg: l}}}
	}
	return [][]gdl.Literal{{l}}
}

// compileRule compiles one disjunct of a rule.
func (p *program) compileRule(src *gdl.Rule, body []gdl.Literal) (*rule, *posError) {
	c := &ruleCompiler{p: p, slots: map[string]int{}}
	r := &rule{src: src, head: p.relation(src.Head.Name, len(src.Head.Args))}
	r.body = make([]literal, len(body))
	for i, l := range body {
		r.body[i] = c.literal(l)
	}
	bound := map[int]bool{}
	for _, l := range r.body {
		if l.kind == litPos {
			for _, a := range l.args {
				markSlots(a, bound)
			}
		}
	}
	r.args = c.patterns(src.Head.Args)
	for _, v := range c.order {
		if !bound[c.slots[v.Name]] {
			return nil, &posError{v.NamePos, fmt.Sprintf("variable %s in rule for %s/%d is unsafe: it occurs in no positive body literal", v.Name, src.Head.Name, len(src.Head.Args))}
		}
	}
	r.slots = len(c.slots)
	for i := range r.body {
		setVars(&r.body[i])
	}
	return r, nil
}

// ruleCompiler numbers a rule's variables as it compiles its terms.
type ruleCompiler struct {
	p     *program
	slots map[string]int
	order []*gdl.Var // first occurrence of each variable
}

func (c *ruleCompiler) literal(l gdl.Literal) literal {
	switch l := l.(type) {
	case *gdl.Atom:
		return literal{kind: litPos, rel: c.p.relation(l.Name, len(l.Args)), args: c.patterns(l.Args), src: l}
	case *gdl.Distinct:
		return literal{kind: litDistinct, args: c.patterns([]gdl.Term{l.A, l.B}), src: l}
	case *gdl.Not:
		switch a := l.Arg.(type) {
		case *gdl.Atom:
			return literal{kind: litNeg, rel: c.p.relation(a.Name, len(a.Args)), args: c.patterns(a.Args), src: l}
		case *gdl.Distinct:
			return literal{kind: litEqual, args: c.patterns([]gdl.Term{a.A, a.B}), src: l}
		}
	}
	panic("prover: literal not flattened") // expand leaves only the cases above
}

func (c *ruleCompiler) patterns(ts []gdl.Term) []pattern {
	out := make([]pattern, len(ts))
	for i, t := range ts {
		out[i] = c.pattern(t)
	}
	return out
}

func (c *ruleCompiler) pattern(t gdl.Term) pattern {
	if id, ok := c.p.terms.fromAST(t); ok {
		return pattern{kind: patGround, id: id}
	}
	switch t := t.(type) {
	case *gdl.Var:
		slot, ok := c.slots[t.Name]
		if !ok {
			slot = len(c.slots)
			c.slots[t.Name] = slot
			c.order = append(c.order, t)
		}
		return pattern{kind: patVar, slot: slot}
	case *gdl.Func:
		return pattern{kind: patFunc, sym: c.p.terms.sym(t.Name), args: c.patterns(t.Args)}
	}
	panic("prover: unknown term") // the AST's term types are closed
}

func markSlots(p pattern, set map[int]bool) {
	switch p.kind {
	case patVar:
		set[p.slot] = true
	case patFunc:
		for _, a := range p.args {
			markSlots(a, set)
		}
	}
}

func setVars(l *literal) {
	l.argVars = make([][]int, len(l.args))
	all := map[int]bool{}
	for i, a := range l.args {
		set := map[int]bool{}
		markSlots(a, set)
		for v := range set {
			l.argVars[i] = append(l.argVars[i], v)
			if !all[v] {
				all[v] = true
				l.vars = append(l.vars, v)
			}
		}
	}
}
