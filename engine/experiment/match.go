package experiment

import (
	"gdlab/engine/ledger"
	"gdlab/engine/match"
)

// MatchResults returns player's results in a match table for the ledger:
// one per match it played, its score as the value, its outcome against the
// best other seat, and the match's game, seed and seat role.
func MatchResults(t *match.Table, player string) []ledger.Result {
	var out []ledger.Result
	for _, r := range t.Rows {
		for s, p := range r.Players {
			if p != player {
				continue
			}
			res := ledger.Result{Game: r.Game, Seed: r.Seed, Value: r.Score(s), Outcome: ledger.Loss}
			switch r.Outcome(s) {
			case 1:
				res.Outcome = ledger.Win
			case 0.5:
				res.Outcome = ledger.Draw
			}
			if s < len(r.Roles) {
				res.Detail = "as " + r.Roles[s]
			}
			out = append(out, res)
		}
	}
	return out
}
