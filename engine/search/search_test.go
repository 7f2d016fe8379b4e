package search_test

import (
	"context"
	"errors"
	"os"
	"slices"
	"sync"
	"testing"
	"time"

	"gdlab/engine/game"
	"gdlab/engine/game/gametest"
	"gdlab/engine/heuristic"
	"gdlab/engine/propnet"
	"gdlab/engine/propnet/propnettest"
	"gdlab/engine/search"
	"gdlab/engine/search/playertest"
	"gdlab/engine/search/searchtest"
)

// quick reports whether heavier tests should shrink: go test -short or
// GDLAB_QUICK=1.
func quick() bool { return testing.Short() || os.Getenv("GDLAB_QUICK") != "" }

// playOnce starts p as role 0 of m and returns its move text and report in
// the initial state.
func playOnce(t *testing.T, m game.Machine, p search.Player, b search.Budget) (string, search.Report) {
	t.Helper()
	ctx := context.Background()
	if err := p.Start(ctx, search.Setup{Machine: m, Role: 0, Seed: 11}); err != nil {
		t.Fatal(err)
	}
	mv, rep, err := p.Play(ctx, m.Initial(), b)
	if err != nil {
		t.Fatalf("%s: %v", p.Name(), err)
	}
	return m.MoveText(0, mv), rep
}

// TestForcedWin: x to move in positions with exactly one winning move, a
// fork three joint moves deep and a block that wins five deep; every search
// that looks deep enough must find it and value it 100.
func TestForcedWin(t *testing.T) {
	cases := []struct {
		board, win string
		depth      int
	}{
		{"xox/.../o..", "(mark 3 3)", 3},
		{"x../..o/.xo", "(mark 1 3)", 5},
		{"ox./o.x/...", "(mark 3 1)", 5},
	}
	for _, c := range cases {
		m, err := searchtest.TicTacToe(c.board)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range []search.Player{
			&search.Minimax{Depth: c.depth, Eval: heuristic.Pessimism{}},
			&search.Deepening{Eval: heuristic.Pessimism{}},
			&search.AlphaBeta{Eval: heuristic.Pessimism{}},
			&search.AlphaBeta{Eval: heuristic.Pessimism{}, MaxDepth: c.depth, NoTable: true},
			&search.AlphaBeta{Eval: heuristic.Mobility{}, MaxDepth: c.depth, NoOrdering: true},
		} {
			got, rep := playOnce(t, m, p, search.Budget{})
			if got != c.win || rep.Value != 100 {
				t.Errorf("%s on %s: played %s valued %v, want %s valued 100", p.Name(), c.board, got, rep.Value, c.win)
			}
		}
	}
}

// TestShallowMissesDeepWin: the five-deep win is invisible at depth 3, where
// every move is worth 0 to a pessimist.
func TestShallowMissesDeepWin(t *testing.T) {
	m, _ := searchtest.TicTacToe("x../..o/.xo")
	_, rep := playOnce(t, m, &search.Minimax{Depth: 3, Eval: heuristic.Pessimism{}}, search.Budget{})
	if rep.Value != 0 || rep.Complete {
		t.Errorf("depth 3 report %+v, want value 0 and not complete", rep)
	}
}

// TestFalseSummit: reading intermediate goals, a search that stops short of
// the end climbs the ridge (and falls); one that sees the end takes the
// valley.
func TestFalseSummit(t *testing.T) {
	m, err := searchtest.Game("summit")
	if err != nil {
		t.Fatal(err)
	}
	for depth, want := range map[int]string{1: "(take ridge)", 4: "(take ridge)", 5: "(take valley)"} {
		got, rep := playOnce(t, m, &search.Minimax{Depth: depth, Eval: heuristic.IntermediateGoal{}}, search.Budget{})
		if got != want {
			t.Errorf("depth %d: %s (value %v), want %s", depth, got, rep.Value, want)
		}
	}
	got, rep := playOnce(t, m, &search.AlphaBeta{}, search.Budget{})
	if got != "(take valley)" || !rep.Complete || rep.Depth != 5 {
		t.Errorf("alpha-beta: %s %+v, want the valley, complete at depth 5", got, rep)
	}
}

// TestNim: the first player of the embedded nim wins, by taking one from
// heap a or two from heap b.
func TestNim(t *testing.T) {
	m, _ := searchtest.Game("nim")
	for seed := uint64(0); seed < 6; seed++ {
		p := &search.AlphaBeta{Eval: heuristic.Pessimism{}}
		if err := p.Start(context.Background(), search.Setup{Machine: m, Seed: seed}); err != nil {
			t.Fatal(err)
		}
		mv, rep, err := p.Play(context.Background(), m.Initial(), search.Budget{})
		got := m.MoveText(0, mv)
		if err != nil || rep.Value != 100 || (got != "(take a 1)" && got != "(take b 2)") {
			t.Errorf("seed %d: %s %+v %v", seed, got, rep, err)
		}
	}
}

