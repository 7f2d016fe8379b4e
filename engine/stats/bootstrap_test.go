package stats

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestBootstrapSeeded: the same seed gives the same draws, a different
// seed different ones, and every draw is a unit index.
func TestBootstrapSeeded(t *testing.T) {
	run := func(seed uint64) [][]int {
		var out [][]int
		Bootstrap(7, 50, rand.New(rand.NewPCG(seed, 0x5eed)), func(draw []int) {
			for _, u := range draw {
				if u < 0 || u >= 7 {
					t.Fatalf("unit %d out of range", u)
				}
			}
			out = append(out, slices.Clone(draw))
		})
		return out
	}
	a, b, c := run(1), run(1), run(2)
	if len(a) != 50 || len(a[0]) != 7 {
		t.Fatalf("%d resamples of %d units, want 50 of 7", len(a), len(a[0]))
	}
	if !slices.EqualFunc(a, b, slices.Equal) {
		t.Error("the same seed gave different draws")
	}
	if slices.EqualFunc(a, c, slices.Equal) {
		t.Error("different seeds gave the same draws")
	}
	// The draws are rng.IntN(n) in order: the first one matches a fresh
	// generator with the same seed.
	rng := rand.New(rand.NewPCG(1, 0x5eed))
	for u := range a[0] {
		if want := rng.IntN(7); a[0][u] != want {
			t.Fatalf("draw %d is %d, want %d", u, a[0][u], want)
		}
	}
}

// TestBootstrapMean: a percentile interval of the bootstrapped mean of
// 1..20 contains the mean and is reproducible.
func TestBootstrapMean(t *testing.T) {
	xs := make([]float64, 20)
	for i := range xs {
		xs[i] = float64(i + 1)
	}
	interval := func(seed uint64) (float64, float64) {
		var means []float64
		Bootstrap(len(xs), 1000, rand.New(rand.NewPCG(seed, 0)), func(draw []int) {
			s := 0.0
			for _, u := range draw {
				s += xs[u]
			}
			means = append(means, s/float64(len(draw)))
		})
		slices.Sort(means)
		return Percentile(means, 0.025), Percentile(means, 0.975)
	}
	lo, hi := interval(3)
	lo2, hi2 := interval(3)
	if lo != lo2 || hi != hi2 {
		t.Errorf("seed 3 gave [%g, %g] then [%g, %g]", lo, hi, lo2, hi2)
	}
	if !(lo < 10.5 && 10.5 < hi && hi-lo > 2 && hi-lo < 10) {
		t.Errorf("interval [%g, %g] for the mean 10.5 of 1..20", lo, hi)
	}
}

func TestPercentile(t *testing.T) {
	xs := []float64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	for _, c := range []struct{ q, want float64 }{{0, 0}, {0.025, 0}, {0.5, 5}, {0.975, 9}, {1, 10}} {
		if got := Percentile(xs, c.q); got != c.want {
			t.Errorf("Percentile(0..10, %g) = %g, want %g", c.q, got, c.want)
		}
	}
}
