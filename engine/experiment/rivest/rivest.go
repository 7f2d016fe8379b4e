// Package rivest owns the driver of Rivest's (1987) Connect Four experiment:
// min/max approximation (engine/search/mmapprox) against alpha-beta with the
// same static evaluator, from 49 openings (the first two moves fixed) with
// each program playing each colour, under per-move bounds on move-operator
// calls or on time. It returns result tables with confidence intervals and
// writes them, with the command and seeds that regenerate them, as JSON and
// Markdown.
package rivest

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"time"

	"gdlab/datasets"
	"gdlab/engine/game"
	"gdlab/engine/heuristic"
	"gdlab/engine/match"
	"gdlab/engine/propnet"
	"gdlab/engine/search"
	"gdlab/engine/search/mmapprox"
	"gdlab/engine/stats"
)

// Paper holds Rivest's totals over his five bounds of each kind (98 games
// per bound): MM wins, AB wins, ties.
var Paper = map[string][3]int{"moves": {249, 190, 51}, "time": {186, 239, 65}}

// PaperRatio is the ratio of move-operator calls per second, AB over MM,
// that Rivest reports (AB made about 4.4 times as many).
var PaperRatio = 4.4

// Bound is a per-move limit, the same for both programs.
type Bound struct {
	Label  string        // as shown in tables, e.g. "1000 calls" or "10 ms"
	Kind   string        // "moves" or "time"
	Budget search.Budget // per move
}

// MoveBounds returns Rivest's five move-call bounds: 1000 to 5000 calls per move.
func MoveBounds() []Bound {
	var out []Bound
	for k := int64(1); k <= 5; k++ {
		out = append(out, Bound{Label: fmt.Sprintf("%d calls", 1000*k), Kind: "moves", Budget: search.Budget{NextCalls: 1000 * k}})
	}
	return out
}

// TimeBounds returns five time bounds, k·step per move for k = 1..5:
// Rivest's 1 to 5 seconds scaled to this implementation's speed.
func TimeBounds(step time.Duration) []Bound {
	var out []Bound
	for k := 1; k <= 5; k++ {
		d := time.Duration(k) * step
		out = append(out, Bound{Label: d.String(), Kind: "time", Budget: search.Budget{Time: d}})
	}
	return out
}

// Config is one block of games: MM with given settings against alpha-beta.
type Config struct {
	P       float64             // MM's p
	Reverse bool                // MM's reverse approximation
	Penalty float64             // MM's constant edge penalty
	Eval    heuristic.Evaluator // both programs' evaluator; nil means mmapprox.Connect4{}
	// ABNoTable and ABNoOrdering switch alpha-beta's transposition table
	// and move ordering off (search.AlphaBeta's NoTable and NoOrdering), to
	// compare readings of the paper's alpha-beta.
	ABNoTable, ABNoOrdering bool
	Openings                int    // how many of the 49 openings; 0 means all 49
	Seed                    uint64 // see GameSeed
	Workers                 int    // games at once; 0 means runtime.GOMAXPROCS(0)
	// Progress, if set, is called after each game with the number done and
	// the total, one call at a time.
	Progress func(done, total int)
}

// Result is the outcome of one bound's games.
type Result struct {
	Bound          string
	Kind           string
	P              float64
	Reverse        bool
	Eval           string
	Games          int
	MMWins, ABWins int
	Ties           int
	// Score is MM's mean score (win 1, tie ½) with its 95% interval (Wilson
	// score interval on the games as independent trials).
	Score, Low, High float64
	Plies            int     // joint moves played after the openings, all games
	MMCalls, ABCalls int64   // move-operator calls counted by the referee
	MMSecs, ABSecs   float64 // thinking time
	// CallRatio is AB's calls per second over MM's: how many more move
	// calls AB makes in the same time (Rivest: about 4.4).
	CallRatio        float64
	MMDepth, ABDepth float64 // mean reported search depth per move
	// Outcomes is MM's score in each game (1, ½, 0; -1 for a game that
	// failed), indexed 2k + c for the k-th opening played and MM in seat
	// c: the same index is the same opening and colour in every block, so
	// blocks compare game by game (see BestP).
	Outcomes []float64 `json:",omitempty"`
}

// Machine returns the propositional network of datasets' connectFour, the
// 7×6 board of Rivest's experiment.
func Machine(ctx context.Context) (game.Machine, error) {
	g, err := datasets.Game("connectFour")
	if err != nil {
		return nil, err
	}
	d, err := g.Description()
	if err != nil {
		return nil, err
	}
	return propnet.Build(ctx, d, propnet.Options{})
}

// opening is a machine whose initial state is a position after the fixed
// first moves. It forwards BaseProps so that evaluators that read a
// network's propositions still find them.
type opening struct {
	game.Machine
	init game.State
}

