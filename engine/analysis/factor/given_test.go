package factor

import (
	"context"
	"slices"
	"strings"
	"testing"

	"gdlab/engine/analysis/latch"
	"gdlab/engine/game"
	"gdlab/engine/propnet"
)

// TestConditionalFactors: in coupled_next, q rises only once p has left 0,
// so the game is one factor; once p has left 0, (p 0) is false for good (a
// latch), and given that, p and q are two factors, verified by random play
// from there. Given a fact that is no latch, random play finds it changing.
func TestConditionalFactors(t *testing.T) {
	ctx := context.Background()
	net, whole := analyze(t, "coupled_next", Options{})
	if moving(whole) != 1 {
		t.Fatalf("%d factors with moves in every state, want 1", moving(whole))
	}
	lat, err := latch.Analyze(ctx, net, latch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	after := play(t, net, net.Initial(), "incp")
	given := LatchedIn(lat, after)
	if !slices.Contains(given, Fact{Base: baseOf(t, net, "(p 0)"), Value: false}) {
		t.Fatalf("latched facts after incp %v, want (p 0) false among them", given)
	}
	a, err := AnalyzeGiven(ctx, net, given, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range a.Explain() {
		t.Log(l)
	}
	want := [][]string{{"(q 0)", "(q 1)", "(q 2)", "(q 3)"}, {"(p 1)", "(p 2)", "(p 3)"}}
	if got := factorFacts(a); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("factors given %v: %v, want %v", given, got, want)
	}
	if !strings.Contains(strings.Join(a.Explain(), "\n"), "given, for the rest of the game: (p 0) false") {
		t.Errorf("the explanation does not name the given fact")
	}
	v, err := Verify(ctx, net, a, VerifyOptions{Seed: 1, Matches: 40, Start: after})
	if err != nil {
		t.Fatal(err)
	}
	if !v.Verified() {
		t.Errorf("not verified from the state after incp: %+v", v)
	}
	if _, err := Verify(ctx, net, a, VerifyOptions{Seed: 1}); err == nil {
		t.Errorf("verified from the initial state, where (p 0) is true")
	}

	// (p 0) true is no latch: from the initial state it does not last.
	b, err := AnalyzeGiven(ctx, net, []Fact{{Base: baseOf(t, net, "(p 0)"), Value: true}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	v, err = Verify(ctx, net, b, VerifyOptions{Seed: 1, Matches: 40})
	if err != nil {
		t.Fatal(err)
	}
	if v.Verified() || !slices.ContainsFunc(v.Failures, func(f Failure) bool { return f.Kind == "given" }) {
		t.Errorf("a given fact that changes passed: %+v", v)
	}
}

// play returns the state after role 0 plays move (text) in s.
func play(t *testing.T, m game.Machine, s game.State, move string) game.State {
	t.Helper()
	mv, err := m.ParseMove(0, move)
	if err != nil {
		t.Fatal(err)
	}
	next, err := m.Next(s, []game.Move{mv})
	if err != nil {
		t.Fatal(err)
	}
	return next
}

// baseOf returns the number of a base proposition of net.
func baseOf(t *testing.T, net *propnet.Net, fact string) int {
	t.Helper()
	b := slices.Index(net.BaseProps(), fact)
	if b < 0 {
		t.Fatalf("no base proposition %s", fact)
	}
	return b
}
