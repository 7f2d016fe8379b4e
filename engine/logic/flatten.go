package logic

import "gdlab/engine/gdl"

// Flatten expands a rule body into its disjuncts: each a conjunction of
// atoms, negated atoms, distincts and negated distincts. `or` multiplies
// out, and negation is pushed down onto atoms by De Morgan's law: (not (or
// a b)) is (not a) and (not b), and (not (not a)) is a. A literal that is
// negated keeps its source position in the *gdl.Not made for it.
func Flatten(body []gdl.Literal) [][]gdl.Literal { return flatten(body, false) }

// flatten is Flatten of the literals under an odd number of `not`s when neg
// is set.
func flatten(body []gdl.Literal, neg bool) [][]gdl.Literal {
	out := [][]gdl.Literal{nil}
	for _, l := range body {
		alts := flattenOne(l, neg)
		next := make([][]gdl.Literal, 0, len(out)*len(alts))
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

func flattenOne(l gdl.Literal, neg bool) [][]gdl.Literal {
	switch l := l.(type) {
	case *gdl.Not:
		return flattenOne(l.Arg, !neg)
	case *gdl.Or:
		if neg { // not (a or b) = (not a) and (not b)
			return flatten(l.Args, true)
		}
		var alts [][]gdl.Literal
		for _, a := range l.Args {
			alts = append(alts, flattenOne(a, false)...)
		}
		return alts
	}
	if neg {
		return [][]gdl.Literal{{&gdl.Not{Lparen: l.Pos(), Arg: l}}}
	}
	return [][]gdl.Literal{{l}}
}
