package compat

import (
	"sort"

	"gdlab/engine/gdl"
)

// domainFacts returns the facts (name T) for every ground term T written in
// d's rules, subterms included, in text order. A free variable that
// ggp-base binds later by unification can only meet terms the rules build,
// and every term a rule can build from ground parts is among these or built
// by a function term, which the domain cannot hold finitely.
func domainFacts(d *gdl.Description, name string) []*gdl.Rule {
	terms := map[string]gdl.Term{}
	var add func(t gdl.Term)
	add = func(t gdl.Term) {
		if f, ok := t.(*gdl.Func); ok {
			for _, a := range f.Args {
				add(a)
			}
		}
		if gdl.IsGround(t) {
			terms[t.String()] = t
		}
	}
	for _, r := range d.Rules {
		eachAtom(r, func(a *gdl.Atom) {
			for _, t := range a.Args {
				add(t)
			}
		})
		eachLiteral(r.Body, func(l gdl.Literal) {
			if dl, ok := l.(*gdl.Distinct); ok {
				add(dl.A)
				add(dl.B)
			}
		})
	}
	keys := make([]string, 0, len(terms))
	for k := range terms {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	facts := make([]*gdl.Rule, 0, len(keys))
	for _, k := range keys {
		t := terms[k]
		facts = append(facts, &gdl.Rule{Lparen: t.Pos(), Head: &gdl.Atom{NamePos: t.Pos(), Name: name, Args: []gdl.Term{t}}})
	}
	return facts
}

// eachAtom calls fn for the head of r and every atom of its body, negated
// or not.
func eachAtom(r *gdl.Rule, fn func(*gdl.Atom)) {
	fn(r.Head)
	eachLiteral(r.Body, func(l gdl.Literal) {
		if a, ok := l.(*gdl.Atom); ok {
			fn(a)
		}
	})
}

// eachLiteral calls fn for every literal of body and, recursively, every
// literal inside its nots and ors.
func eachLiteral(body []gdl.Literal, fn func(gdl.Literal)) {
	for _, l := range body {
		fn(l)
		switch l := l.(type) {
		case *gdl.Not:
			eachLiteral([]gdl.Literal{l.Arg}, fn)
		case *gdl.Or:
			eachLiteral(l.Args, fn)
		}
	}
}
