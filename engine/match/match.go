// Package match owns match play: a referee that runs one match between
// players under start and play clocks, tournaments of many matches run in
// parallel, result tables that save atomically as CSV or JSON, and their
// statistics (mean scores with confidence intervals, win/draw/loss counts,
// Elo ratings with uncertainty).
package match

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"gdlab/engine/game"
	"gdlab/engine/heuristic"
	"gdlab/engine/search"
)

// Options are a match's rules of play. The zero value has no clocks, which
// with node or Next-call budgets makes matches exactly reproducible.
type Options struct {
	StartClock time.Duration // time for Start; 0 means no limit
	PlayClock  time.Duration // time per move; 0 means no limit
	Grace      time.Duration // lateness tolerated past a clock; 0 means 50 ms
	MaxMoves   int           // joint moves before the match is stopped unfinished; 0 means 1000
	// Abandon is how long the referee waits for a late player to return after
	// being told to stop; a player still busy then is written off and moves
	// at random for the rest of the match. 0 means 2 s.
	Abandon time.Duration
	// AskTogether asks every seat for its move at once, each under its own
	// play clock, as a game server does. It suits players that run
	// elsewhere (remote players); local players would compete for the
	// cores, so by default seats are asked one after another.
	AskTogether bool
}

func (o Options) grace() time.Duration   { return orDefault(o.Grace, 50*time.Millisecond) }
func (o Options) abandon() time.Duration { return orDefault(o.Abandon, 2*time.Second) }
func (o Options) maxMoves() int {
	if o.MaxMoves <= 0 {
		return 1000
	}
	return o.MaxMoves
}

func orDefault(d, def time.Duration) time.Duration {
	if d <= 0 {
		return def
	}
	return d
}

// Seat is one player in one match.
type Seat struct {
	Name   string        // the name in the results; "" means Player.Name()
	Player search.Player // a player not used by any other match
	Budget search.Budget // per-move limits on top of the play clock
}

// Row is the record of one match: one entry per seat (in role order) in
// every slice.
type Row struct {
	Index     int      // the match's number in its tournament
	Game      string   // the game's name
	Seed      uint64   // the match seed: players' seeds and random replacements derive from it
	Roles     []string // the roles, seat by seat
	Players   []string // the players' names
	Scores    []int    // goal values at the end; -1 where undefined
	Moves     int      // joint moves played
	Finished  bool     // the match reached a terminal state
	Illegal   []int    // illegal moves, replaced by random legal ones
	Late      []int    // late moves, replaced by random legal ones
	Errors    []int    // Start or Play calls that failed (a legal move returned with an error is kept)
	Nodes     []int64  // node expansions the player reported
	NextCalls []int64  // calls to Next counted by the referee
	Seconds   []float64
	MeanDepth []float64 // mean search depth the player reported over the moves it searched
	History   [][]string
	Events    []Event
	Error     string // what stopped the match early, "" when nothing did
}

// Event is one irregularity during a match.
type Event struct {
	Move   int    // joint move number from 0; -1 for Start
	Seat   int    // the seat concerned
	Kind   string // "illegal", "late", "error", "over-budget" or "abandoned"
	Detail string
}

// Run plays one match of m between the seats, in role order. Each player is
// started under the start clock, then asked for a move in every state until
// the game ends or MaxMoves joint moves have been played. The players are
// asked one after another, each with its own play clock, so they do not
// compete for cores and the match is reproducible. An illegal or late move,
// or an error without a legal move, is replaced by a random legal move drawn
// from the match seed, and recorded. Player panics are recovered as errors.
// Run returns an error only when the machine fails or ctx ends; the row
// then records what happened up to that point.
func Run(ctx context.Context, m game.Machine, seats []Seat, opt Options, seed uint64) (*Row, error) {
	if len(seats) != len(m.Roles()) {
		return nil, fmt.Errorf("match: %d seats for %d roles", len(seats), len(m.Roles()))
	}
	r := newReferee(m, seats, opt, seed)
	err := r.play(ctx)
	if err != nil {
		r.row.Error = err.Error()
	}
	return r.row, err
}

// referee holds a running match.
type referee struct {
	m        game.Machine
	seats    []Seat
	meters   []*search.Counter
	gone     []bool // written off after not returning
	depths   []int  // moves with a reported depth, per seat
	starting bool   // events belong to Start (move -1)
	opt      Options
	rng      *rand.Rand
	row      *Row
}

func newReferee(m game.Machine, seats []Seat, opt Options, seed uint64) *referee {
	n := len(seats)
	r := &referee{m: m, seats: seats, opt: opt, rng: game.NewRand(heuristic.Mix(seed)),
		meters: make([]*search.Counter, n), gone: make([]bool, n), depths: make([]int, n)}
	r.row = &Row{Seed: seed, Roles: m.Roles(), Players: make([]string, n), Scores: make([]int, n),
		Illegal: make([]int, n), Late: make([]int, n), Errors: make([]int, n), Nodes: make([]int64, n),
		NextCalls: make([]int64, n), Seconds: make([]float64, n), MeanDepth: make([]float64, n)}
	for i, s := range seats {
		r.row.Players[i] = s.Name
		if s.Name == "" {
			r.row.Players[i] = playerName(s.Player)
		}
		// An unlimited meter only counts: the referee's own view of each
		// player's move-operator calls, whatever the player reports.
		r.meters[i] = search.NewCounter(context.Background(), m, search.Budget{})
	}
	return r
}

