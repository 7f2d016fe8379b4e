package prover_test

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"gdlab/engine/game"
	"gdlab/engine/game/gametest"
	"gdlab/engine/gdl"
	"gdlab/engine/prover"
)

func load(t *testing.T, src string, opt prover.Options) (*prover.Prover, error) {
	t.Helper()
	d, err := gdl.Parse("test.kif", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return prover.NewWithOptions(d, opt)
}

// A one-player game whose goal negates itself at another constant, as 14
// corpus games do; the prover splits goal by its constant argument.
const selfNegatingGoal = `
(role p) (init (s 0)) (succ 0 1) (succ 1 2)
(<= (legal p (go ?x)) (true (s ?x)))
(<= (next (s ?y)) (true (s ?x)) (succ ?x ?y))
(<= terminal (true (s 2)))
(<= (goal p 100) (true (s 2)))
(<= (goal p 0) (not (goal p 100)))
`

func TestLocallyStratifiedGoal(t *testing.T) {
	pr, err := load(t, selfNegatingGoal, prover.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := pr.Initial()
	if g, err := pr.Goal(s, 0); err != nil || g != 0 {
		t.Errorf("initial goal = %d, %v; want 0", g, err)
	}
	for i := 0; i < 2; i++ {
		ms, _ := pr.Legal(s, 0, nil)
		s, _ = pr.Next(s, ms)
	}
	if g, err := pr.Goal(s, 0); err != nil || g != 100 {
		t.Errorf("final goal = %d, %v; want 100", g, err)
	}
	gametest.Conform(t, pr, 3, 10)
}

// TestCompileErrorsArePositioned covers the errors left once unsafe rules
// are read as ggp-base reads them (package compat).
func TestCompileErrorsArePositioned(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"(role p)\n(<= q (not r))\n(<= r (not q))", "not stratified"},
		{"(role p)\n(<= (true x) (role p))", "test.kif:2:1: rules may not define \"true\""},
	} {
		_, err := load(t, c.src, prover.Options{})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.src, err, c.want)
		}
	}
}

func TestFactLimit(t *testing.T) {
	src := "(role p)\n(n 0) (n 1) (n 2) (n 3) (n 4) (n 5) (n 6) (n 7) (n 8) (n 9)\n(<= (pair ?a ?b ?c) (n ?a) (n ?b) (n ?c))"
	_, err := load(t, src, prover.Options{MaxFacts: 500})
	var le *prover.LimitError
	if !errors.As(err, &le) || le.Relation != "pair/3" || le.Limit != 500 {
		t.Fatalf("got %v, want a LimitError at pair/3", err)
	}
	if _, err := load(t, src, prover.Options{MaxFacts: 2000}); err != nil {
		t.Errorf("within the limit: %v", err)
	}
}