func (o opening) Initial() game.State { return o.init }

// BaseProps forwards to the network.
func (o opening) BaseProps() []string {
	if bp, ok := o.Machine.(interface{ BaseProps() []string }); ok {
		return bp.BaseProps()
	}
	return nil
}

// FromOpening returns m with s as its initial state: the machine of a game
// played from one of Openings, as Run plays it.
func FromOpening(m game.Machine, s game.State) game.Machine { return opening{m, s} }

// Openings returns the positions after white's and black's first drops,
// 49 on the 7×6 board, with their move texts, white's column varying
// slowest.
func Openings(m game.Machine) ([]game.State, []string, error) {
	var states []game.State
	var names []string
	s0 := m.Initial()
	w, err := m.Legal(s0, 0, nil)
	if err != nil {
		return nil, nil, err
	}
	for _, a := range w {
		noop, err := m.Legal(s0, 1, nil)
		if err != nil {
			return nil, nil, err
		}
		s1, err := m.Next(s0, []game.Move{a, noop[0]})
		if err != nil {
			return nil, nil, err
		}
		bl, err := m.Legal(s1, 1, nil)
		if err != nil {
			return nil, nil, err
		}
		for _, b := range bl {
			noop, err := m.Legal(s1, 0, nil)
			if err != nil {
				return nil, nil, err
			}
			s2, err := m.Next(s1, []game.Move{noop[0], b})
			if err != nil {
				return nil, nil, err
			}
			states = append(states, s2)
			names = append(names, m.MoveText(0, a)+" "+m.MoveText(1, b))
		}
	}
	return states, names, nil
}

// pick returns n openings' indices spread evenly over all of them.
func pick(total, n int) []int {
	if n <= 0 || n > total {
		n = total
	}
	out := make([]int, n)
	for i := range out {
		out[i] = i * total / n
	}
	return out
}

// Run plays, for every bound, each chosen opening twice (MM white, then MM
// black) and returns one Result per bound and the table of all games (the
// Row's Game field names the opening). The machine must be connectFour's.
func Run(ctx context.Context, m game.Machine, cfg Config, bounds []Bound) ([]Result, *match.Table, error) {
	states, names, err := Openings(m)
	if err != nil {
		return nil, nil, err
	}
	eval := cfg.Eval
	if eval == nil {
		eval = mmapprox.Connect4{}
	}
	type job struct {
		index, bound, open, mmSeat int
	}
	var jobs []job
	for b := range bounds {
		for _, o := range pick(len(states), cfg.Openings) {
			for seat := 0; seat < 2; seat++ {
				jobs = append(jobs, job{index: len(jobs), bound: b, open: o, mmSeat: seat})
			}
		}
	}
	rows := make([]match.Row, len(jobs))
	errs := make([]error, len(jobs))
	queue := make(chan job)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	workers := cfg.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range queue {
				row, err := playOne(ctx, opening{m, states[j.open]}, cfg, eval, bounds[j.bound], j.mmSeat, GameSeed(cfg.Seed, j.open, j.mmSeat))
				if row != nil {
					row.Index, row.Game = j.index, names[j.open]
					rows[j.index] = *row
				}
				errs[j.index] = err
				mu.Lock()
				done++
				if cfg.Progress != nil {
					cfg.Progress(done, len(jobs))
				}
				mu.Unlock()
			}
		}()
	}
	for _, j := range jobs {
		select {
		case queue <- j:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
	}
	close(queue)
	wg.Wait()
	table := &match.Table{Rows: rows}
	var results []Result
	for b, bd := range bounds {
		var mine []match.Row
		for i, j := range jobs {
			if j.bound == b {
				mine = append(mine, rows[i])
			}
		}
		results = append(results, summarise(bd, cfg, heuristic.Name(eval), mine))
	}
	return results, table, errors.Join(ctx.Err(), errors.Join(errs...))
}

// GameSeed returns the match seed of the game from opening o (an index
// into Openings) with MM in seat mmSeat: heuristic.Mix(seed + 2·o + mmSeat).
// It does not depend on the bound or the block, so every bound and every
// p replays the same openings with the same seeds (paired comparisons).
func GameSeed(seed uint64, o, mmSeat int) uint64 {
	return heuristic.Mix(seed + 2*uint64(o) + uint64(mmSeat))
}

// playOne plays one game with MM in seat mmSeat.
func playOne(ctx context.Context, m game.Machine, cfg Config, eval heuristic.Evaluator, b Bound, mmSeat int, seed uint64) (*match.Row, error) {
	mm := match.Seat{Name: "mm", Player: &mmapprox.Player{Eval: eval, P: cfg.P, Reverse: cfg.Reverse, Penalty: cfg.Penalty}, Budget: b.Budget}
	ab := match.Seat{Name: "ab", Player: &search.AlphaBeta{Eval: eval, NoTable: cfg.ABNoTable, NoOrdering: cfg.ABNoOrdering}, Budget: b.Budget}
	seats := []match.Seat{mm, ab}
	if mmSeat == 1 {
		seats = []match.Seat{ab, mm}
	}
	return match.Run(ctx, m, seats, match.Options{Abandon: 10 * time.Second}, seed)
}