// TestBudgetExact: a budget stops the search exactly at its limit, and the
// player still moves.
func TestBudgetExact(t *testing.T) {
	m, _ := searchtest.Game("ttt")
	for _, b := range []search.Budget{{Nodes: 1}, {Nodes: 37}, {NextCalls: 1}, {NextCalls: 100}, {Nodes: 50, NextCalls: 60}} {
		for _, p := range []search.Player{&search.AlphaBeta{}, &search.Deepening{}, &search.MonteCarlo{Charges: 5}, &search.FlatMonteCarlo{}} {
			_, rep := playOnce(t, m, p, b)
			if (b.Nodes > 0 && rep.Used.Nodes > b.Nodes) || (b.NextCalls > 0 && rep.Used.NextCalls > b.NextCalls) {
				t.Errorf("%s with %+v used %+v", p.Name(), b, rep.Used)
			}
			if rep.Stopped == search.StopNone {
				t.Errorf("%s with %+v: not stopped by the budget: %+v", p.Name(), b, rep)
			}
		}
	}
}

// TestFlatMonteCarloSpendsItsClock: flat Monte Carlo charges until its
// deadline, not for a fixed count, and stops within a playout of it.
func TestFlatMonteCarloSpendsItsClock(t *testing.T) {
	m, _ := searchtest.Game("ttt")
	for _, d := range []time.Duration{20 * time.Millisecond, 80 * time.Millisecond} {
		_, rep := playOnce(t, m, &search.FlatMonteCarlo{}, search.Budget{Time: d})
		if rep.Used.Time < d*3/4 || rep.Used.Time > d+20*time.Millisecond || rep.Stopped == search.StopNone {
			t.Errorf("budget %v: used %+v, stopped %v", d, rep.Used, rep.Stopped)
		}
	}
	// With a bound and no budget, exactly Charges playouts a legal move:
	// nine moves, one Next into each child and the playout's own steps.
	_, rep := playOnce(t, m, &search.FlatMonteCarlo{Charges: 4}, search.Budget{})
	if rep.Used.NextCalls < 9*4*2 || rep.Value < 0 {
		t.Errorf("4 charges a move: %+v", rep)
	}
}

func TestCounter(t *testing.T) {
	m, _ := searchtest.Game("nim")
	c := search.NewCounter(context.Background(), m, search.Budget{NextCalls: 2, Nodes: 1})
	s := m.Initial()
	legal, _ := game.LegalAll(m, s)
	joint := []game.Move{legal[0][0], legal[1][0]}
	for i := 0; i < 2; i++ {
		if _, err := c.Next(s, joint); err != nil {
			t.Fatalf("call %d: %v", i, err)
		}
	}
	if _, err := c.Next(s, joint); !errors.Is(err, search.ErrBudget) {
		t.Fatalf("third call: %v, want ErrBudget", err)
	}
	if c.Stopped() != search.StopNextCalls || c.Used().NextCalls != 2 {
		t.Errorf("stopped %q used %+v", c.Stopped(), c.Used())
	}
	if err := c.Expand(); !errors.Is(err, search.ErrBudget) {
		t.Errorf("Expand after exhaustion: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	c = search.NewCounter(ctx, m, search.Budget{})
	if _, err := c.Legal(s, 0, nil); !errors.Is(err, search.ErrBudget) || c.Stopped() != search.StopCancelled {
		t.Errorf("cancelled: %v %q", err, c.Stopped())
	}
}

// TestCounterSimulator: a Counter's simulator passes the game contract's
// tests when unlimited, and under a Next-call budget its playouts and moves,
// played from several goroutines at once, never spend more than the budget:
// the playout that reaches the limit fails with ErrBudget.
func TestCounterSimulator(t *testing.T) {
	m, err := searchtest.Game("ttt")
	if err != nil {
		t.Fatal(err)
	}
	gametest.Conform(t, search.NewCounter(context.Background(), m, search.Budget{}), 3, 12)
	const budget = 100
	c := search.NewCounter(context.Background(), m, search.Budget{NextCalls: budget})
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for g := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sim := c.NewSimulator()
			rng := game.NewRand(uint64(g))
			for {
				if err := sim.SetState(m.Initial()); err != nil {
					errs[g] = err
					return
				}
				if _, err := sim.Playout(rng, 0); err != nil {
					errs[g] = err
					return
				}
			}
		}()
	}
	wg.Wait()
	for g, err := range errs {
		if !errors.Is(err, search.ErrBudget) {
			t.Errorf("goroutine %d stopped with %v, want ErrBudget", g, err)
		}
	}
	if used := c.Used().NextCalls; used != budget || c.Stopped() != search.StopNextCalls {
		t.Errorf("used %d Next calls (budget %d), stopped %q", used, budget, c.Stopped())
	}
	sim := c.NewSimulator()
	legal, _ := game.LegalAll(m, m.Initial())
	if err := sim.Play([]game.Move{legal[0][0], legal[1][0]}); !errors.Is(err, search.ErrBudget) {
		t.Errorf("Play after the budget: %v, want ErrBudget", err)
	}
}

