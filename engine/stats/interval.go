package stats

import (
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Z975 is the 0.975 quantile of the standard normal distribution, the z of
// a two-sided 95% interval.
const Z975 float64 = 1.959963984540054

// Wilson returns the proportion k/n of k successes (a draw may count ½) in
// n trials and its 95% Wilson score interval, with z = 1.959964 (Z975 to
// six decimals). For n = 0 it returns 0 and [0, 1].
func Wilson(k float64, n int) (p, low, high float64) {
	return WilsonZ(k, n, 1.959964)
}

// WilsonZ returns the proportion k/n and its Wilson score interval for the
// normal quantile z,
//
//	(p + z²/2n ± z·√(p(1−p)/n + z²/4n²)) / (1 + z²/n),
//
// clipped to [0, 1] (rounding can take an end past it by an ulp when p is
// 0 or 1). For n = 0 it returns 0 and [0, 1].
func WilsonZ(k float64, n int, z float64) (p, low, high float64) {
	if n == 0 {
		return 0, 0, 1
	}
	nn := float64(n)
	p = k / nn
	den := 1 + z*z/nn
	mid := (p + z*z/(2*nn)) / den
	half := z * math.Sqrt(p*(1-p)/nn+z*z/(4*nn*nn)) / den
	return p, math.Max(0, mid-half), math.Min(1, mid+half)
}

// MeanInterval returns the mean of xs and its two-sided Student's t
// interval at the confidence level (0.95 for 95%),
//
//	mean ± t_{(1+level)/2, n−1} · s/√n,
//
// s the sample standard deviation. The interval is (−∞, +∞) for a single
// value, and everything is 0 for none.
func MeanInterval(xs []float64, level float64) (mean, low, high float64) {
	if len(xs) == 0 {
		return 0, 0, 0
	}
	mean, sd := stat.MeanStdDev(xs, nil)
	n := float64(len(xs))
	if n < 2 {
		return mean, math.Inf(-1), math.Inf(1)
	}
	half := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: n - 1}.Quantile((1+level)/2) * sd / math.Sqrt(n)
	return mean, mean - half, mean + half
}
