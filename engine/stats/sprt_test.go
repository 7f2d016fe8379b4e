package stats

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestSPRTBounds: Wald's bounds for α = β = 0.05 are ±ln 19.
func TestSPRTBounds(t *testing.T) {
	lo, hi := SPRT{P0: 0.5, P1: 0.6, Alpha: 0.05, Beta: 0.05}.Bounds()
	if math.Abs(hi-math.Log(19)) > 1e-12 || math.Abs(lo+math.Log(19)) > 1e-12 {
		t.Errorf("bounds %v %v, want ±%v", lo, hi, math.Log(19))
	}
}

// TestSPRTDecides: a run of wins accepts H1 after exactly the games the
// bound needs (ln 19 / ln 1.2 = 16.15, so 17), a run of losses H0 (14),
// and a draw moves the ratio towards H0 (½·ln 1.2 + ½·ln 0.8 < 0).
func TestSPRTDecides(t *testing.T) {
	test := SPRT{P0: 0.5, P1: 0.6, Alpha: 0.05, Beta: 0.05}
	wins := make([]float64, 40)
	for i := range wins {
		wins[i] = 1
	}
	if d, n := test.Decide(wins); d != AcceptH1 || n != 17 {
		t.Errorf("40 wins: %v after %d games, want H1 after 17", d, n)
	}
	if d, n := test.Decide(make([]float64, 40)); d != AcceptH0 || n != 14 {
		t.Errorf("40 losses: %v after %d games, want H0 after 14 (ln 19 / −ln 0.8 = 13.2)", d, n)
	}
	if d, _ := test.Decide(wins[:5]); d != Continue {
		t.Errorf("5 wins decided %v", d)
	}
	if llr := test.LLR([]float64{0.5}); llr >= 0 {
		t.Errorf("a draw gives LLR %v, want < 0", llr)
	}
}

// TestSPRTErrorRates: simulated matches at p = P0 accept H1, and at p = P1
// accept H0, no more often than the stated rates (with sampling slack).
func TestSPRTErrorRates(t *testing.T) {
	test := SPRT{P0: 0.5, P1: 0.6, Alpha: 0.05, Beta: 0.05}
	rng := rand.New(rand.NewPCG(1, 2))
	rate := func(p float64, wrong Decision) float64 {
		bad := 0
		const runs = 2000
		for r := 0; r < runs; r++ {
			scores := make([]float64, 0, 2000)
			for len(scores) < cap(scores) {
				s := 0.0
				if rng.Float64() < p {
					s = 1
				}
				scores = append(scores, s)
			}
			if d, _ := test.Decide(scores); d == wrong {
				bad++
			}
		}
		return float64(bad) / runs
	}
	if a := rate(0.5, AcceptH1); a > 0.065 {
		t.Errorf("type I error %.3f, stated 0.05", a)
	}
	if b := rate(0.6, AcceptH0); b > 0.065 {
		t.Errorf("type II error %.3f, stated 0.05", b)
	}
}

func TestSPRTValidate(t *testing.T) {
	if err := (SPRT{P0: 0.5, P1: 0.6, Alpha: 0.05, Beta: 0.05}).Validate(); err != nil {
		t.Error(err)
	}
	for _, bad := range []SPRT{{P0: 0.6, P1: 0.5, Alpha: 0.05, Beta: 0.05}, {P0: 0, P1: 0.6, Alpha: 0.05, Beta: 0.05}, {P0: 0.5, P1: 0.6, Alpha: 1, Beta: 0.05}} {
		if bad.Validate() == nil {
			t.Errorf("%+v accepted", bad)
		}
	}
}