// TestCounterBatches: a Counter's simulator passes a batch of playouts on
// to a simulator that runs batches (the same goals as the bare
// simulator's batch from the same seed), counting its joint moves; under a
// Next-call budget it plays the batch one metered playout at a time and
// stops at the budget.
func TestCounterBatches(t *testing.T) {
	flat, err := propnet.NewFlat(propnettest.Curated(t, "connectFour"))
	if err != nil {
		t.Fatal(err)
	}
	c := search.NewCounter(context.Background(), flat, search.Budget{})
	got, steps, err := game.Playouts(c.NewSimulator(), game.NewRand(7), 64, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, wantSteps, err := game.Playouts(game.NewSimulator(flat), game.NewRand(7), 64, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) || steps != wantSteps {
		t.Errorf("metered batch: %d steps, goals %v; the simulator's own: %d steps, %v", steps, got, wantSteps, want)
	}
	if used := c.Used().NextCalls; used != int64(steps) {
		t.Errorf("%d Next calls counted for a batch of %d steps", used, steps)
	}

	const budget = 100 // less than 64 Connect Four playouts take
	c = search.NewCounter(context.Background(), flat, search.Budget{NextCalls: budget})
	if _, _, err := game.Playouts(c.NewSimulator(), game.NewRand(7), 64, 0, nil); !errors.Is(err, search.ErrBudget) {
		t.Errorf("a batch past the budget: %v, want ErrBudget", err)
	}
	if used := c.Used().NextCalls; used != budget {
		t.Errorf("used %d Next calls, budget %d", used, budget)
	}
}

// TestDeadline: iterative deepening given 150 ms in a game it cannot solve
// in time answers within 50 ms of its deadline, whatever the evaluator.
func TestDeadline(t *testing.T) {
	m := playertest.Shared(t, "connectFour")
	const clock, slack = 150 * time.Millisecond, 50 * time.Millisecond
	for _, p := range []search.Player{
		&search.AlphaBeta{},
		&search.Deepening{Eval: heuristic.Mobility{Ahead: 2}},
		&search.AlphaBeta{Eval: heuristic.DepthCharges{Count: 20}},
	} {
		if err := p.Start(context.Background(), search.Setup{Machine: m, Seed: 1}); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		_, rep, err := p.Play(context.Background(), m.Initial(), search.Budget{Deadline: start.Add(clock)})
		took := time.Since(start)
		if err != nil || took > clock+slack || rep.Stopped != search.StopTime {
			t.Errorf("%s: took %v, %+v, %v", p.Name(), took, rep, err)
		}
		t.Logf("%s: depth %d in %v, %d nodes", p.Name(), rep.Depth, took.Round(time.Millisecond), rep.Used.Nodes)
	}
}

// TestFalseSummitDataset: on the curated falseSummit, minimax reading
// intermediate goals climbs onto the cornice (0) with a lookahead below 4
// and reaches the true summit (100) from 4 on, as its meta.json says.
func TestFalseSummitDataset(t *testing.T) {
	m := curated(t, "falseSummit", false)
	ctx := context.Background()
	for depth := 1; depth <= 6; depth++ {
		p := &search.Minimax{Depth: depth, Eval: heuristic.IntermediateGoal{}}
		if err := p.Start(ctx, search.Setup{Machine: m, Seed: 3}); err != nil {
			t.Fatal(err)
		}
		s := m.Initial()
		for {
			term, err := m.Terminal(s)
			if err != nil {
				t.Fatal(err)
			}
			if term {
				break
			}
			mv, _, err := p.Play(ctx, s, search.Budget{})
			if err != nil {
				t.Fatal(err)
			}
			if s, err = m.Next(s, []game.Move{mv}); err != nil {
				t.Fatal(err)
			}
		}
		want := 0
		if depth >= 4 {
			want = 100
		}
		if g, _ := m.Goal(s, 0); g != want {
			t.Errorf("depth %d: scored %d, want %d", depth, g, want)
		}
	}
}
