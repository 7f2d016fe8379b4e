package match

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"

	"gdlab/engine/game"
	"gdlab/engine/heuristic"
	"gdlab/engine/search"
)

// Entrant is a tournament participant: a name, a way to make a fresh player
// for each match, and the per-move budget it is held to.
type Entrant struct {
	Name   string               // "" means the player's own Name()
	New    func() search.Player // called once per match
	Budget search.Budget        // per-move limits on top of the play clock
}

// Tournament plays every seating of its entrants a number of times:
//
//   - with one role, each entrant plays alone;
//   - otherwise every assignment of entrants to seats that uses at least two
//     different entrants: for two roles, a round robin in which each pair
//     meets with both seatings (k entrants give k² − k seatings);
//   - with FixedSeats, only assignments of distinct entrants in increasing
//     order, so each set of players meets in one seating.
//
// Each seating is played Games times. Match i gets the seed
// heuristic.Mix(Seed + i), so a tournament with the same settings, and no
// clock pressure, produces the same table whatever Workers is. Matches run
// in parallel on Workers goroutines.
type Tournament struct {
	Game    string       // the game's name in the table
	Machine game.Machine // shared by all matches; see NewMachine
	// NewMachine, if set, makes a fresh machine for every match. Use it for
	// parallel tournaments with a reasoner that serialises its calls (the
	// prover does), and for tables that must not depend on Workers: a
	// reasoner that numbers terms as it meets them (the prover again) hashes
	// states by its history, and hashes steer a search's transposition
	// table and depth charges, so under a node or Next-call budget a shared
	// machine makes results depend on the order matches ran in.
	NewMachine func() (game.Machine, error)
	Entrants   []Entrant
	Games      int  // matches per seating; 0 means 1
	FixedSeats bool // do not rotate seats
	Seed       uint64
	Options    Options
	Workers    int // 0 means runtime.GOMAXPROCS(0)
	// Progress, if set, is called after each match with the number done and
	// the total, one call at a time. A panic in it is recovered and ignored.
	Progress func(done, total int)
}

// Seatings returns the entrant indices of every seating, seat by seat, in
// the order the matches are numbered (each repeated Games times in a row).
func (t *Tournament) Seatings(roles int) [][]int {
	k := len(t.Entrants)
	var out [][]int
	if roles == 1 {
		for i := 0; i < k; i++ {
			out = append(out, []int{i})
		}
		return out
	}
	idx := make([]int, roles)
	for {
		if t.admits(idx) {
			out = append(out, append([]int(nil), idx...))
		}
		r := roles - 1
		for ; r >= 0; r-- {
			if idx[r]++; idx[r] < k {
				break
			}
			idx[r] = 0
		}
		if r < 0 {
			return out
		}
	}
}

// admits reports whether a seating (of two or more seats) is played.
func (t *Tournament) admits(idx []int) bool {
	mixed := false
	for i := 1; i < len(idx); i++ {
		if t.FixedSeats && idx[i] <= idx[i-1] {
			return false
		}
		mixed = mixed || idx[i] != idx[0]
	}
	return mixed
}

// job is one scheduled match.
type job struct {
	index   int
	seating []int
}

// Run plays the tournament and returns its table, rows in match order. A
// match that fails is kept with its Error set, and its error is joined into
// the one Run returns. When ctx ends, Run returns the matches finished so
// far with ctx's error.
func (t *Tournament) Run(ctx context.Context) (*Table, error) {
	jobs, err := t.schedule()
	if err != nil {
		return nil, err
	}
	rows := make([]*Row, len(jobs))
	queue := make(chan job)
	var wg sync.WaitGroup
	var mu sync.Mutex
	done := 0
	werr := make([]error, t.workers(len(jobs)))
	for w := range werr {
		wg.Add(1)
		go func() {
			defer wg.Done()
			werr[w] = t.work(ctx, queue, rows, func() {
				mu.Lock()
				defer mu.Unlock()
				done++
				t.progress(done, len(jobs))
			})
		}()
	}
	feed(ctx, queue, jobs)
	wg.Wait()
	return collect(rows), errors.Join(ctx.Err(), errors.Join(werr...))
}

// schedule lists the matches.
func (t *Tournament) schedule() ([]job, error) {
	m := t.Machine
	if m == nil && t.NewMachine != nil {
		var err error
		if m, err = t.NewMachine(); err != nil {
			return nil, err
		}
	}
	if m == nil {
		return nil, errors.New("match: Tournament has neither Machine nor NewMachine")
	}
	for i, e := range t.Entrants {
		if e.New == nil {
			return nil, fmt.Errorf("match: entrant %d (%s) has no New", i, e.Name)
		}
	}
	var jobs []job
	for _, s := range t.Seatings(len(m.Roles())) {
		for g := 0; g < max(t.Games, 1); g++ {
			jobs = append(jobs, job{index: len(jobs), seating: s})
		}
	}
	return jobs, nil
}

func (t *Tournament) workers(jobs int) int {
	w := t.Workers
	if w <= 0 {
		w = runtime.GOMAXPROCS(0)
	}
	return max(1, min(w, jobs))
}

// feed sends the jobs until they run out or ctx ends.
func feed(ctx context.Context, queue chan<- job, jobs []job) {
	defer close(queue)
	for _, j := range jobs {
		select {
		case queue <- j:
		case <-ctx.Done():
			return
		}
	}
}

// work plays queued matches.
func (t *Tournament) work(ctx context.Context, queue <-chan job, rows []*Row, finished func()) error {
	var errs []error
	for j := range queue {
		row, err := t.play(ctx, j)
		if row != nil && (err == nil || ctx.Err() == nil) {
			rows[j.index] = row
			finished()
		}
		if err != nil && ctx.Err() == nil {
			errs = append(errs, fmt.Errorf("match %d: %w", j.index, err))
		}
	}
	return errors.Join(errs...)
}

// play runs one scheduled match.
func (t *Tournament) play(ctx context.Context, j job) (*Row, error) {
	m := t.Machine
	if t.NewMachine != nil {
		var err error
		if m, err = t.NewMachine(); err != nil {
			return &Row{Index: j.index, Game: t.Game, Error: err.Error()}, err
		}
	}
	row, err := Run(ctx, m, t.seats(j.seating), t.Options, heuristic.Mix(t.Seed+uint64(j.index)))
	if row != nil {
		row.Index, row.Game = j.index, t.Game
	}
	return row, err
}

// seats makes fresh players for a seating.
func (t *Tournament) seats(seating []int) []Seat {
	out := make([]Seat, len(seating))
	for i, e := range seating {
		ent := t.Entrants[e]
		p := newPlayer(ent)
		name := ent.Name
		if name == "" {
			name = playerName(p)
		}
		out[i] = Seat{Name: name, Player: p, Budget: ent.Budget}
	}
	return out
}

// newPlayer calls an entrant's constructor, which may be notebook code.
func newPlayer(e Entrant) (p search.Player) {
	defer func() {
		if recover() != nil {
			p = nil
		}
	}()
	return e.New()
}

// progress calls the callback, ignoring its panics.
func (t *Tournament) progress(done, total int) {
	if t.Progress == nil {
		return
	}
	defer func() { _ = recover() }()
	t.Progress(done, total)
}

// collect drops the matches that were never played.
func collect(rows []*Row) *Table {
	tab := &Table{}
	for _, r := range rows {
		if r != nil {
			tab.Rows = append(tab.Rows, *r)
		}
	}
	return tab
}
