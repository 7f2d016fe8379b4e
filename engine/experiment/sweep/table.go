package sweep

import (
	"encoding/csv"
	"fmt"
	"io"
	"sort"
	"strconv"

	"gdlab/engine/experiment/rivest"
	"gdlab/engine/match"
	"gdlab/engine/stats"
)

// Result is one unit's match: its key and, seat by seat in role order, who
// played, with what score and at what cost.
type Result struct {
	Unit
	MatchSeed uint64    `json:"match_seed"`
	Players   []string  `json:"players"` // labels, seat by seat
	Roles     []string  `json:"roles"`
	Scores    []int     `json:"scores"` // goal values; -1 where undefined
	NextCalls []int64   `json:"next_calls"`
	Seconds   []float64 `json:"seconds"` // wall time in the player's calls: the one measurement that varies between runs
	Moves     int       `json:"moves"`
	Finished  bool      `json:"finished"`
	Replaced  int       `json:"replaced"` // late, illegal or failed moves the referee replaced
	Error     string    `json:"error,omitempty"`
	// MeanDepth is the mean search depth each seat's player reported.
	MeanDepth []float64 `json:"mean_depth,omitempty"`
	// History is the joint moves played, as text in role order.
	History [][]string `json:"history,omitempty"`
}

func newResult(s *Spec, u Unit, seating []int, row *match.Row) Result {
	r := Result{Unit: u, MatchSeed: row.Seed, Roles: row.Roles, Scores: row.Scores, NextCalls: row.NextCalls,
		Seconds: row.Seconds, Moves: row.Moves, Finished: row.Finished, Error: row.Error, MeanDepth: row.MeanDepth, History: row.History}
	for _, i := range seating {
		r.Players = append(r.Players, s.Players[i].Name())
	}
	for _, xs := range [][]int{row.Late, row.Illegal, row.Errors} {
		for _, x := range xs {
			r.Replaced += x
		}
	}
	return r
}

// Score returns the mean score of a player's seats in the match, and
// whether it had any.
func (r Result) Score(label string) (float64, bool) {
	sum, n := 0.0, 0
	for i, p := range r.Players {
		if p == label && i < len(r.Scores) && r.Scores[i] >= 0 {
			sum += float64(r.Scores[i])
			n++
		}
	}
	if n == 0 {
		return 0, false
	}
	return sum / float64(n), true
}

// Table is a sweep's results, one row a unit, ordered by setting, game and
// seed number.
type Table struct {
	Spec    *Spec
	Results []Result
}

// sortResults orders results as Units does.
func (s *Spec) sortResults(rs []Result) {
	game := map[string]int{}
	for i, g := range s.Games {
		game[g] = i
	}
	sort.Slice(rs, func(i, j int) bool {
		a, b := rs[i].Unit, rs[j].Unit
		if a.Setting != b.Setting {
			return a.Setting < b.Setting
		}
		if a.Game != b.Game {
			return game[a.Game] < game[b.Game]
		}
		return a.Seed < b.Seed
	})
}

// WriteCSV writes the table, one row a unit: the setting's number and axis
// values, the game, the seed number and match seed, then per seat the
// player, role, score, Next calls and seconds, then the match's moves,
// whether it finished, the moves replaced and any error. With withTime
// false the seconds columns are left out: what remains is the same on
// every run of the spec.
func (t *Table) WriteCSV(w io.Writer, withTime bool) error {
	header, recs := t.records(withTime)
	cw := csv.NewWriter(w)
	if err := cw.Write(header); err != nil {
		return err
	}
	if err := cw.WriteAll(recs); err != nil {
		return err
	}
	cw.Flush()
	return cw.Error()
}

// records returns the table's header and rows as WriteCSV writes them.
func (t *Table) records(withTime bool) ([]string, [][]string) {
	seats := 0
	for _, r := range t.Results {
		seats = max(seats, len(r.Players))
	}
	axes := t.Spec.axisNames()
	settings := t.Spec.Settings()
	header := append([]string{"setting"}, axes...)
	header = append(header, "game", "seed", "match_seed")
	for s := 0; s < seats; s++ {
		p := fmt.Sprintf("seat%d_", s)
		header = append(header, p+"player", p+"role", p+"score", p+"next_calls")
		if withTime {
			header = append(header, p+"seconds")
		}
	}
	header = append(header, "moves", "finished", "replaced", "error")
	recs := make([][]string, 0, len(t.Results))
	for _, r := range t.Results {
		rec := []string{strconv.Itoa(r.Setting)}
		for _, a := range axes {
			rec = append(rec, num(settings[r.Setting][a]))
		}
		rec = append(rec, r.Game, strconv.Itoa(r.Seed), strconv.FormatUint(r.MatchSeed, 10))
		for s := 0; s < seats; s++ {
			rec = append(rec, seatFields(r, s, withTime)...)
		}
		rec = append(rec, strconv.Itoa(r.Moves), strconv.FormatBool(r.Finished), strconv.Itoa(r.Replaced), r.Error)
		recs = append(recs, rec)
	}
	return header, recs
}

