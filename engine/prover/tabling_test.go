package prover_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gdlab/engine/game"
	"gdlab/engine/game/gametest"
	"gdlab/engine/prover"
)

// TestPartialQuestions checks that a static relation over the fact bound
// whose readers leave arguments free is answered on demand, its readers
// turned into tabled questions with some arguments free (recursive ones,
// in cycles, included), and that each game agrees with its materialised
// self. The testdata files say what each exercises.
func TestPartialQuestions(t *testing.T) {
	for _, c := range []struct {
		file  string
		bound int
		legal string // in the initial state
	}{
		// The walks to node 0 go round the cycle 0-1-2-3, once (1 to 4
		// steps) or twice (5 and 6); node 0 lies on a cycle of four, so it
		// cannot stay.
		{"walks.kif", 400, "(go 0 (s (s (s (s 0))))) (go 1 (s (s (s 0)))) (go 2 (s (s (s (s (s (s 0))))))) (go 2 (s (s 0))) " +
			"(go 3 (s (s (s (s (s 0)))))) (go 3 (s 0)) (jump 0) (jump 1) (jump 2) (jump 3) (jump 4) (jump 5) (jump 6) (jump 7)"},
		{"stale.kif", 300, "(from 0) (from 1) (from 2) (from 3) (linked 0 7) (linked 1 7) (linked 2 7) (linked 3 7) " +
			"(look 0 7) (look 1 7) (look 2 7) (look 3 7) wait"},
	} {
		t.Run(c.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", c.file))
			if err != nil {
				t.Fatal(err)
			}
			src := string(data)
			demand, err := load(t, src, prover.Options{MaxFacts: c.bound})
			if err != nil {
				t.Fatalf("on demand within %d facts: %v", c.bound, err)
			}
			// A keyword reader that binds nothing keeps hop/4 materialised.
			const free = "(<= terminal (true (step 9)) (hop ?a ?b ?c ?d))"
			_, err = load(t, src+free, prover.Options{MaxFacts: c.bound})
			var le *prover.LimitError
			if !errors.As(err, &le) || le.Relation != "hop/4" {
				t.Fatalf("materialised: got %v, want a LimitError at hop/4", err)
			}
			full, err := load(t, src, prover.Options{})
			if err != nil {
				t.Fatal(err)
			}
			ms, err := demand.Legal(demand.Initial(), 0, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(game.MovesText(demand, 0, ms), " "); got != c.legal {
				t.Errorf("initial legal moves\n%s, want\n%s", got, c.legal)
			}
			gametest.Conform(t, demand, 3, 10)
			gametest.Compare(t, full, demand, []int64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 10)
		})
	}
}

// TestQuestionOverBound checks that a question whose answers exceed the
// fact bound fails with a LimitError naming its relation: the legal rule
// asks distinct4/4 about the step alone, 504 answers, over a bound of 400.
func TestQuestionOverBound(t *testing.T) {
	const peek = "(<= (legal p (peek ?a ?b ?c)) (true (step ?s)) (distinct4 ?a ?b ?c ?s))"
	pr, err := load(t, staticHelper+peek, prover.Options{MaxFacts: 400})
	if err != nil {
		t.Fatalf("on demand within 400 facts: %v", err)
	}
	_, err = pr.Legal(pr.Initial(), 0, nil)
	var le *prover.LimitError
	if !errors.As(err, &le) || le.Relation != "distinct4/4" || le.Where != "state relations" {
		t.Fatalf("got %v, want a LimitError at distinct4/4 in the state relations", err)
	}
	pr, err = load(t, staticHelper+peek, prover.Options{MaxFacts: 2000})
	if err != nil {
		t.Fatal(err)
	}
	ms, err := pr.Legal(pr.Initial(), 0, nil)
	if err != nil || len(ms) != 10+504 {
		t.Errorf("within 2000 facts: %d legal moves, %v; want 514", len(ms), err)
	}
}