// play runs the match to its end.
func (r *referee) play(ctx context.Context) (err error) {
	for i := range r.seats {
		r.start(ctx, i)
	}
	defer func() { r.ended(ctx, err == nil && r.row.Finished) }()
	s := r.m.Initial()
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		term, err := r.m.Terminal(s)
		if err != nil {
			return err
		}
		if term || r.row.Moves >= r.opt.maxMoves() {
			r.row.Finished = term
			r.finish(s)
			return nil
		}
		if s, err = r.step(ctx, s); err != nil {
			return err
		}
	}
}

// finish records the scores and mean depths.
func (r *referee) finish(s game.State) {
	r.row.Scores = game.Goals(r.m, s)
	for i, n := range r.depths {
		if n > 0 {
			r.row.MeanDepth[i] /= float64(n)
		}
	}
}

// step asks every seat for its move in s and plays the joint move.
func (r *referee) step(ctx context.Context, s game.State) (game.State, error) {
	legal, err := game.LegalAll(r.m, s)
	if err != nil {
		return nil, err
	}
	for i := range r.seats {
		if len(legal[i]) == 0 {
			return nil, &game.NoLegalMoveError{Role: r.row.Roles[i], Step: r.row.Moves}
		}
	}
	joint := make([]game.Move, len(r.seats))
	if r.opt.AskTogether {
		answers := r.askAll(ctx, s)
		for i := range r.seats {
			joint[i] = r.judge(i, legal[i], answers[i])
		}
	} else {
		for i := range r.seats {
			joint[i] = r.move(ctx, i, s, legal[i])
		}
	}
	r.row.History = append(r.row.History, game.JointText(r.m, joint))
	r.row.Moves++
	for i := range r.seats {
		r.tell(i, func(w search.Watcher) { w.Moved(joint) })
	}
	return r.m.Next(s, joint)
}

// ended tells the watching players that the match is over.
func (r *referee) ended(ctx context.Context, finished bool) {
	for i := range r.seats {
		r.tell(i, func(w search.Watcher) { w.Ended(ctx, finished) })
	}
}

// tell calls fn on seat i's player if it is a Watcher, recording a panic
// as an error.
func (r *referee) tell(i int, fn func(search.Watcher)) {
	w, ok := r.seats[i].Player.(search.Watcher)
	if !ok || r.gone[i] {
		return
	}
	defer func() {
		if v := recover(); v != nil {
			r.event(i, "error", fmt.Sprintf("watcher panicked: %v", v))
			r.row.Errors[i]++
		}
	}()
	fn(w)
}

// move obtains seat i's move, replacing and recording a bad one.
func (r *referee) move(ctx context.Context, i int, s game.State, legal []game.Move) game.Move {
	if r.gone[i] {
		return legal[r.rng.IntN(len(legal))]
	}
	res := r.ask(ctx, i, s)
	return r.judge(i, legal, &res)
}

// askAll asks every seat still playing for its move in s at once; a
// written-off seat's answer is nil.
func (r *referee) askAll(ctx context.Context, s game.State) []*answer {
	answers := make([]*answer, len(r.seats))
	var wg sync.WaitGroup
	for i := range r.seats {
		if r.gone[i] {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			res := r.ask(ctx, i, s)
			answers[i] = &res
		}()
	}
	wg.Wait()
	return answers
}

// judge returns seat i's move from its answer (nil for a seat written
// off), replacing and recording a bad one.
func (r *referee) judge(i int, legal []game.Move, ans *answer) game.Move {
	if ans == nil {
		return legal[r.rng.IntN(len(legal))]
	}
	res := *ans
	r.settle(i, res)
	r.account(i, res)
	switch {
	case res.late:
		r.event(i, "late", fmt.Sprintf("returned after %v", res.took.Round(time.Millisecond)))
		r.row.Late[i]++
	case res.err != nil && !slices.Contains(legal, res.move):
		r.event(i, "error", res.err.Error())
		r.row.Errors[i]++
	case !slices.Contains(legal, res.move):
		r.event(i, "illegal", r.moveText(i, res.move))
		r.row.Illegal[i]++
	default:
		if res.err != nil {
			r.event(i, "error", res.err.Error()+" (its legal move was kept)")
			r.row.Errors[i]++
		}
		return res.move
	}
	return legal[r.rng.IntN(len(legal))]
}

// account adds a move's resources to the row and checks the budget.
func (r *referee) account(i int, res answer) {
	r.row.Nodes[i] += res.report.Used.Nodes
	r.row.NextCalls[i] += res.next
	r.row.Seconds[i] += res.took.Seconds()
	if res.report.Depth > 0 {
		r.row.MeanDepth[i] += float64(res.report.Depth)
		r.depths[i]++
	}
	b := r.seats[i].Budget
	if (b.NextCalls > 0 && res.next > b.NextCalls) || (b.Nodes > 0 && res.report.Used.Nodes > b.Nodes) {
		r.event(i, "over-budget", fmt.Sprintf("%d nodes, %d Next calls", res.report.Used.Nodes, res.next))
	}
}

func (r *referee) event(seat int, kind, detail string) {
	move := r.row.Moves
	if r.starting {
		move = -1
	}
	r.row.Events = append(r.row.Events, Event{Move: move, Seat: seat, Kind: kind, Detail: detail})
}

// moveText renders a move safely: a player may return any number.
func (r *referee) moveText(i int, mv game.Move) (text string) {
	defer func() {
		if recover() != nil {
			text = fmt.Sprintf("move %d", mv)
		}
	}()
	return r.m.MoveText(i, mv)
}

// playerName asks a player its name, which notebook code might get wrong.
func playerName(p search.Player) (name string) {
	if p == nil {
		return "none"
	}
	defer func() {
		if recover() != nil {
			name = fmt.Sprintf("%T", p)
		}
	}()
	return p.Name()
}

// errPanic wraps a panic of player code.
var errPanic = errors.New("match: player panicked")