// Summarise counts the games of one bound from MM's side, as Run does:
// rows are in game order (2k + c for the k-th opening played and MM in seat
// c), MM's seats named "mm", a row without players a failed game. It lets
// other drivers of the same games (engine/experiment/sweep) report them as
// Run would. cfg gives MM's settings and the evaluator (nil: Connect4).
func Summarise(b Bound, cfg Config, rows []match.Row) Result {
	eval := cfg.Eval
	if eval == nil {
		eval = mmapprox.Connect4{}
	}
	return summarise(b, cfg, heuristic.Name(eval), rows)
}

// summarise counts a bound's games from MM's side; rows are in game
// order (openings, then MM's seat), a row without players a failed game.
func summarise(b Bound, cfg Config, eval string, rows []match.Row) Result {
	r := Result{Bound: b.Label, Kind: b.Kind, P: cfg.P, Reverse: cfg.Reverse, Eval: eval, Outcomes: make([]float64, len(rows))}
	var mmDepth, abDepth float64
	for i, row := range rows {
		r.Outcomes[i] = -1
		if row.Players == nil {
			continue
		}
		r.Games++
		mmSeat := 0
		if row.Players[1] == "mm" {
			mmSeat = 1
		}
		abSeat := 1 - mmSeat
		switch mm, ab := row.Scores[mmSeat], row.Scores[abSeat]; {
		case mm > ab:
			r.MMWins++
			r.Outcomes[i] = 1
		case ab > mm:
			r.ABWins++
			r.Outcomes[i] = 0
		default:
			r.Ties++
			r.Outcomes[i] = 0.5
		}
		r.Plies += row.Moves
		r.MMCalls += row.NextCalls[mmSeat]
		r.ABCalls += row.NextCalls[abSeat]
		r.MMSecs += row.Seconds[mmSeat]
		r.ABSecs += row.Seconds[abSeat]
		mmDepth += row.MeanDepth[mmSeat]
		abDepth += row.MeanDepth[abSeat]
	}
	if r.Games > 0 {
		r.MMDepth, r.ABDepth = mmDepth/float64(r.Games), abDepth/float64(r.Games)
		r.Score, r.Low, r.High = stats.Wilson(float64(r.MMWins)+float64(r.Ties)/2, r.Games)
	}
	if r.MMCalls > 0 && r.ABSecs > 0 && r.MMSecs > 0 {
		r.CallRatio = (float64(r.ABCalls) / r.ABSecs) / (float64(r.MMCalls) / r.MMSecs)
	}
	return r
}

// Total adds up results (of one kind of bound) into one row labelled label.
func Total(label string, rs []Result) Result {
	t := Result{Bound: label}
	for i, r := range rs {
		if i == 0 {
			t.Kind, t.P, t.Reverse, t.Eval = r.Kind, r.P, r.Reverse, r.Eval
		}
		t.Games += r.Games
		t.MMWins += r.MMWins
		t.ABWins += r.ABWins
		t.Ties += r.Ties
		t.Plies += r.Plies
		t.MMCalls += r.MMCalls
		t.ABCalls += r.ABCalls
		t.MMSecs += r.MMSecs
		t.ABSecs += r.ABSecs
		t.MMDepth += r.MMDepth * float64(r.Games)
		t.ABDepth += r.ABDepth * float64(r.Games)
	}
	if t.Games > 0 {
		t.MMDepth /= float64(t.Games)
		t.ABDepth /= float64(t.Games)
		t.Score, t.Low, t.High = stats.Wilson(float64(t.MMWins)+float64(t.Ties)/2, t.Games)
	}
	if t.MMCalls > 0 && t.ABSecs > 0 && t.MMSecs > 0 {
		t.CallRatio = (float64(t.ABCalls) / t.ABSecs) / (float64(t.MMCalls) / t.MMSecs)
	}
	return t
}

// PaperTotal returns Rivest's totals for a kind of bound as a Result.
func PaperTotal(kind string) Result {
	w := Paper[kind]
	r := Result{Bound: "Rivest 1987, total", Kind: kind, Games: w[0] + w[1] + w[2], MMWins: w[0], ABWins: w[1], Ties: w[2]}
	r.Score, r.Low, r.High = stats.Wilson(float64(w[0])+float64(w[2])/2, r.Games)
	if kind == "time" {
		r.CallRatio = PaperRatio
	}
	return r
}
