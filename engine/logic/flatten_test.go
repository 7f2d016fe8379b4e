package logic_test

import (
	"strings"
	"testing"

	"gdlab/engine/gdl"
	"gdlab/engine/logic"
)

// parseRule parses a description of one rule.
func parseRule(t *testing.T, src string) *gdl.Rule {
	t.Helper()
	d, err := gdl.Parse("test.kif", []byte(src))
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	if len(d.Rules) != 1 {
		t.Fatalf("%s: %d rules, want 1", src, len(d.Rules))
	}
	return d.Rules[0]
}

// disjuncts renders each disjunct as its literals separated by spaces.
func disjuncts(ds [][]gdl.Literal) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		parts := make([]string, len(d))
		for j, l := range d {
			parts[j] = l.String()
		}
		out[i] = strings.Join(parts, " ")
	}
	return out
}

func TestFlatten(t *testing.T) {
	for _, c := range []struct {
		name, body string
		want       []string
	}{
		{"atoms", "(p ?x) (q ?x)", []string{"(p ?x) (q ?x)"}},
		{"or", "(or a b) c", []string{"a c", "b c"}},
		{"or of ors", "(or a b) (or c d)", []string{"a c", "a d", "b c", "b d"}},
		{"nested or", "(or a (or b c))", []string{"a", "b", "c"}},
		{"not or", "(not (or a b))", []string{"(not a) (not b)"}},
		{"not not", "(not (not a))", []string{"a"}},
		{"not or not", "(not (or a (not b)))", []string{"(not a) b"}},
		{"or of not or", "(or a (not (or b c)))", []string{"a", "(not b) (not c)"}},
		{"distinct", "(p ?x ?y) (distinct ?x ?y)", []string{"(p ?x ?y) (distinct ?x ?y)"}},
		{"not distinct", "(p ?x ?y) (not (distinct ?x ?y))", []string{"(p ?x ?y) (not (distinct ?x ?y))"}},
		{"not or distinct", "(p ?x ?y) (not (or (distinct ?x ?y) a))", []string{"(p ?x ?y) (not (distinct ?x ?y)) (not a)"}},
		{"empty or", "a (or)", []string{}},
		{"empty body", "", []string{""}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := parseRule(t, "(<= h "+c.body+")")
			got := disjuncts(logic.Flatten(r.Body))
			if strings.Join(got, " | ") != strings.Join(c.want, " | ") || len(got) != len(c.want) {
				t.Errorf("Flatten(%s) = %q, want %q", c.body, got, c.want)
			}
		})
	}
}

// TestFlattenPositions checks that a literal negated by flattening keeps
// its own position, so that messages about it point at the source.
func TestFlattenPositions(t *testing.T) {
	r := parseRule(t, "(<= h (not (or a (b 1))))")
	ds := logic.Flatten(r.Body)
	if len(ds) != 1 || len(ds[0]) != 2 {
		t.Fatalf("Flatten = %q", disjuncts(ds))
	}
	for _, l := range ds[0] {
		n, ok := l.(*gdl.Not)
		if !ok {
			t.Fatalf("%s is not a negation", l)
		}
		if n.Pos() != n.Arg.Pos() {
			t.Errorf("%s at %d, its atom at %d", l, n.Pos(), n.Arg.Pos())
		}
	}
}
