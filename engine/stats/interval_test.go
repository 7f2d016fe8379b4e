package stats

import (
	"math"
	"testing"
)

// TestWilson checks the interval against hand-computed and published
// values: 7 of 10 is 0.7 [0.396778, 0.892209]; 0 of 10 has the upper
// bound 0.2775; Rivest's move-bound total 249–190–51 scores 0.560 [0.516,
// 0.604].
func TestWilson(t *testing.T) {
	for _, c := range []struct {
		k            float64
		n            int
		p, low, high float64
	}{
		{7, 10, 0.7, 0.396778, 0.892209},
		{249 + 51.0/2, 490, 0.560204, 0.515956, 0.603516},
		{186 + 65.0/2, 490, 0.445918, 0.402497, 0.490181},
		{0, 10, 0, 0, 0.277533},
		{10, 10, 1, 0.722467, 1},
		{0, 0, 0, 0, 1},
	} {
		p, lo, hi := Wilson(c.k, c.n)
		if math.Abs(p-c.p) > 1e-6 || math.Abs(lo-c.low) > 1e-6 || math.Abs(hi-c.high) > 1e-6 {
			t.Errorf("Wilson(%g, %d) = %g [%g, %g], want %g [%g, %g]", c.k, c.n, p, lo, hi, c.p, c.low, c.high)
		}
	}
}

// TestWilsonZ: the interval at Z975 differs from Wilson's by less than
// the six-decimal rounding of z, and its ends stay in [0, 1] when p is 0
// or 1, where rounding alone could push them out.
func TestWilsonZ(t *testing.T) {
	for n := 1; n <= 200; n++ {
		for _, k := range []float64{0, float64(n) / 3, float64(n)} {
			p, lo, hi := WilsonZ(k, n, Z975)
			p6, lo6, hi6 := Wilson(k, n)
			if p != p6 || math.Abs(lo-lo6) > 1e-7 || math.Abs(hi-hi6) > 1e-7 {
				t.Fatalf("n=%d k=%g: WilsonZ %g [%g, %g], Wilson %g [%g, %g]", n, k, p, lo, hi, p6, lo6, hi6)
			}
			if lo < 0 || hi > 1 || lo > p+1e-15 || hi < p-1e-15 {
				t.Fatalf("n=%d k=%g: %g outside [%g, %g] or the interval outside [0, 1]", n, k, p, lo, hi)
			}
		}
	}
}

// TestMeanInterval checks the t interval against a textbook value: the
// ten values 1..10 have mean 5.5 and s = 3.02765, and t₀.₉₇₅,₉ = 2.262157,
// so the 95% interval is 5.5 ± 2.165852.
func TestMeanInterval(t *testing.T) {
	xs := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	mean, lo, hi := MeanInterval(xs, 0.95)
	half := 2.262157 * 3.0276503540974917 / math.Sqrt(10)
	if mean != 5.5 || math.Abs(lo-(5.5-half)) > 1e-5 || math.Abs(hi-(5.5+half)) > 1e-5 {
		t.Errorf("MeanInterval(1..10) = %g [%g, %g], want 5.5 ± %g", mean, lo, hi, half)
	}
	if math.Abs(half-2.165852) > 1e-5 {
		t.Errorf("half width %g", half)
	}
	// Two values 0 and 100: t₀.₉₇₅,₁ = 12.7062, s = 70.7107, so 50 ± 635.31.
	if mean, lo, hi := MeanInterval([]float64{0, 100}, 0.95); mean != 50 || math.Abs(hi-50-635.31) > 0.01 || math.Abs(50-lo-635.31) > 0.01 {
		t.Errorf("MeanInterval(0, 100) = %g [%g, %g]", mean, lo, hi)
	}
	if mean, lo, hi := MeanInterval([]float64{42}, 0.95); mean != 42 || !math.IsInf(lo, -1) || !math.IsInf(hi, 1) {
		t.Errorf("one value: %g [%g, %g]", mean, lo, hi)
	}
	if mean, lo, hi := MeanInterval(nil, 0.95); mean != 0 || lo != 0 || hi != 0 {
		t.Errorf("no values: %g [%g, %g]", mean, lo, hi)
	}
}
