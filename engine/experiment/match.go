package experiment

import (
	"strings"

	"gdlab/engine/ledger"
	"gdlab/engine/match"
)

// TableResults returns a match table for the ledger: one result per seat
// of every match, with the seat's player, the match's number in the table
// (from 1), its score as the value, its outcome against the best other
// seat and its role. Pool.Table rebuilds the table from such results.
func TableResults(t *match.Table) []ledger.Result {
	var out []ledger.Result
	for i, r := range t.Rows {
		for s, p := range r.Players {
			res := ledger.Result{Game: r.Game, Seed: r.Seed, Value: r.Score(s), Outcome: outcome(r.Outcome(s)), Player: p, Match: i + 1}
			if s < len(r.Roles) {
				res.Detail = "as " + r.Roles[s]
			}
			out = append(out, res)
		}
	}
	return out
}

// MatchResults returns player's seats of TableResults: the results of a
// duel, pooled as that player's scores.
func MatchResults(t *match.Table, player string) []ledger.Result {
	var out []ledger.Result
	for _, res := range TableResults(t) {
		if res.Player == player {
			out = append(out, res)
		}
	}
	return out
}

// outcome names a seat's match outcome (1, 0.5 or 0) for the ledger.
func outcome(o float64) string {
	switch o {
	case 1:
		return ledger.Win
	case 0.5:
		return ledger.Draw
	}
	return ledger.Loss
}

// Table rebuilds the match table of the pool's runs from their results
// recorded with TableResults: every match of every pooled run (of the
// pool's game, or all), numbered anew. Matches are grouped by run and
// match number; results without a match number are left out.
func (p Pool) Table() *match.Table {
	t := &match.Table{}
	for _, run := range p.Runs {
		at := map[int]int{} // match number → row index in t
		for _, res := range run.Results {
			if res.Match == 0 || (p.Game != "" && res.Game != p.Game) {
				continue
			}
			i, ok := at[res.Match]
			if !ok {
				i = len(t.Rows)
				at[res.Match] = i
				t.Rows = append(t.Rows, match.Row{Index: i, Game: res.Game, Seed: res.Seed, Finished: true})
			}
			row := &t.Rows[i]
			row.Players = append(row.Players, res.Player)
			row.Roles = append(row.Roles, strings.TrimPrefix(res.Detail, "as "))
			row.Scores = append(row.Scores, int(res.Value))
		}
	}
	return t
}
