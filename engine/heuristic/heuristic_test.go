package heuristic_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"

	"gdlab/engine/game"
	"gdlab/engine/heuristic"
	"gdlab/engine/search/searchtest"
)

const tol = 1e-9

func load(t testing.TB, name string) game.Machine {
	t.Helper()
	m, err := searchtest.Game(name)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func prepared(t testing.TB, m game.Machine, e heuristic.Evaluator) heuristic.Evaluator {
	t.Helper()
	p, err := heuristic.Prepare(context.Background(), m, e)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func eval(t testing.TB, e heuristic.Evaluator, m game.Machine, s game.State, role int) float64 {
	t.Helper()
	v, err := heuristic.Eval(e, m, s, role)
	if err != nil {
		t.Fatalf("%s: %v", heuristic.Name(e), err)
	}
	return v
}

func TestEstimateFeasible(t *testing.T) {
	m := load(t, "ttt")
	f, err := heuristic.EstimateFeasible(context.Background(), m, 8, 1)
	if err != nil {
		t.Fatal(err)
	}
	// Nine marks each, plus noop.
	if f[0] != 10 || f[1] != 10 {
		t.Errorf("feasible %v, want [10 10]", f)
	}
}

// TestMobility checks mobility and focus against counts done by hand on the
// empty tic-tac-toe board: x has 9 of 10 feasible moves, o only noop.
func TestMobility(t *testing.T) {
	m := load(t, "ttt")
	s := m.Initial()
	mob := heuristic.Mobility{Feasible: []int{10, 10}}
	cases := []struct {
		e    heuristic.Evaluator
		role int
		want float64
	}{
		{mob, 0, 90},
		{mob, 1, 10},
		{heuristic.Focus(mob), 0, 10},
		// One move ahead: after any x mark, x has noop (10) and o has 8 marks (80).
		{heuristic.Mobility{Ahead: 1, Feasible: []int{10, 10}}, 0, 10},
		{heuristic.Mobility{Ahead: 1, Feasible: []int{10, 10}}, 1, 80},
		// Two ahead: x again, with 7 marks left.
		{heuristic.Mobility{Ahead: 2, Feasible: []int{10, 10}}, 0, 70},
	}
	for _, c := range cases {
		if got := eval(t, c.e, m, s, c.role); math.Abs(got-c.want) > tol {
			t.Errorf("%s role %d: %v, want %v", heuristic.Name(c.e), c.role, got, c.want)
		}
	}
	if _, err := (heuristic.Mobility{}).Evaluate(m, s, 0); !errors.Is(err, heuristic.ErrNotPrepared) {
		t.Errorf("unprepared mobility: %v", err)
	}
	if got := eval(t, prepared(t, m, heuristic.Mobility{}), m, s, 0); math.Abs(got-90) > tol {
		t.Errorf("prepared mobility %v, want 90", got)
	}
}

func TestGoalAndPessimism(t *testing.T) {
	m := load(t, "summit")
	s := m.Initial()
	if v := eval(t, heuristic.IntermediateGoal{}, m, s, 0); v != 50 {
		t.Errorf("goal at step 0: %v, want 50", v)
	}
	if v := eval(t, heuristic.Pessimism{}, m, s, 0); v != 0 {
		t.Errorf("pessimism: %v, want 0", v)
	}
	nim := load(t, "nim")
	if v := eval(t, heuristic.IntermediateGoal{Missing: 42}, nim, nim.Initial(), 0); v != 42 {
		t.Errorf("missing goal: %v, want 42", v)
	}
}

func TestLinear(t *testing.T) {
	m := load(t, "summit")
	s := m.Initial()
	l := heuristic.NewLinear([]heuristic.Evaluator{heuristic.Constant{Value: 80}, heuristic.IntermediateGoal{}, heuristic.Pessimism{}},
		[]float64{3, 1, 0})
	if v := eval(t, l, m, s, 0); math.Abs(v-(3*80+50)/4.0) > tol {
		t.Errorf("linear: %v", v)
	}
	if v := eval(t, heuristic.Invert{Eval: l}, m, s, 0); math.Abs(v-(100-(3*80+50)/4.0)) > tol {
		t.Errorf("invert: %v", v)
	}
	for _, w := range [][]float64{{-1, 1, 1}, {0, 0, 0}, {1}} {
		bad := heuristic.NewLinear(l.Terms, w)
		if _, err := bad.Evaluate(m, s, 0); err == nil {
			t.Errorf("weights %v accepted", w)
		}
	}
	if got := l.String(); got != "3·constant(80)+1·goal+0·pessimism" {
		t.Errorf("name %q", got)
	}
}

func TestEvalGuards(t *testing.T) {
	m := load(t, "nim")
	s := m.Initial()
	f := func(v float64) heuristic.Evaluator {
		return heuristic.Func(func(game.Machine, game.State, int) (float64, error) { return v, nil })
	}
	if v := eval(t, f(250), m, s, 0); v != 100 {
		t.Errorf("clamp high: %v", v)
	}
	if v := eval(t, f(-3), m, s, 0); v != 0 {
		t.Errorf("clamp low: %v", v)
	}
	if _, err := heuristic.Eval(f(math.NaN()), m, s, 0); err == nil {
		t.Error("NaN accepted")
	}
	boom := heuristic.Func(func(game.Machine, game.State, int) (float64, error) { panic("boom") })
	if _, err := heuristic.Eval(boom, m, s, 0); err == nil {
		t.Error("panic not turned into an error")
	}
}

// TestDepthCharges: the estimate of a won nim position is 100 whatever the
// playouts, random play from the start lands strictly between, and the same
// state and seed give the same estimate.
func TestDepthCharges(t *testing.T) {
	m := load(t, "nim")
	dc := heuristic.DepthCharges{Count: 50, Seed: 3}
	a := eval(t, dc, m, m.Initial(), 0)
	if a != eval(t, dc, m, m.Initial(), 0) {
		t.Error("not deterministic")
	}
	if a <= 0 || a >= 100 {
		t.Errorf("estimate %v not strictly inside (0, 100)", a)
	}
	if v := eval(t, heuristic.DepthCharges{Count: 64, Seed: 4}, m, m.Initial(), 0); math.Abs(v-a) > 30 {
		t.Errorf("estimates %v and %v differ by more than 30", a, v)
	}
}

func ExampleLinear() {
	m, _ := searchtest.TicTacToe(".........")
	e := heuristic.NewLinear(
		[]heuristic.Evaluator{heuristic.Mobility{Feasible: []int{10, 10}}, heuristic.IntermediateGoal{}},
		[]float64{0.25, 0.75})
	v, _ := heuristic.Eval(e, m, m.Initial(), 0)
	fmt.Println(heuristic.Name(e), "=", v)
	// Output: 0.25·mobility(0)+0.75·goal = 60
}

// A notebook's evaluator is any type with an Evaluate method, or a Func.
func ExampleFunc() {
	m, _ := searchtest.TicTacToe("x../.o./...")
	blanks := heuristic.Func(func(m game.Machine, s game.State, role int) (float64, error) {
		n := 0
		for _, f := range s.Facts() {
			if len(f) > 2 && f[len(f)-2:] == "b)" {
				n++
			}
		}
		return float64(100 * n / 9), nil
	})
	v, _ := heuristic.Eval(heuristic.Named{Label: "blanks", Eval: blanks}, m, m.Initial(), 0)
	fmt.Println(v)
	// Output: 77
}
