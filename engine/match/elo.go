package match

import (
	"math"

	"gonum.org/v1/gonum/mat"
)

// Rating is a player's Elo estimate.
type Rating struct {
	Player string
	Elo    float64 // the players' ratings average 0
	SE     float64 // standard error
}

// eloScale converts natural-log odds to Elo points: 400/ln 10.
var eloScale = 400 / math.Ln10

// Ratings estimates Elo ratings from the table by maximum likelihood under
// the Bradley–Terry model the Elo scale rests on,
//
//	P(i beats j) = 1 / (1 + 10^((Rⱼ − Rᵢ)/400)),
//
// from every pair of seats in every match held by two different players
// (1 for the higher score, ½ each for equal scores). One virtual draw is
// added between each pair of players that met, so that a player who won or
// lost every game still gets a finite rating. The ratings are constrained
// to average 0 and found by Newton's method; the standard errors come from
// the inverse of the observed information on that constraint. Players in
// order of first appearance, as Standings lists them.
func Ratings(t *Table) []Rating {
	names, _ := playerScores(t)
	k := len(names)
	out := make([]Rating, k)
	for i, n := range names {
		out[i].Player = n
	}
	if k < 2 {
		return out
	}
	w, n := pairwise(t, names)
	r := make([]float64, k)
	for iter := 0; iter < 200; iter++ {
		step, _, ok := newtonStep(r, w, n)
		if !ok {
			return out
		}
		if !applyStep(r, step) {
			break
		}
	}
	_, cov, ok := newtonStep(r, w, n)
	if !ok {
		return out
	}
	for i := range out {
		out[i].Elo = r[i] * eloScale
		out[i].SE = math.Sqrt(math.Max(0, cov.At(i, i))) * eloScale
	}
	return out
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

// pairwise returns the points W[i][j] that i scored against j and the games
// N[i][j] between them, virtual draws included.
func pairwise(t *Table, names []string) (w, n [][]float64) {
	k := len(names)
	w, n = square(k), square(k)
	for _, row := range t.Rows {
		for a := range row.Players {
			for b := a + 1; b < len(row.Players); b++ {
				i, j := indexOf(names, row.Players[a]), indexOf(names, row.Players[b])
				if i == j {
					continue
				}
				s := pairScore(score(row, a), score(row, b))
				w[i][j] += s
				w[j][i] += 1 - s
				n[i][j]++
				n[j][i]++
			}
		}
	}
	for i := range n {
		for j := range n[i] {
			if i != j && n[i][j] > 0 {
				w[i][j] += 0.5
				n[i][j]++
			}
		}
	}
	return w, n
}

func pairScore(a, b float64) float64 {
	switch {
	case a > b:
		return 1
	case a == b:
		return 0.5
	}
	return 0
}

func square(k int) [][]float64 {
	out := make([][]float64, k)
	for i := range out {
		out[i] = make([]float64, k)
	}
	return out
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
