package stats

import (
	"fmt"
	"math"
)

// SPRT is Wald's sequential probability ratio test of a player's expected
// score per game p (0..1, a draw scoring one half) between H0: p = P0 and
// H1: p = P1, with error rates Alpha (accepting H1 when H0 holds) and Beta
// (accepting H0 when H1 holds). After games with scores s_i the log
// likelihood ratio is
//
//	LLR = Σ_i s_i·ln(P1/P0) + (1−s_i)·ln((1−P1)/(1−P0))
//
// (draws enter as half a win and half a loss), and the test accepts H1 when
// LLR ≥ ln((1−Beta)/Alpha), accepts H0 when LLR ≤ ln(Beta/(1−Alpha)), and
// goes on otherwise. Fixed before a match is played, it lets the match stop
// as soon as the evidence decides, with the stated error rates, instead of
// at a sample size chosen after looking.
type SPRT struct {
	P0, P1      float64
	Alpha, Beta float64
}

// Decision is an SPRT's state after some games.
type Decision int

// The decisions.
const (
	Continue Decision = iota // the evidence does not decide yet
	AcceptH1                 // the score is P1 or better, at the stated error rates
	AcceptH0                 // the score is P0 or worse
)

// String names the decision.
func (d Decision) String() string {
	switch d {
	case AcceptH1:
		return "H1 accepted"
	case AcceptH0:
		return "H0 accepted"
	}
	return "undecided"
}

// Bounds returns the lower and upper bounds of the log likelihood ratio.
func (t SPRT) Bounds() (lower, upper float64) {
	return math.Log(t.Beta / (1 - t.Alpha)), math.Log((1 - t.Beta) / t.Alpha)
}

// LLR returns the log likelihood ratio of the scores (each 0..1).
func (t SPRT) LLR(scores []float64) float64 {
	win, loss := math.Log(t.P1/t.P0), math.Log((1-t.P1)/(1-t.P0))
	llr := 0.0
	for _, s := range scores {
		llr += s*win + (1-s)*loss
	}
	return llr
}

// Decide returns the decision after the scores (each 0..1, in the order
// played: the test stops at the first game where a bound is crossed, so
// games after it do not count) and the number of games it used.
func (t SPRT) Decide(scores []float64) (Decision, int) {
	lower, upper := t.Bounds()
	win, loss := math.Log(t.P1/t.P0), math.Log((1-t.P1)/(1-t.P0))
	llr := 0.0
	for i, s := range scores {
		llr += s*win + (1-s)*loss
		switch {
		case llr >= upper:
			return AcceptH1, i + 1
		case llr <= lower:
			return AcceptH0, i + 1
		}
	}
	return Continue, len(scores)
}

// Validate reports parameters that make no test: probabilities outside
// (0, 1), or P1 not above P0.
func (t SPRT) Validate() error {
	for _, v := range []float64{t.P0, t.P1, t.Alpha, t.Beta} {
		if !(v > 0 && v < 1) {
			return fmt.Errorf("stats: SPRT parameters must lie in (0, 1): %+v", t)
		}
	}
	if t.P1 <= t.P0 {
		return fmt.Errorf("stats: SPRT needs P1 > P0: %+v", t)
	}
	return nil
}
