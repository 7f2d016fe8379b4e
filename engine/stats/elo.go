package stats

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// EloScale converts natural-log odds to Elo points: 400/ln 10.
const EloScale float64 = 400 / math.Ln10

// EloExpected returns the expected score of a player rated diff Elo points
// above the opponent, 1 / (1 + 10^(−diff/400)): ½ at equal ratings, about
// 0.76 at +200.
func EloExpected(diff float64) float64 {
	return 1 / (1 + math.Pow(10, -diff/400))
}

// EloFit estimates Elo ratings by maximum likelihood under the
// Bradley–Terry model the Elo scale rests on,
//
//	P(i beats j) = 1 / (1 + 10^((Rⱼ − Rᵢ)/400)),
//
// from the points w[i][j] that player i scored against player j (1 a win,
// ½ a draw) in n[i][j] games (both k×k, n symmetric, diagonals ignored).
// The ratings are constrained to average 0 and found by Newton's method;
// the standard errors come from the inverse of the observed information on
// that constraint. A player who won or lost every game has no finite
// maximum; callers add virtual draws to keep the ratings finite. With
// fewer than two players the ratings and errors are 0. ok is false when
// the information matrix cannot be factorised.
func EloFit(w, n [][]float64) (elo, se []float64, ok bool) {
	k := len(n)
	elo, se = make([]float64, k), make([]float64, k)
	if k < 2 {
		return elo, se, true
	}
	r := make([]float64, k)
	for iter := 0; iter < 200; iter++ {
		step, _, ok := newtonStep(r, w, n)
		if !ok {
			return nil, nil, false
		}
		if !applyStep(r, step) {
			break
		}
	}
	_, cov, ok := newtonStep(r, w, n)
	if !ok {
		return nil, nil, false
	}
	for i := range r {
		elo[i] = r[i] * EloScale
		se[i] = math.Sqrt(math.Max(0, cov.At(i, i))) * EloScale
	}
	return elo, se, true
}

// applyStep adds a Newton step to r, scaled down to at most 2 (natural
// units, about 350 Elo) in any coordinate so that lopsided records cannot
// make it overshoot, and reports whether r still moved noticeably.
func applyStep(r, step []float64) bool {
	big := 0.0
	for _, d := range step {
		big = math.Max(big, math.Abs(d))
	}
	scale := 1.0
	if big > 2 {
		scale = 2 / big
	}
	for i := range r {
		r[i] += scale * step[i]
	}
	return big > 1e-12
}

// newtonStep returns the Newton step for the log-likelihood at r (natural
// units) and the covariance of r on the sum-zero constraint. With the
// information matrix I = −∇²ℓ (a weighted graph Laplacian, singular along
// the all-ones vector) the step solves (I + J/k)·δ = ∇ℓ, J the all-ones
// matrix, which keeps Σδ = 0; the covariance is (I + J/k)⁻¹ − J/k. A tiny
// ridge keeps players who never met another from making it singular.
func newtonStep(r []float64, w, n [][]float64) ([]float64, *mat.Dense, bool) {
	k := len(r)
	info := mat.NewSymDense(k, nil)
	grad := mat.NewVecDense(k, nil)
	for i := 0; i < k; i++ {
		for j := 0; j < k; j++ {
			if i == j || n[i][j] == 0 {
				continue
			}
			p := 1 / (1 + math.Exp(r[j]-r[i]))
			grad.SetVec(i, grad.AtVec(i)+w[i][j]-n[i][j]*p)
			v := n[i][j] * p * (1 - p)
			info.SetSym(i, i, info.At(i, i)+v)
			if j > i {
				info.SetSym(i, j, -v)
			}
		}
	}
	for i := 0; i < k; i++ {
		for j := i; j < k; j++ {
			ridge := 0.0
			if i == j {
				ridge = 1e-9
			}
			info.SetSym(i, j, info.At(i, j)+1/float64(k)+ridge)
		}
	}
	var ch mat.Cholesky
	if !ch.Factorize(info) {
		return nil, nil, false
	}
	var step mat.VecDense
	if err := ch.SolveVecTo(&step, grad); err != nil {
		return nil, nil, false
	}
	var inv mat.SymDense
	if err := ch.InverseTo(&inv); err != nil {
		return nil, nil, false
	}
	cov := mat.NewDense(k, k, nil)
	for i := 0; i < k; i++ {
		for j := 0; j < k; j++ {
			cov.Set(i, j, inv.At(i, j)-1/float64(k))
		}
	}
	return step.RawVector().Data, cov, true
}
