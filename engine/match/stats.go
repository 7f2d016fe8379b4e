package match

import (
	"fmt"
	"math"

	"gdlab/engine/stats"
)

// Standing summarises one player's results in a table.
type Standing struct {
	Player string
	Games  int
	// Mean is the mean score (an undefined score counts 0); Low and High
	// bound its 95% confidence interval, mean ± t₀.₉₇₅,ₙ₋₁ · s/√n (Student's
	// t), clipped to 0..100, and are 0 and 100 for a single game.
	Mean, Low, High     float64
	Wins, Draws, Losses int // against the best other score in each match
	// Elo is the player's rating (the players' ratings average 0), with its
	// standard error and the 95% interval Elo ± 1.96·EloSE; see Ratings.
	Elo, EloSE, EloLow, EloHigh float64
}

// String renders a standing on one line.
func (s Standing) String() string {
	return fmt.Sprintf("%-24s %4d games  mean %5.1f [%5.1f, %5.1f]  +%d =%d -%d  Elo %+6.0f ± %.0f",
		s.Player, s.Games, s.Mean, s.Low, s.High, s.Wins, s.Draws, s.Losses, s.Elo, 1.96*s.EloSE)
}

// Standings returns every player's standing, in order of first appearance
// in the table. A match counts as a win for a player whose score is above
// every other seat's, a draw when it ties for the top, a loss otherwise.
func Standings(t *Table) []Standing {
	names, scores := playerScores(t)
	out := make([]Standing, len(names))
	for i, name := range names {
		out[i] = meanInterval(name, scores[i])
	}
	for _, r := range t.Rows {
		for s := range r.Players {
			i := indexOf(names, r.Players[s])
			switch r.Outcome(s) {
			case 1:
				out[i].Wins++
			case 0.5:
				out[i].Draws++
			default:
				out[i].Losses++
			}
		}
	}
	for i, rt := range Ratings(t) {
		out[i].Elo, out[i].EloSE = rt.Elo, rt.SE
		out[i].EloLow, out[i].EloHigh = rt.Elo-1.96*rt.SE, rt.Elo+1.96*rt.SE
	}
	return out
}

// playerScores lists the players in order of appearance with their scores.
func playerScores(t *Table) ([]string, [][]float64) {
	var names []string
	var scores [][]float64
	for _, r := range t.Rows {
		for s, p := range r.Players {
			i := indexOf(names, p)
			if i < 0 {
				names, scores = append(names, p), append(scores, nil)
				i = len(names) - 1
			}
			scores[i] = append(scores[i], r.Score(s))
		}
	}
	return names, scores
}

// meanInterval computes the mean score and its 95% t interval, clipped to
// 0..100.
func meanInterval(name string, xs []float64) Standing {
	st := Standing{Player: name, Games: len(xs), Low: 0, High: 100}
	if len(xs) == 0 {
		return st
	}
	mean, low, high := stats.MeanInterval(xs, 0.95)
	st.Mean, st.Low, st.High = mean, math.Max(0, low), math.Min(100, high)
	return st
}

// Score is seat s's score in the match, 0 when the goal is undefined.
func (r Row) Score(s int) float64 {
	if s >= len(r.Scores) || r.Scores[s] < 0 {
		return 0
	}
	return float64(r.Scores[s])
}

// Outcome is 1 when seat s beat every other seat, 0.5 when it tied for the
// top, 0 otherwise.
func (r Row) Outcome(s int) float64 {
	best := math.Inf(-1)
	for o := range r.Players {
		if o != s {
			best = math.Max(best, r.Score(o))
		}
	}
	switch mine := r.Score(s); {
	case mine > best:
		return 1
	case mine == best:
		return 0.5
	}
	return 0
}

func indexOf(names []string, name string) int {
	for i, n := range names {
		if n == name {
			return i
		}
	}
	return -1
}