func TestGoalErrors(t *testing.T) {
	pr, err := load(t, "(role p) (role q) (goal p 10) (goal p 20) (init x)", prover.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := pr.Goal(pr.Initial(), 0); !errors.Is(err, game.ErrManyGoals) {
		t.Errorf("two values: %v", err)
	}
	if _, err := pr.Goal(pr.Initial(), 1); !errors.Is(err, game.ErrNoGoal) {
		t.Errorf("no value: %v", err)
	}
}

func TestConformOnCorpusGames(t *testing.T) {
	dir := sharedDir(t)
	for _, key := range []string{"ticTacToe", "connectFour", "blocker", "3pConnectFour", "breakthroughSmall"} {
		pr, err := prover.Load(filepath.Join(dir, "games", key, key+".kif"))
		if err != nil {
			t.Fatal(err)
		}
		gametest.Conform(t, pr, 3, 60)
	}
}

// A rook on row 0 attacks every other square of the row unless the square
// to ignore is the rook's own; the player may go only where it is not
// attacked. attacked/4 is read only under negation, so the prover answers
// it on demand; materialised it would hold about 10³ tuples a state.
const negatedHelper = `
(role p)
(n 0) (n 1) (n 2) (n 3) (n 4) (n 5) (n 6) (n 7) (n 8) (n 9)
(init (rook 3)) (init (step 0))
(succ 0 1) (succ 1 2) (succ 2 3)
(<= (attacked ?x ?ix ?iy ?iz) (true (rook ?r)) (n ?x) (distinct ?x ?r) (n ?ix) (n ?iy) (n ?iz) (distinct ?ix ?r))
(<= (legal p (go ?x)) (n ?x) (not (attacked ?x 9 9 9)))
(<= (legal p (pass ?x)) (n ?x) (not (attacked ?x ?x 0 0)))
(<= (next (rook ?y)) (does p (go ?x)) (succ ?x ?y))
(<= (next (rook ?x)) (does p (pass ?x)))
(<= (next (rook ?x)) (true (rook ?x)) (does p (go 9)))
(<= (next (step ?y)) (true (step ?x)) (succ ?x ?y))
(<= terminal (true (step 3)))
(<= terminal (not (true (rook 0))) (not (true (rook 1))) (not (true (rook 2))) (not (true (rook 3))) (not (true (rook 4))))
(goal p 100)
`

// TestNegatedHelperOnDemand checks that a relation read only under negation
// is answered on demand, within a fact bound that its full extension
// exceeds, and with the same answers as when it is materialised (a positive
// reader with a free argument forces that).
func TestNegatedHelperOnDemand(t *testing.T) {
	demand, err := load(t, negatedHelper, prover.Options{MaxFacts: 400})
	if err != nil {
		t.Fatalf("on demand within 400 facts: %v", err)
	}
	small, err := load(t, negatedHelper+materialise, prover.Options{MaxFacts: 400})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := small.Legal(small.Initial(), 0, nil); err == nil {
		t.Fatal("materialised attacked/4 fitted in 400 facts: the test no longer exercises demand evaluation")
	}
	full, err := load(t, negatedHelper+materialise, prover.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ms, _ := demand.Legal(demand.Initial(), 0, nil)
	if got := strings.Join(game.MovesText(demand, 0, ms), " "); got != "(go 3) (pass 3)" {
		t.Errorf("initial legal moves %q, want (go 3) (pass 3)", got)
	}
	gametest.Conform(t, demand, 3, 10)
	gametest.Compare(t, full, demand, []int64{1, 2, 3, 4, 5, 6}, 10)
}

// materialise reads attacked/4 with a free argument, which only the full
// extension can answer, so the prover computes it bottom-up.
const materialise = "(<= (seen ?x) (attacked ?x 0 0 0))"

// staticHelper asks a static relation of 5,040 tuples, distinct4/4, about
// the four digits the player has put down; every reader binds its
// arguments.
const staticHelper = `
(role p)
(n 0) (n 1) (n 2) (n 3) (n 4) (n 5) (n 6) (n 7) (n 8) (n 9)
(succ 0 1) (succ 1 2) (succ 2 3) (succ 3 4)
(init (step 0))
(<= (distinct4 ?a ?b ?c ?d) (n ?a) (n ?b) (n ?c) (n ?d)
    (distinct ?a ?b) (distinct ?a ?c) (distinct ?a ?d) (distinct ?b ?c) (distinct ?b ?d) (distinct ?c ?d))
(<= (legal p (put ?v)) (n ?v) (true (step ?s)) (succ ?s ?t) (not (taken ?v)))
(<= (legal p (put ?v)) (n ?v) (true (step 3)))
(<= (taken ?v) (true (cell ?s ?v)) (true (cell ?t ?w)) (distinct4 ?v ?w 8 9))
(<= (next (cell ?s ?v)) (does p (put ?v)) (true (step ?s)))
(<= (next (cell ?s ?v)) (true (cell ?s ?v)))
(<= (next (step ?t)) (true (step ?s)) (succ ?s ?t))
(<= terminal (true (step 4)))
(<= good (true (cell 0 ?a)) (true (cell 1 ?b)) (true (cell 2 ?c)) (true (cell 3 ?d)) (distinct4 ?a ?b ?c ?d))
(<= (goal p 100) good)
(<= (goal p 0) (not good))
`

// TestStaticHelperOnDemand checks that a static relation over the fact
// bound, read positively but always with its arguments bound, is answered
// on demand instead, and agrees with its materialised self; and that a
// reader that binds none of its arguments and cannot be asked itself (a
// keyword) keeps it materialised (and over the bound).
func TestStaticHelperOnDemand(t *testing.T) {
	demand, err := load(t, staticHelper, prover.Options{MaxFacts: 1000})
	if err != nil {
		t.Fatalf("on demand within 1000 facts: %v", err)
	}
	const free = "(<= terminal (true (step 9)) (distinct4 ?a ?b ?c ?d))"
	_, err = load(t, staticHelper+free, prover.Options{MaxFacts: 1000})
	var le *prover.LimitError
	if !errors.As(err, &le) || le.Relation != "distinct4/4" {
		t.Fatalf("with a free reader: got %v, want a LimitError at distinct4/4", err)
	}
	full, err := load(t, staticHelper+free, prover.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := demand.Initial()
	for _, v := range []string{"(put 1)", "(put 2)", "(put 3)", "(put 4)"} {
		m, err := demand.ParseMove(0, v)
		if err != nil {
			t.Fatal(err)
		}
		if s, err = demand.Next(s, []game.Move{m}); err != nil {
			t.Fatal(err)
		}
	}
	if g, err := demand.Goal(s, 0); g != 100 || err != nil {
		t.Errorf("goal after putting 1 2 3 4: %d, %v; want 100", g, err)
	}
	gametest.Conform(t, demand, 3, 10)
	gametest.Compare(t, full, demand, []int64{1, 2, 3, 4, 5, 6, 7, 8}, 10)
}
