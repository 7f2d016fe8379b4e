package ground_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"gdlab/engine/gdl"
	"gdlab/engine/ground"
)

func parse(t *testing.T, src string) *gdl.Description {
	t.Helper()
	d, err := gdl.Parse("test.kif", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func groundFile(t *testing.T, path string, opt ground.Options) *ground.Program {
	t.Helper()
	d, err := gdl.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := ground.Ground(context.Background(), d, opt)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func texts(p *ground.Program, ids []ground.AtomID) []string {
	out := make([]string, len(ids))
	for i, a := range ids {
		out[i] = p.AtomText(a)
	}
	slices.Sort(out)
	return out
}

// TestTiny checks the atoms a small game grounds to: recursion (less),
// or, distinct and function terms are all instantiated, and static
// relations are evaluated away.
func TestTiny(t *testing.T) {
	p := groundFile(t, "testdata/tiny.kif", ground.Options{})
	if !slices.Equal(p.Roles, []string{"a", "b"}) {
		t.Errorf("roles %v", p.Roles)
	}
	want := []string{"(legal a (add 1))", "(legal a (add 2))", "(legal a (add 3))", "(legal a wait)",
		"(legal b (add 1))", "(legal b (add 2))", "(legal b (add 3))", "(legal b wait)"}
	if got := texts(p, p.AtomsOf("legal", 2)); !slices.Equal(got, want) {
		t.Errorf("legal atoms\n got %v\nwant %v", got, want)
	}
	wantTrue := []string{"(true (count 0))", "(true (count 1))", "(true (count 2))", "(true (count 3))",
		"(true (trail (f 1)))", "(true (trail (f 2)))", "(true (trail (f 3)))", "(true (turn a))", "(true (turn b))"}
	if got := texts(p, p.AtomsOf("true", 1)); !slices.Equal(got, wantTrue) {
		t.Errorf("true atoms\n got %v\nwant %v", got, wantTrue)
	}
	if got := texts(p, p.Init); !slices.Equal(got, []string{"(true (count 0))", "(true (turn a))"}) {
		t.Errorf("init %v", got)
	}
	for _, r := range p.Rules {
		for _, a := range append(append([]ground.AtomID(nil), r.Pos...), r.Neg...) {
			if rel := p.Atoms[a].Rel; rel == "succ" || rel == "less" || rel == "role" {
				t.Errorf("static atom %s left in %s", p.AtomText(a), p.RuleText(r))
			}
		}
	}
	if !strings.Contains(p.String(), "(<= (legal a wait) (not (true (turn a))))") {
		t.Errorf("missing the ground rule of (legal a wait):\n%s", p)
	}
}

// TestDecompositionKeepsAtoms grounds a game with and without rule
// decomposition: the atoms of the game's relations must be the same.
func TestDecompositionKeepsAtoms(t *testing.T) {
	with := groundFile(t, "testdata/tiny.kif", ground.Options{})
	without := groundFile(t, "testdata/tiny.kif", ground.Options{NoDecompose: true})
	for _, rel := range []string{"true", "legal", "next", "goal"} {
		arity := 1
		if rel == "legal" || rel == "goal" {
			arity = 2
		}
		if a, b := texts(with, with.AtomsOf(rel, arity)), texts(without, without.AtomsOf(rel, arity)); !slices.Equal(a, b) {
			t.Errorf("%s: %v with decomposition, %v without", rel, a, b)
		}
	}
}

// unbounded has a relaxed model without end: the counter's function terms
// grow forever once negation is relaxed.
const unbounded = `
(role r)
(init (count z))
(<= (legal r tick) (true (count ?x)))
(<= (next (count (s ?x))) (true (count ?x)) (not stop))
(<= stop (true (count (s (s (s z))))))
(<= terminal stop)
(<= (goal r 100) stop)
`

// TestBoundIsEnforced grounds a game whose grounding never ends: it must
// fail quickly with a LimitError that names the bound and the size reached.
func TestBoundIsEnforced(t *testing.T) {
	d := parse(t, unbounded)
	start := time.Now()
	_, err := ground.Ground(context.Background(), d, ground.Options{MaxSize: 50_000})
	var le *ground.LimitError
	if !errors.As(err, &le) {
		t.Fatalf("got %v, want a LimitError", err)
	}
	if le.Limit != 50_000 || le.Reached <= le.Limit {
		t.Errorf("limit %d reached %d", le.Limit, le.Reached)
	}
	if msg := err.Error(); !strings.Contains(msg, "50000") || !strings.Contains(msg, "reached") {
		t.Errorf("message does not name the bound and the size: %s", msg)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v to hit the bound", d)
	}
}

// TestCancel stops a grounding that would run for long.
func TestCancel(t *testing.T) {
	d := parse(t, unbounded)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := ground.Ground(ctx, d, ground.Options{MaxSize: 1 << 30, MaxWork: 1 << 50})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v, want the context's error", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v to stop", d)
	}
}

// TestErrors reports unstratified rules and rules for true with positions.
// Unsafe rules are read as ggp-base reads them (package compat).
func TestErrors(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"(role r)\n(s a)\n(<= (p ?x) (s ?x) (not (q ?x)))\n(<= (q ?x) (s ?x) (not (p ?x)))\n(<= terminal (p a))", "negation is not stratified"},
		{"(role r)\n(<= (true x) (role r))", "rules may not define \"true\""},
		{"(init (p))", "no role"},
	} {
		_, err := ground.Ground(context.Background(), parse(t, c.src), ground.Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.src, err, c.want)
		}
	}
}
