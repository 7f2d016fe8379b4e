package mmapprox

import "math"

// Mean returns the generalized p-mean of xs, all of them positive:
//
//	M_p(x) = ((1/n) Σ x_i^p)^(1/p),   M_0(x) = (Π x_i)^(1/n)
//
// computed in the log domain so that large |p| neither overflows nor
// underflows. It is NaN for an empty xs.
func Mean(p float64, xs []float64) float64 {
	if len(xs) == 0 {
		return math.NaN()
	}
	return math.Exp(logMean(p, xs, math.Log))
}

// MeanDerivative returns the partial derivative of M_p at xs with respect
// to xs[i]:
//
//	∂M_p/∂x_i = (1/n) (x_i / M_p(x))^(p−1)
//
// which holds for p = 0 too.
func MeanDerivative(p float64, xs []float64, i int) float64 {
	lm := logMean(p, xs, math.Log)
	return math.Exp(logDerivative(p, math.Log(xs[i]), lm, len(xs)))
}

// logMean returns ln M_p of the values whose logarithms are lx(xs[i]).
func logMean(p float64, xs []float64, lx func(float64) float64) float64 {
	n := float64(len(xs))
	if p == 0 {
		sum := 0.0
		for _, x := range xs {
			sum += lx(x)
		}
		return sum / n
	}
	top := math.Inf(-1)
	for _, x := range xs {
		top = math.Max(top, p*lx(x))
	}
	sum := 0.0
	for _, x := range xs {
		sum += math.Exp(p*lx(x) - top)
	}
	return (top + math.Log(sum) - math.Log(n)) / p
}

// logDerivative returns ln ∂M_p/∂x_i = −ln n + (p−1)(ln x_i − ln M_p).
func logDerivative(p, lx, lm float64, n int) float64 {
	return -math.Log(float64(n)) + (p-1)*(lx-lm)
}

// Weight returns the edge weight −ln ∂M_p/∂x_i of child i under a parent
// that combines xs by M_p (use −p for a min node).
func Weight(p float64, xs []float64, i int) float64 {
	return -logDerivative(p, math.Log(xs[i]), logMean(p, xs, math.Log), len(xs))
}
