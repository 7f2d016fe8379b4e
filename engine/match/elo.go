package match

import "gdlab/engine/stats"

// Rating is a player's Elo estimate.
type Rating struct {
	Player string
	Elo    float64 // the players' ratings average 0
	SE     float64 // standard error
}

// Ratings estimates Elo ratings from the table by maximum likelihood
// (stats.EloFit: the Bradley–Terry model the Elo scale rests on, the
// ratings averaging 0, standard errors from the observed information),
// from every pair of seats in every match held by two different players
// (1 for the higher score, ½ each for equal scores). One virtual draw is
// added between each pair of players that met, so that a player who won or
// lost every game still gets a finite rating. Players in order of first
// appearance, as Standings lists them; the ratings are all 0 when the fit
// fails.
func Ratings(t *Table) []Rating {
	names, _ := playerScores(t)
	out := make([]Rating, len(names))
	for i, n := range names {
		out[i].Player = n
	}
	if len(names) < 2 {
		return out
	}
	elo, se, ok := stats.EloFit(pairwise(t, names))
	if !ok {
		return out
	}
	for i := range out {
		out[i].Elo, out[i].SE = elo[i], se[i]
	}
	return out
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
				s := pairScore(row.Score(a), row.Score(b))
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
