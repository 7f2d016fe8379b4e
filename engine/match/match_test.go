package match_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"gdlab/engine/game"
	"gdlab/engine/match"
	"gdlab/engine/search"
	"gdlab/engine/search/searchtest"
)

func load(t testing.TB, name string) game.Machine {
	t.Helper()
	m, err := searchtest.Game(name)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestRun(t *testing.T) {
	m := load(t, "ttt")
	seats := []match.Seat{
		{Player: &search.AlphaBeta{}, Budget: search.Budget{NextCalls: 300}},
		{Name: "rnd", Player: &search.Random{}},
	}
	row, err := match.Run(context.Background(), m, seats, match.Options{}, 4)
	if err != nil {
		t.Fatal(err)
	}
	if !row.Finished || len(row.History) != row.Moves || row.Moves < 5 {
		t.Fatalf("row %+v", row)
	}
	if row.Players[0] != "alphabeta(goal)" || row.Players[1] != "rnd" {
		t.Errorf("players %v", row.Players)
	}
	if row.Scores[0]+row.Scores[1] != 100 {
		t.Errorf("scores %v", row.Scores)
	}
	if row.NextCalls[0] == 0 || row.NextCalls[0] > 300*int64(row.Moves) || row.NextCalls[1] != 0 {
		t.Errorf("next calls %v over %d moves", row.NextCalls, row.Moves)
	}
	if len(row.Events) != 0 {
		t.Errorf("events %v", row.Events)
	}
}

// rogue is a player that misbehaves in a chosen way on every move.
type rogue struct {
	how  string
	m    game.Machine
	role int
}

func (r *rogue) Name() string { return "rogue-" + r.how }

func (r *rogue) Start(ctx context.Context, s search.Setup) error {
	r.m, r.role = s.Machine, s.Role
	if r.how == "start-error" {
		return errors.New("cannot start")
	}
	return nil
}

func (r *rogue) Play(ctx context.Context, s game.State, b search.Budget) (game.Move, search.Report, error) {
	legal, _ := r.m.Legal(s, r.role, nil)
	switch r.how {
	case "illegal":
		return game.Move(1 << 30), search.Report{}, nil
	case "late":
		time.Sleep(60 * time.Millisecond)
	case "hang":
		time.Sleep(time.Second)
	case "panic":
		panic("rogue panic")
	case "error":
		return game.NoMove, search.Report{}, errors.New("rogue error")
	case "greedy":
		// Spends Next calls past its budget, which the referee's own count exposes.
		for i := int64(0); i <= b.NextCalls; i++ {
			_, _ = r.m.Next(s, []game.Move{legal[0], legal[0]})
		}
	}
	return legal[0], search.Report{}, nil
}

// TestRogues: every kind of misbehaviour is replaced by a legal move and
// recorded, and the match still ends.
func TestRogues(t *testing.T) {
	m := load(t, "rps")
	opt := match.Options{PlayClock: 20 * time.Millisecond, Grace: 10 * time.Millisecond, Abandon: 150 * time.Millisecond}
	cases := map[string]string{"illegal": "illegal", "late": "late", "panic": "error", "error": "error",
		"start-error": "error", "hang": "abandoned", "greedy": "over-budget"}
	for how, kind := range cases {
		seats := []match.Seat{{Player: &rogue{how: how}, Budget: search.Budget{NextCalls: 3}}, {Player: &search.Random{}}}
		row, err := match.Run(context.Background(), m, seats, opt, 1)
		if err != nil || !row.Finished {
			t.Fatalf("%s: %v %+v", how, err, row)
		}
		if !slices.ContainsFunc(row.Events, func(e match.Event) bool { return e.Kind == kind && e.Seat == 0 }) {
			t.Errorf("%s: no %q event in %+v", how, kind, row.Events)
		}
	}
}

// TestRoguesAskedTogether: asked at once, as a game server asks remote
// players, misbehaving seats are still replaced and recorded one by one,
// and two slow players take one play clock a step, not two.
func TestRoguesAskedTogether(t *testing.T) {
	m := load(t, "rps")
	opt := match.Options{PlayClock: 20 * time.Millisecond, Grace: 10 * time.Millisecond, Abandon: 150 * time.Millisecond, AskTogether: true}
	for how, kind := range map[string]string{"illegal": "illegal", "late": "late", "panic": "error", "hang": "abandoned"} {
		seats := []match.Seat{{Player: &rogue{how: how}}, {Player: &rogue{how: how}}}
		row, err := match.Run(context.Background(), m, seats, opt, 1)
		if err != nil || !row.Finished {
			t.Fatalf("%s: %v %+v", how, err, row)
		}
		for seat := range 2 {
			if !slices.ContainsFunc(row.Events, func(e match.Event) bool { return e.Kind == kind && e.Seat == seat }) {
				t.Errorf("%s: no %q event for seat %d in %+v", how, kind, seat, row.Events)
			}
		}
	}
	// Two players that each wait for the other within the play clock meet
	// only when asked together.
	for _, together := range []bool{true, false} {
		meet := &meeting{}
		opt := match.Options{PlayClock: 200 * time.Millisecond, Grace: 50 * time.Millisecond, AskTogether: together}
		row, err := match.Run(context.Background(), m, []match.Seat{{Player: &meeter{at: meet}}, {Player: &meeter{at: meet}}}, opt, 1)
		if err != nil {
			t.Fatal(err)
		}
		if late := row.Late[0] + row.Late[1]; together != (late == 0) {
			t.Errorf("asked together %v: %d late moves (events %v)", together, late, row.Events)
		}
	}
}

// meeting is where two meeters wait for each other, one round a move.
type meeting struct {
	mu     sync.Mutex
	waiter chan struct{}
}

// arrive waits up to the deadline for the other player of the round.
func (mt *meeting) arrive(deadline time.Time) bool {
	mt.mu.Lock()
	if ch := mt.waiter; ch != nil {
		mt.waiter = nil
		mt.mu.Unlock()
		close(ch)
		return true
	}
	ch := make(chan struct{})
	mt.waiter = ch
	mt.mu.Unlock()
	select {
	case <-ch:
		return true
	case <-time.After(time.Until(deadline) + 100*time.Millisecond):
		mt.mu.Lock()
		if mt.waiter == ch {
			mt.waiter = nil
		}
		mt.mu.Unlock()
		return false
	}
}

// meeter plays its first legal move once it has met the other player.
type meeter struct {
	at   *meeting
	m    game.Machine
	role int
}

func (p *meeter) Name() string { return "meeter" }

func (p *meeter) Start(ctx context.Context, s search.Setup) error {
	p.m, p.role = s.Machine, s.Role
	return nil
}

func (p *meeter) Play(ctx context.Context, s game.State, b search.Budget) (game.Move, search.Report, error) {
	p.at.arrive(b.Deadline)
	legal, _ := p.m.Legal(s, p.role, nil)
	return legal[0], search.Report{}, nil
}

func TestSeatings(t *testing.T) {
	ents := make([]match.Entrant, 3)
	cases := []struct {
		roles int
		fixed bool
		want  int
	}{{1, false, 3}, {2, false, 6}, {2, true, 3}, {3, false, 24}, {3, true, 1}}
	for _, c := range cases {
		tr := match.Tournament{Entrants: ents, FixedSeats: c.fixed}
		if got := len(tr.Seatings(c.roles)); got != c.want {
			t.Errorf("%d roles, fixed %v: %d seatings, want %d", c.roles, c.fixed, got, c.want)
		}
	}
}

func entrants() []match.Entrant {
	return []match.Entrant{
		{Name: "random", New: func() search.Player { return &search.Random{} }},
		{Name: "ab", New: func() search.Player { return &search.AlphaBeta{} }, Budget: search.Budget{NextCalls: 150}},
		{Name: "mcs", New: func() search.Player { return &search.MonteCarlo{Charges: 2} }, Budget: search.Budget{Nodes: 60}},
	}
}

// stripTimes zeroes what depends on the clock.
func stripTimes(tab *match.Table) {
	for i := range tab.Rows {
		tab.Rows[i].Seconds = nil
	}
}

// TestTournamentReproducible: the same seed gives the same table, with one
// worker or two; another seed gives another.
func TestTournamentReproducible(t *testing.T) {
	run := func(workers int, seed uint64) *match.Table {
		tr := match.Tournament{Game: "ttt", NewMachine: func() (game.Machine, error) { return searchtest.Game("ttt") },
			Entrants: entrants(), Games: 2, Seed: seed, Workers: workers}
		tab, err := tr.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		stripTimes(tab)
		return tab
	}
	a, b := run(1, 7), run(2, 7)
	if len(a.Rows) != 12 {
		t.Fatalf("%d rows, want 12", len(a.Rows))
	}
	var ja, jb strings.Builder
	_ = a.WriteJSON(&ja)
	_ = b.WriteJSON(&jb)
	if ja.String() != jb.String() {
		t.Error("same seed, different tables")
		la, lb := strings.Split(ja.String(), "\n"), strings.Split(jb.String(), "\n")
		for i := range la {
			if i < len(lb) && la[i] != lb[i] {
				t.Fatalf("line %d: %s vs %s", i, la[i], lb[i])
			}
		}
	}
	var jc strings.Builder
	_ = run(2, 8).WriteJSON(&jc)
	if jc.String() == ja.String() {
		t.Error("different seeds, same table")
	}
	for _, r := range a.Rows {
		for _, e := range r.Events {
			t.Errorf("match %d: %+v", r.Index, e)
		}
	}
}

func TestProgress(t *testing.T) {
	var calls [][2]int
	tr := match.Tournament{Machine: load(t, "nim"), Entrants: entrants()[:2], Games: 3,
		Progress: func(done, total int) {
			calls = append(calls, [2]int{done, total})
			panic("a notebook bug")
		}}
	tab, err := tr.Run(context.Background())
	if err != nil || len(tab.Rows) != 6 {
		t.Fatalf("%v, %d rows", err, len(tab.Rows))
	}
	if len(calls) != 6 || calls[5] != [2]int{6, 6} {
		t.Errorf("progress calls %v", calls)
	}
}

func TestCancel(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	tr := match.Tournament{Machine: load(t, "ttt"), Entrants: entrants(), Games: 50, Workers: 1,
		Progress: func(done, total int) {
			if done == 2 {
				cancel()
			}
		}}
	tab, err := tr.Run(ctx)
	if !errors.Is(err, context.Canceled) || tab == nil || len(tab.Rows) < 2 || len(tab.Rows) > 3 {
		t.Fatalf("err %v, %d rows", err, len(tab.Rows))
	}
}

// TestBrokenEntrant: an entrant whose constructor panics is seated as "no
// player", moves at random, and the tournament goes on.
func TestBrokenEntrant(t *testing.T) {
	ents := append(entrants()[:1], match.Entrant{Name: "broken", New: func() search.Player { panic("oops") }})
	tr := match.Tournament{Machine: load(t, "nim"), Entrants: ents}
	tab, err := tr.Run(context.Background())
	if err != nil || len(tab.Rows) != 2 {
		t.Fatalf("%v %+v", err, tab)
	}
	for _, r := range tab.Rows {
		if !r.Finished || len(r.Events) == 0 {
			t.Errorf("%+v", r)
		}
	}
}
