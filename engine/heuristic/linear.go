package heuristic

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"gdlab/engine/game"
)

// Linear is a weighted combination of evaluators, normalised so that it stays
// on the 0..100 scale:
//
//	linear(s) = Σᵢ wᵢ · eᵢ(s) / Σᵢ wᵢ
//
// Weights must be non-negative with a positive sum; they need not sum to 1,
// so a notebook can sweep one weight and leave the others alone. To reward
// the opposite of an evaluator use Invert (or Focus for mobility) rather
// than a negative weight. Terms with weight 0 are not evaluated.
type Linear struct {
	Terms   []Evaluator
	Weights []float64
}

// NewLinear pairs terms with weights.
func NewLinear(terms []Evaluator, weights []float64) *Linear {
	return &Linear{Terms: terms, Weights: weights}
}

// Evaluate returns the weighted mean of the terms.
func (l *Linear) Evaluate(m game.Machine, s game.State, role int) (float64, error) {
	if err := l.check(); err != nil {
		return 0, err
	}
	sum, wsum := 0.0, 0.0
	for i, e := range l.Terms {
		w := l.Weights[i]
		if w == 0 {
			continue
		}
		v, err := Eval(e, m, s, role)
		if err != nil {
			return 0, err
		}
		sum += w * v
		wsum += w
	}
	return sum / wsum, nil
}

// check reports weights that would leave the 0..100 scale.
func (l *Linear) check() error {
	if len(l.Terms) != len(l.Weights) {
		return fmt.Errorf("heuristic: Linear has %d terms and %d weights", len(l.Terms), len(l.Weights))
	}
	total := 0.0
	for _, w := range l.Weights {
		if w < 0 {
			return errors.New("heuristic: Linear weights must be non-negative (use Invert)")
		}
		total += w
	}
	if total <= 0 {
		return errors.New("heuristic: Linear weights sum to zero")
	}
	return nil
}

// Prepare prepares every term and returns a new Linear with the same weights.
func (l *Linear) Prepare(ctx context.Context, m game.Machine) (Evaluator, error) {
	if err := l.check(); err != nil {
		return nil, err
	}
	out := &Linear{Terms: make([]Evaluator, len(l.Terms)), Weights: append([]float64(nil), l.Weights...)}
	for i, e := range l.Terms {
		p, err := Prepare(ctx, m, e)
		if err != nil {
			return nil, err
		}
		out.Terms[i] = p
	}
	return out, nil
}

// String lists the weighted terms, such as "0.7·goal+0.3·mobility(0)".
func (l *Linear) String() string {
	var b strings.Builder
	for i, e := range l.Terms {
		if i > 0 {
			b.WriteByte('+')
		}
		if i < len(l.Weights) {
			b.WriteString(strconv.FormatFloat(l.Weights[i], 'g', 3, 64))
			b.WriteString("·")
		}
		b.WriteString(Name(e))
	}
	return b.String()
}

// Invert turns an evaluator around:
//
//	invert(s) = 100 − e(s)
type Invert struct{ Eval Evaluator }

// Evaluate returns 100 − Eval(s).
func (i Invert) Evaluate(m game.Machine, s game.State, role int) (float64, error) {
	if i.Eval == nil {
		return 0, errors.New("heuristic: Invert has no Eval")
	}
	v, err := Eval(i.Eval, m, s, role)
	if err != nil {
		return 0, err
	}
	return 100 - v, nil
}

// Prepare prepares the inner evaluator.
func (i Invert) Prepare(ctx context.Context, m game.Machine) (Evaluator, error) {
	e, err := Prepare(ctx, m, i.Eval)
	if err != nil {
		return nil, err
	}
	return Invert{Eval: e}, nil
}

// String names the evaluator.
func (i Invert) String() string { return "invert(" + Name(i.Eval) + ")" }
