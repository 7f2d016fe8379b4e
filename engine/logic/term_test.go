package logic_test

import (
	"testing"

	"gdlab/engine/gdl"
	"gdlab/engine/logic"
)

// intern interns a ground term written in KIF.
func intern(t *testing.T, s *logic.Store, text string) logic.Term {
	t.Helper()
	term, err := gdl.ParseTerm(text)
	if err != nil {
		t.Fatalf("%s: %v", text, err)
	}
	id, ok := s.FromAST(term)
	if !ok {
		t.Fatalf("%s is not ground", text)
	}
	return id
}

func TestInterning(t *testing.T) {
	for _, c := range []struct {
		a, b  string
		equal bool
	}{
		{"a", "a", true},
		{"a", "b", false},
		{"(f a)", "(f a)", true},
		{"(f a)", "(f b)", false},
		{"(f a)", "(g a)", false},
		{"(f a)", "(f a a)", false},
		{"(f (g a) b)", "(f (g a) b)", true},
		{"(f (g a) b)", "(f (g b) b)", false},
		{"(f a b)", "(f b a)", false},
		{"f", "(f)", false}, // a constant is not a function term of no arguments
		{"A", "a", false},   // symbols are case-sensitive
	} {
		s := logic.NewStore()
		a, b := intern(t, s, c.a), intern(t, s, c.b)
		if (a == b) != c.equal {
			t.Errorf("%s and %s interned as %d and %d; want equal %v", c.a, c.b, a, b, c.equal)
		}
		if got := s.String(a); got != c.a {
			t.Errorf("String(%s) = %q", c.a, got)
		}
		if got := s.String(b); got != c.b {
			t.Errorf("String(%s) = %q", c.b, got)
		}
	}
}

func TestStoreStructure(t *testing.T) {
	s := logic.NewStore()
	fa := intern(t, s, "(f a (g b))")
	rec := s.Rec(fa)
	if !rec.Compound || len(rec.Args) != 2 || s.String(rec.Args[0]) != "a" || s.String(rec.Args[1]) != "(g b)" {
		t.Fatalf("Rec((f a (g b))) = %+v", *rec)
	}
	if got := s.Lookup(rec.Sym, true, rec.Args); got != fa {
		t.Errorf("Lookup of (f a (g b)) = %d, want %d", got, fa)
	}
	b := s.Constant("b")
	if got := s.Lookup(s.Sym("g"), true, []logic.Term{b, b}); got != logic.NoTerm {
		t.Errorf("Lookup of (g b b), never interned, = %d, want NoTerm", got)
	}
	n := s.Len()
	if id := s.Intern(s.Sym("g"), true, []logic.Term{b, b}); s.String(id) != "(g b b)" || s.Len() != n+1 {
		t.Errorf("Intern (g b b) = %q, %d terms; want one more than %d", s.String(id), s.Len(), n)
	}
	term, _ := gdl.ParseTerm("(f ?x)")
	if id, ok := s.FromAST(term); ok || id != logic.NoTerm {
		t.Errorf("FromAST((f ?x)) = %d, %v; want NoTerm, false", id, ok)
	}
	s.FillText()
	if got := s.String(fa); got != "(f a (g b))" {
		t.Errorf("String after FillText = %q", got)
	}
}

// TestHash checks that a term's hash does not depend on the order in
// which the terms were interned, and that it tells terms apart.
func TestHash(t *testing.T) {
	terms := []string{"a", "b", "(f a)", "(f b)", "(f a b)", "(g (f a) b)", "(cell 1 1 x)"}
	s1, s2 := logic.NewStore(), logic.NewStore()
	for i := range terms {
		intern(t, s1, terms[i])
		intern(t, s2, terms[len(terms)-1-i])
	}
	seen := map[uint64]string{}
	for _, text := range terms {
		h1, h2 := s1.Hash(intern(t, s1, text)), s2.Hash(intern(t, s2, text))
		if h1 != h2 {
			t.Errorf("%s hashes to %x and %x in two stores", text, h1, h2)
		}
		if other, ok := seen[h1]; ok {
			t.Errorf("%s and %s hash alike", text, other)
		}
		seen[h1] = text
	}
}
