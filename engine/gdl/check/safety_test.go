package check

import (
	"fmt"
	"math/rand"
	"sort"
	"strings"
	"testing"

	"gdlab/engine/gdl"
)

// TestSafetyMatchesExpansion compares the linear safety check with the
// definition it implements: expand every `or` into alternatives and require
// each alternative to be safe. Rules are random but seeded.
func TestSafetyMatchesExpansion(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for i := range 3000 {
		src := randomRule(rng)
		d, err := gdl.Parse("r.kif", []byte(src))
		if err != nil {
			t.Fatalf("rule %d: %v\n%s", i, err, src)
		}
		c := &checker{d: d}
		c.checkSafety(d.Rules[0])
		got := errorPositions(c.errs)
		want := expandedUnsafe(d.Rules[0])
		if got != want {
			t.Fatalf("rule %d: %s\nlinear check: %s\nexpansion:    %s\n%s", i, src, got, want, c.errs.Detail())
		}
	}
}

func errorPositions(errs gdl.ErrorList) string {
	var ps []string
	for _, e := range errs {
		ps = append(ps, fmt.Sprint(e.Pos.Offset))
	}
	sort.Strings(ps)
	return strings.Join(ps, " ")
}

// expandedUnsafe returns the offsets of the unsafe variable occurrences
// found by expanding the rule's ors.
func expandedUnsafe(r *gdl.Rule) string {
	flagged := map[string]bool{}
	for _, alt := range expand(r.Body) {
		bound := map[string]bool{}
		for _, a := range alt {
			if a.lit != nil {
				if atom, ok := a.lit.(*gdl.Atom); ok {
					for _, v := range uniqueVars(atom.Args) {
						bound[v.Name] = true
					}
				}
			}
		}
		for _, v := range uniqueVars(r.Head.Args) {
			if !bound[v.Name] {
				flagged[fmt.Sprint(int(v.Pos())-1)] = true
			}
		}
		for _, a := range alt {
			var ts []gdl.Term
			switch l := a.lit.(type) {
			case *gdl.Not:
				ts = literalTerms(l.Arg)
			case *gdl.Distinct:
				ts = []gdl.Term{l.A, l.B}
			}
			for _, v := range uniqueVars(ts) {
				if !bound[v.Name] {
					flagged[fmt.Sprint(int(v.Pos())-1)] = true
				}
			}
		}
	}
	var ps []string
	for p := range flagged {
		ps = append(ps, p)
	}
	sort.Strings(ps)
	return strings.Join(ps, " ")
}

type conjunct struct{ lit gdl.Literal }

// expand returns every alternative of a body: one disjunct chosen per or.
func expand(body []gdl.Literal) [][]conjunct {
	alts := [][]conjunct{nil}
	for _, l := range body {
		var next [][]conjunct
		for _, choice := range choices(l) {
			for _, a := range alts {
				next = append(next, append(append([]conjunct(nil), a...), conjunct{choice}))
			}
		}
		alts = next
	}
	return alts
}

// choices flattens nested ors into the literals one of which is chosen.
func choices(l gdl.Literal) []gdl.Literal {
	or, ok := l.(*gdl.Or)
	if !ok {
		return []gdl.Literal{l}
	}
	var out []gdl.Literal
	for _, a := range or.Args {
		out = append(out, choices(a)...)
	}
	return out
}

func randomRule(rng *rand.Rand) string {
	var b strings.Builder
	b.WriteString("(<= (h " + randomVar(rng) + " " + randomVar(rng) + ")")
	for range 1 + rng.Intn(3) {
		b.WriteString(" " + randomLiteral(rng, 2))
	}
	b.WriteString(")")
	return b.String()
}

func randomLiteral(rng *rand.Rand, depth int) string {
	switch n := rng.Intn(10); {
	case n < 4:
		return randomAtom(rng)
	case n < 6:
		return "(not " + randomAtom(rng) + ")"
	case n < 7:
		return "(distinct " + randomVar(rng) + " " + randomVar(rng) + ")"
	case depth > 0:
		parts := []string{"(or"}
		for range 1 + rng.Intn(3) {
			parts = append(parts, randomLiteral(rng, depth-1))
		}
		return strings.Join(parts, " ") + ")"
	}
	return randomAtom(rng)
}

func randomAtom(rng *rand.Rand) string {
	if rng.Intn(2) == 0 {
		return "(p " + randomVar(rng) + ")"
	}
	return "(q " + randomVar(rng) + " (f " + randomVar(rng) + "))"
}

func randomVar(rng *rand.Rand) string {
	return []string{"?a", "?b", "?c", "?d", "k"}[rng.Intn(5)]
}
