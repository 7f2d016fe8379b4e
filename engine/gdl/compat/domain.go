package compat

import (
	"sort"

	"gdlab/engine/gdl"
)

// domainFacts returns the facts (name C) for every constant C written in
// d's rules as an argument or inside one, in text order. A free variable
// that ggp-base binds later by unification can meet any term a reader
// supplies; games that leave head variables free compare symbols (cells,
// pieces, roles), and the constants cover those. Compound terms are left
// out: with them the domain of a game's free variables grows many times
// over (a rule with three free variables over 144 ground terms is three
// million facts, over its 42 constants 74,000), and a free variable meant
// to match a compound term is read as matching none.
func domainFacts(d *gdl.Description, name string) []*gdl.Rule {
	terms := map[string]gdl.Term{}
	var add func(t gdl.Term)
	add = func(t gdl.Term) {
		switch t := t.(type) {
		case *gdl.Func:
			for _, a := range t.Args {
				add(a)
			}
		case *gdl.Const:
			terms[t.Name] = t
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
