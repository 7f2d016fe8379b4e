package check

import "gdlab/engine/gdl"

// checkSafety reports the unsafe variables of a rule: those of its head, of a
// negated literal or of a distinct that no positive atom binds.
func (c *checker) checkSafety(r *gdl.Rule) {
	name := ruleName(r)
	somewhere := bindsSomewhere(r.Body)
	reason := func(v string) string {
		switch {
		case len(r.Body) == 0:
			return "a fact must be ground"
		case somewhere[v]:
			return "not every alternative of its or binds it in a positive literal"
		}
		return "it occurs in no positive body literal"
	}
	EachUnsafe(r, func(v *gdl.Var, l gdl.Literal) {
		if l == nil {
			c.errorf(v.Pos(), "variable %s in head of %s is unsafe: %s", clip(v.Name), name, reason(v.Name))
			return
		}
		c.errorf(v.Pos(), "variable %s in %s of %s is unsafe: %s", clip(v.Name), shown(l), name, reason(v.Name))
	})
}

// Safe reports whether r is safe: every variable of its head, of a negated
// literal and of a distinct occurs in a positive body atom, in every
// alternative its ors expand into. It decides without expanding them.
func Safe(r *gdl.Rule) bool {
	safe := true
	EachUnsafe(r, func(*gdl.Var, gdl.Literal) { safe = false })
	return safe
}

// EachUnsafe calls fn for every unsafe variable of r: in its head (l nil),
// or in the negation or distinct l.
//
// The standard treatment expands every `or` into alternatives and requires
// each alternative to be safe. Since a disjunct is a single literal, the
// expansion need not be built: a variable needed by a literal is bound in
// every alternative containing that literal exactly when some other
// top-level conjunct binds it in all of its own alternatives (bindsAlways):
// the choices made in different conjuncts are independent.
// That keeps the check linear where the expansion can be exponential.
func EachUnsafe(r *gdl.Rule, fn func(v *gdl.Var, l gdl.Literal)) {
	count := map[string]int{} // how many top-level conjuncts always bind a variable
	for _, l := range r.Body {
		for v := range bindsAlways(l) {
			count[v]++
		}
	}
	for _, v := range uniqueVars(r.Head.Args) {
		if count[v.Name] == 0 {
			fn(v, nil)
		}
	}
	// A conjunct holding a negation or a distinct binds nothing in the
	// alternatives that choose that literal, so its own always-set is empty
	// and the count over all conjuncts is the count over the others.
	bound := func(v string) bool { return count[v] > 0 }
	for _, l := range r.Body {
		literalUnsafe(l, bound, fn)
	}
}

// literalUnsafe calls fn for the variables of negations and distincts in
// l that bound rejects. Disjuncts of an `or` are checked with the same
// bound: the other literals of their alternative are the other top-level
// conjuncts.
func literalUnsafe(l gdl.Literal, bound func(string) bool, fn func(v *gdl.Var, l gdl.Literal)) {
	switch l := l.(type) {
	case *gdl.Not:
		for _, v := range uniqueVars(literalTerms(l.Arg)) {
			if !bound(v.Name) {
				fn(v, l)
			}
		}
	case *gdl.Distinct:
		for _, v := range uniqueVars([]gdl.Term{l.A, l.B}) {
			if !bound(v.Name) {
				fn(v, l)
			}
		}
	case *gdl.Or:
		for _, a := range l.Args {
			literalUnsafe(a, bound, fn)
		}
	}
}

// checkNegations reports a `not` applied to anything but an atom. GDL's
// negation is that of stratified Datalog, on atoms only; ggp-base rejects
// the rest, and the parser accepts it only to report it here.
func (c *checker) checkNegations(r *gdl.Rule) {
	for _, l := range r.Body {
		eachLiteral(l, func(l gdl.Literal) {
			if n, ok := l.(*gdl.Not); ok {
				if _, atom := n.Arg.(*gdl.Atom); !atom {
					c.errorf(n.Pos(), "not may only negate an atom, not %s", shown(n.Arg))
				}
			}
		})
	}
}

// bindsAlways returns the variables that l binds in every alternative: all
// variables of a positive atom, those common to every disjunct of an `or`
// (none for an empty `or`, as ggp-base treats it), and none for a negation
// or a distinct.
func bindsAlways(l gdl.Literal) map[string]bool {
	switch l := l.(type) {
	case *gdl.Atom:
		set := map[string]bool{}
		for _, v := range uniqueVars(l.Args) {
			set[v.Name] = true
		}
		return set
	case *gdl.Or:
		var set map[string]bool
		for i, a := range l.Args {
			s := bindsAlways(a)
			if i == 0 {
				set = s
				continue
			}
			for v := range set {
				if !s[v] {
					delete(set, v)
				}
			}
		}
		return set
	}
	return nil
}

// bindsSomewhere returns the variables of every positive atom of a body,
// inside an `or` or not; it only chooses the wording of messages.
func bindsSomewhere(body []gdl.Literal) map[string]bool {
	set := map[string]bool{}
	for _, l := range body {
		eachAtom(l, false, func(a *gdl.Atom, neg bool) {
			if !neg {
				for _, v := range uniqueVars(a.Args) {
					set[v.Name] = true
				}
			}
		})
	}
	return set
}

// literalTerms returns the terms of every atom and distinct in l.
func literalTerms(l gdl.Literal) []gdl.Term {
	var ts []gdl.Term
	eachLiteral(l, func(l gdl.Literal) {
		switch l := l.(type) {
		case *gdl.Atom:
			ts = append(ts, l.Args...)
		case *gdl.Distinct:
			ts = append(ts, l.A, l.B)
		}
	})
	return ts
}

// uniqueVars returns the first occurrence of each variable in ts, in order.
func uniqueVars(ts []gdl.Term) []*gdl.Var {
	seen := map[string]bool{}
	var vs []*gdl.Var
	for _, t := range ts {
		gdl.WalkVars(t, func(v *gdl.Var) {
			if !seen[v.Name] {
				seen[v.Name] = true
				vs = append(vs, v)
			}
		})
	}
	return vs
}
