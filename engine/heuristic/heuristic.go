// Package heuristic owns gdlab's evaluation functions: estimates, on a scale
// of 0 to 100, of what a role will score from a non-terminal state. Search
// uses them where it stops looking ahead. The built-in ones follow
// Genesereth's "incomplete search" chapter: mobility and focus, pessimism,
// intermediate goal values, weighted linear combinations, and depth charges.
//
// An evaluator is an ordinary interface with one method, so a type written
// in a notebook cell can implement it; Func turns a plain function into one.
package heuristic

import (
	"context"
	"errors"
	"fmt"
	"math"

	"gdlab/engine/game"
)

// Evaluator estimates role's outcome in s on the goal scale 0..100.
//
// Evaluate may call any method of m, including Next for lookahead: a search
// passes a metering machine, so calls made inside an evaluator are charged to
// the search's budget, and once the budget is spent they fail. Evaluate must
// then return that error rather than a made-up value. Results outside 0..100
// are clamped by callers; NaN is an error. An Evaluator should be safe for
// concurrent use: the built-in ones are immutable values.
type Evaluator interface {
	Evaluate(m game.Machine, s game.State, role int) (float64, error)
}

// Preparer is implemented by evaluators that learn something about a game
// before use, such as the number of feasible moves. Prepare returns a new,
// ready evaluator and leaves the receiver unchanged, so one configured value
// can serve many matches at once. Players call it during the start clock.
type Preparer interface {
	Prepare(ctx context.Context, m game.Machine) (Evaluator, error)
}

// Expander is implemented by metering machines that count node expansions
// (search.Counter). Evaluators that walk the game themselves, such as depth
// charges, call Expand once per state whose moves they generate, so that a
// node budget covers their work too.
type Expander interface {
	Expand() error
}

// ErrNotPrepared is returned by evaluators that need Prepare (or explicit
// settings) before Evaluate.
var ErrNotPrepared = errors.New("heuristic: evaluator not prepared for this game (call heuristic.Prepare or set its fields)")

// Prepare returns e ready for m: e.Prepare(ctx, m) when e is a Preparer, e
// itself otherwise. A nil e gives a nil Evaluator and no error.
func Prepare(ctx context.Context, m game.Machine, e Evaluator) (ev Evaluator, err error) {
	p, ok := e.(Preparer)
	if !ok {
		return e, nil
	}
	defer recoverTo(&err, "Prepare")
	return p.Prepare(ctx, m)
}

// Name returns a short description of e for tables and charts: e.String()
// when e has one, its type otherwise.
func Name(e Evaluator) string {
	if e == nil {
		return "none"
	}
	if _, ok := e.(fmt.Stringer); ok {
		return fmt.Sprint(e) // fmt recovers a panicking String method
	}
	return fmt.Sprintf("%T", e)
}

// Eval calls e.Evaluate, turning a panic into an error and checking the
// result: NaN is an error, anything else is clamped to 0..100. Search calls
// evaluators through it because a notebook's evaluator may run on a native
// goroutine, where an unrecovered panic would end the process.
func Eval(e Evaluator, m game.Machine, s game.State, role int) (v float64, err error) {
	defer recoverTo(&err, "Evaluate")
	v, err = e.Evaluate(m, s, role)
	if err != nil {
		return 0, err
	}
	if math.IsNaN(v) {
		return 0, fmt.Errorf("heuristic: %s returned NaN", Name(e))
	}
	return Clamp(v), nil
}

// Clamp limits v to the goal scale 0..100.
func Clamp(v float64) float64 { return math.Max(0, math.Min(100, v)) }

// recoverTo turns a panic in user code into an error in *err.
func recoverTo(err *error, what string) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("heuristic: %s panicked: %v", what, r)
	}
}

// Func adapts a function to the Evaluator interface.
type Func func(m game.Machine, s game.State, role int) (float64, error)

// Evaluate calls f.
func (f Func) Evaluate(m game.Machine, s game.State, role int) (float64, error) { return f(m, s, role) }

// Named gives an evaluator a display name; it prepares and evaluates exactly
// like Eval.
type Named struct {
	Label string
	Eval  Evaluator
}

// Evaluate calls n.Eval.
func (n Named) Evaluate(m game.Machine, s game.State, role int) (float64, error) {
	if n.Eval == nil {
		return 0, errors.New("heuristic: Named has no Eval")
	}
	return n.Eval.Evaluate(m, s, role)
}

// Prepare prepares n.Eval and keeps the name.
func (n Named) Prepare(ctx context.Context, m game.Machine) (Evaluator, error) {
	e, err := Prepare(ctx, m, n.Eval)
	if err != nil {
		return nil, err
	}
	return Named{Label: n.Label, Eval: e}, nil
}

// String returns the label.
func (n Named) String() string { return n.Label }