func seatFields(r Result, s int, withTime bool) []string {
	if s >= len(r.Players) {
		n := 4
		if withTime {
			n = 5
		}
		return make([]string, n)
	}
	out := []string{r.Players[s], at(r.Roles, s), strconv.Itoa(atInt(r.Scores, s)), strconv.FormatInt(atInt64(r.NextCalls, s), 10)}
	if withTime && s < len(r.Seconds) {
		out = append(out, strconv.FormatFloat(r.Seconds[s], 'f', 4, 64))
	} else if withTime {
		out = append(out, "")
	}
	return out
}

func at(xs []string, i int) string {
	if i < len(xs) {
		return xs[i]
	}
	return ""
}

func atInt(xs []int, i int) int {
	if i < len(xs) {
		return xs[i]
	}
	return -1
}

func atInt64(xs []int64, i int) int64 {
	if i < len(xs) {
		return xs[i]
	}
	return 0
}

func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// Line is the subject's score in one setting, on one game or pooled over
// the games (Game ""): its mean with a 95% interval over the matches.
type Line struct {
	Setting   int
	Values    map[string]float64 // the setting's axis values
	Game      string
	Matches   int
	Mean      float64
	Low, High float64
}

// Summary returns, setting by setting, the subject's (the first player's)
// score on each game and pooled over the games.
func (t *Table) Summary() []Line {
	settings := t.Spec.Settings()
	subject := t.Spec.Players[0].Name()
	var out []Line
	for i, set := range settings {
		pooled := []float64{}
		for _, g := range t.Spec.Games {
			xs := t.scores(i, g, subject)
			pooled = append(pooled, xs...)
			out = append(out, line(i, set, g, xs))
		}
		if len(t.Spec.Games) > 1 {
			out = append(out, line(i, set, "", pooled))
		}
	}
	return out
}

func (t *Table) scores(setting int, game, label string) []float64 {
	var xs []float64
	for _, r := range t.Results {
		if r.Setting == setting && r.Game == game {
			if v, ok := r.Score(label); ok {
				xs = append(xs, v)
			}
		}
	}
	return xs
}

func line(i int, set map[string]float64, game string, xs []float64) Line {
	l := Line{Setting: i, Values: set, Game: game, Matches: len(xs)}
	if len(xs) > 0 {
		l.Mean, l.Low, l.High = stats.MeanInterval(xs, 0.95)
	}
	return l
}

// Row returns the result as a match row, so that code written for match
// tables (match.Standings, experiment.MatchResults) reads it: Index is the
// seed number, Game the game.
func (r Result) Row() match.Row {
	return match.Row{Index: r.Seed, Game: r.Game, Seed: r.MatchSeed, Roles: r.Roles, Players: r.Players, Scores: r.Scores,
		Moves: r.Moves, Finished: r.Finished, NextCalls: r.NextCalls, Seconds: r.Seconds, MeanDepth: r.MeanDepth,
		History: r.History, Error: r.Error}
}

// MatchTable returns the results of one setting on one game as a match
// table, in order of seed number. With Spec.Seating "grouped" it is the
// table match.Tournament plays with the same seed, players and games.
func (t *Table) MatchTable(setting int, game string) *match.Table {
	out := &match.Table{Rows: []match.Row{}}
	for _, r := range t.Results {
		if r.Setting == setting && r.Game == game {
			out.Rows = append(out.Rows, r.Row())
		}
	}
	return out
}

// Rivest returns one setting of a sweep on Rivest's openings as
// rivest.Run reports a bound: MM's wins, losses, ties, score with its
// Wilson interval, calls, time, depth and per-game Outcomes, indexed by
// seed number (2k + c, as rivest.Result's). The first player is MM (its
// "p", "reverse" and "penalty" in the setting are reported); label names
// the bound, kind is "moves" or "time".
func (t *Table) Rivest(setting int, label, kind string) (rivest.Result, error) {
	s := t.Spec
	if s.Openings != OpeningsRivest {
		return rivest.Result{}, fmt.Errorf("sweep: %s does not play Rivest's openings", s.Name)
	}
	sets := s.Settings()
	if setting < 0 || setting >= len(sets) {
		return rivest.Result{}, fmt.Errorf("sweep: %s has no setting %d", s.Name, setting)
	}
	mm := s.Players[0].in(sets[setting])
	cfg := rivest.Config{P: mm.get("p", 10), Reverse: mm.get("reverse", 0) != 0, Penalty: mm.get("penalty", 0), Eval: evaluators[s.Players[0].Eval]()}
	rows := make([]match.Row, s.Seeds)
	for _, r := range t.Results {
		if r.Setting != setting || r.Seed >= len(rows) {
			continue
		}
		row := r.Row()
		row.Players = append([]string(nil), row.Players...)
		for i, p := range row.Players {
			if p == s.Players[0].Name() {
				row.Players[i] = "mm"
			} else {
				row.Players[i] = "ab"
			}
		}
		rows[r.Seed] = row
	}
	return rivest.Summarise(rivest.Bound{Label: label, Kind: kind}, cfg, rows), nil
}
