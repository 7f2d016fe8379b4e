// Package playertest holds the tests every search.Player runs: Conform,
// the player contract on searchtest's embedded games, and Shared, a game of
// the shared corpus or a skipped test.
package playertest

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"gdlab/engine/game"
	"gdlab/engine/prover"
	"gdlab/engine/search"
	"gdlab/engine/search/searchtest"
)

// Conform checks the contract of search.Player on the embedded games, with
// a fresh player from newPlayer for every match:
//
//   - every move is legal, in every seat, against random opponents;
//   - node and Next-call budgets are never exceeded, as seen both by the
//     player's report and by an independent count of the machine's calls;
//   - with a time budget, Play returns within 50 ms of the deadline;
//   - with the same seed and no time limit, a match is played the same way.
func Conform(t *testing.T, newPlayer func() search.Player) {
	t.Helper()
	for _, name := range []string{"nim", "nim3", "rps", "summit", "ttt"} {
		m, err := searchtest.Game(name)
		if err != nil {
			t.Fatal(err)
		}
		for seat := range m.Roles() {
			for _, b := range []search.Budget{{}, {Nodes: 3}, {NextCalls: 7}, {Nodes: 40, NextCalls: 50}} {
				first := playMatch(t, name, m, seat, newPlayer, b, 7)
				if b != (search.Budget{}) || seat > 0 {
					continue
				}
				if again := playMatch(t, name, m, seat, newPlayer, b, 7); !slices.Equal(first, again) {
					t.Errorf("%s: the same seed gave %v, then %v", name, first, again)
				}
			}
		}
	}
	checkDeadline(t, newPlayer)
}

// playMatch plays one match with the player in seat and random opponents,
// checking every move and budget, and returns the moves the player made.
func playMatch(t *testing.T, name string, m game.Machine, seat int, newPlayer func() search.Player, b search.Budget, seed uint64) []string {
	t.Helper()
	ctx := context.Background()
	meter := search.NewCounter(ctx, m, search.Budget{})
	p := newPlayer()
	if err := p.Start(ctx, search.Setup{Machine: meter, Role: seat, Seed: seed}); err != nil {
		t.Fatalf("%s %s: Start: %v", name, p.Name(), err)
	}
	rng := game.NewRand(seed + 1)
	var mine []string
	s := m.Initial()
	for step := 0; step < 100; step++ {
		if term, _ := m.Terminal(s); term {
			return mine
		}
		legal, err := game.LegalAll(m, s)
		if err != nil {
			t.Fatal(err)
		}
		joint := make([]game.Move, len(legal))
		for r, ms := range legal {
			joint[r] = ms[rng.IntN(len(ms))]
		}
		before := meter.Used()
		mv, rep, err := p.Play(ctx, s, b)
		if err != nil {
			t.Fatalf("%s %s seat %d budget %+v: Play: %v", name, p.Name(), seat, b, err)
		}
		checkBudget(t, name, p.Name(), b, rep, meter.Used().NextCalls-before.NextCalls)
		if !slices.Contains(legal[seat], mv) {
			t.Fatalf("%s %s: illegal move %s", name, p.Name(), m.MoveText(seat, mv))
		}
		mine = append(mine, m.MoveText(seat, mv))
		joint[seat] = mv
		if s, err = m.Next(s, joint); err != nil {
			t.Fatal(err)
		}
	}
	return mine
}

// checkBudget fails the test when a move spent more than its budget.
func checkBudget(t *testing.T, name, player string, b search.Budget, rep search.Report, seen int64) {
	t.Helper()
	if b.Nodes > 0 && rep.Used.Nodes > b.Nodes {
		t.Errorf("%s %s: %d nodes expanded with a budget of %d", name, player, rep.Used.Nodes, b.Nodes)
	}
	if b.NextCalls > 0 && (rep.Used.NextCalls > b.NextCalls || seen > b.NextCalls) {
		t.Errorf("%s %s: %d Next calls (reported %d) with a budget of %d", name, player, seen, rep.Used.NextCalls, b.NextCalls)
	}
	if rep.Used.NextCalls > seen {
		t.Errorf("%s %s: reports %d Next calls but made %d", name, player, rep.Used.NextCalls, seen)
	}
}

// checkDeadline gives the player 20 ms per move in tic-tac-toe and requires
// a move within 50 ms of that. A loaded machine can stall any process for
// longer, so an overrun is tried again, up to three times: a player that
// ignores its clock overruns every time.
func checkDeadline(t *testing.T, newPlayer func() search.Player) {
	t.Helper()
	m, err := searchtest.Game("ttt")
	if err != nil {
		t.Fatal(err)
	}
	const clock, slack = 20 * time.Millisecond, 50 * time.Millisecond
	var took []time.Duration
	for range 3 {
		p := newPlayer()
		ctx := context.Background()
		if err := p.Start(ctx, search.Setup{Machine: m, Role: 0, Seed: 3}); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		if _, _, err := p.Play(ctx, m.Initial(), search.Budget{Time: clock}); err != nil {
			t.Fatalf("%s: %v", p.Name(), err)
		}
		if d := time.Since(start); d > clock+slack {
			took = append(took, d)
			continue
		}
		return
	}
	t.Errorf("%s: took %v in three tries with a %v clock", newPlayer().Name(), took, clock)
}

// Shared loads a game of the shared corpus by key, or skips the test when
// the corpus is absent ($GDLAB_SHARED, else ../../../shared from the test's
// package directory, else ../../../../shared).
func Shared(t testing.TB, key string) game.Machine {
	t.Helper()
	dir := searchtest.SharedDir()
	if dir == "" {
		t.Skipf("shared corpus not found (set GDLAB_SHARED): skipping")
	}
	m, err := prover.Load(filepath.Join(dir, "games", key, key+".kif"))
	if err != nil {
		t.Fatalf("%s: %v", key, err)
	}
	return m
}
