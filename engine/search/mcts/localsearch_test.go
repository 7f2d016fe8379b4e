package mcts

import (
	"context"
	"testing"
	"time"

	"gdlab/engine/game"
	"gdlab/engine/propnet/propnettest"
	"gdlab/engine/search"
	"gdlab/engine/search/local"
)

// TestLocalSearchSwitch checks that selection follows the local-search
// hints attached to the root. The position has two winning moves and one
// losing move; the root's hint is the complete local result, published
// before the search, so the tree work is reproducible whatever the worker
// does meanwhile (its shallower results for the root merge into the hint
// and cannot take a proved move away). Over ten seeds at 50 iterations
// the boosted player must always choose a local win and must visit the
// losing move less often than the plain player.
func TestLocalSearchSwitch(t *testing.T) {
	net := propnettest.Curated(t, "breakthroughSmall")
	var e local.Endgame
	for _, x := range local.Endgames() {
		if x.Name == "guarded runner in 3" {
			e = x
		}
	}
	st, err := e.State(net)
	if err != nil {
		t.Fatal(err)
	}
	seed, err := net.ParseMove(e.SeedRole, e.Seed)
	if err != nil {
		t.Fatal(err)
	}
	role := game.RoleIndex(net, e.ToMove)
	tg := target{state: st, seedRole: e.SeedRole, seed: seed}
	var want *local.Result // the complete local result at the root
	lossVisits := [2]int64{}
	for sd := uint64(1); sd <= 10; sd++ {
		for i, on := range []bool{true, false} {
			p := New(Options{LocalSearch: on, Iterations: 50, LocalRetarget: time.Hour})
			if err := p.Start(context.Background(), search.Setup{Machine: net, Role: role, Seed: sd}); err != nil {
				t.Fatal(err)
			}
			if on {
				want = primeHint(t, p, tg)
			}
			mv, _, err := p.Play(context.Background(), st, search.Budget{Time: time.Minute})
			if err != nil {
				t.Fatal(err)
			}
			if on {
				if st := statusOf(want, mv); st != local.Win {
					t.Errorf("seed %d: boosted player chose %s, a local %v", sd, net.MoveText(role, mv), st)
				}
			}
			for _, ms := range p.Root(role) {
				if statusOf(want, ms.Move) == local.Loss {
					lossVisits[i] += ms.Visits
				}
			}
		}
	}
	if lossVisits[0] >= lossVisits[1] {
		t.Errorf("losing move visited %d times with the switch on, %d with it off", lossVisits[0], lossVisits[1])
	}
}

// primeHint runs the player's local searcher on tg to completion and
// publishes the result, as the worker would when it finishes.
func primeHint(t *testing.T, p *Player, tg target) *local.Result {
	t.Helper()
	f := p.t.ls
	f.cur = tg
	res, err := f.ls.Search(context.Background(), tg.state, tg.seedRole, tg.seed, search.Budget{})
	if err != nil {
		t.Fatal(err)
	}
	f.publish(tg, res)
	return res
}

// statusOf returns the local status of mv in res.
func statusOf(res *local.Result, mv game.Move) local.Status {
	for _, m := range res.Moves {
		if m.Move == mv {
			return m.Status
		}
	}
	return local.Unknown
}

// TestLocalHintsArriveByDepth checks that the worker publishes each
// iteration as it completes: with a target given twenty seconds, on a midgame position
// that does not resolve soon, hints must appear within two seconds while
// the search is still running.
func TestLocalHintsArriveByDepth(t *testing.T) {
	net := propnettest.Curated(t, "breakthrough")
	f, err := newFeeder(context.Background(), net, nil, 20*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	st := net.Initial()
	rng := game.NewRand(3)
	for i := 0; i < 16; i++ {
		joint := make([]game.Move, 2)
		for r := range joint {
			ms, _ := net.Legal(st, r, nil)
			joint[r] = ms[rng.IntN(len(ms))]
		}
		if st, err = net.Next(st, joint); err != nil {
			t.Fatal(err)
		}
	}
	f.start(context.Background())
	defer f.stop()
	f.retarget([]target{{state: st, seedRole: 1, seed: game.NoMove}})
	deadline := time.Now().Add(2 * time.Second)
	for time.Now().Before(deadline) {
		if h := f.lookup(st); h != nil {
			if f.searches.Load() != 0 {
				t.Fatal("the search ended early: the position no longer tests progress")
			}
			if st := h.Result.Stats; st.WinDepth+st.LossDepth < 1 || len(h.Result.Moves) != len(h.status) {
				t.Errorf("hint after no iteration (depths %d/%d) or with %d moves, %d statuses", st.WinDepth, st.LossDepth, len(h.Result.Moves), len(h.status))
			}
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Error("no hint within 2s of a 20s search")
}

// TestLocalSearchNoJobAfterStop checks that a search that ends at once
// (its context already done, as when a play arrives past its deadline, or
// its root already solved) leaves no local search behind: the worker gets
// no job, so the search's stop does not wait for one. Before, the search
// re-targeted the worker before checking whether to stop, and the job the
// worker took after the stop ran on its own clock for up to a
// re-targeting interval (a second) while Play waited for it.
func TestLocalSearchNoJobAfterStop(t *testing.T) {
	net := propnettest.Curated(t, "breakthroughSmall")
	p := New(Options{LocalSearch: true})
	if err := p.Start(context.Background(), search.Setup{Machine: net, Role: 0, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	stop, err := p.Search(ctx, net.Initial(), search.Budget{Time: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	if stop != search.StopCancelled {
		t.Errorf("stopped by %v, want %v", stop, search.StopCancelled)
	}
	if n, h := p.LocalSearches(), len(p.LocalHints()); n != 0 || h != 0 {
		t.Errorf("a search cancelled before it began ran %d local searches and published %d hints", n, h)
	}
}

// TestLocalWorkerSkipsPendingAfterStop checks the worst interleaving of a
// search's stop and its worker, driven in order: a request is pending in
// the channel, the search stops (its context ends, the channel closes),
// and only then does the worker run. A closed channel still delivers the
// pending request; the worker must not search it, since the search's stop
// is waiting for the worker.
func TestLocalWorkerSkipsPendingAfterStop(t *testing.T) {
	net := propnettest.Curated(t, "breakthroughSmall")
	f, err := newFeeder(context.Background(), net, nil, 100*time.Millisecond) // short, should it run
	if err != nil {
		t.Fatal(err)
	}
	st := net.Initial()
	ctx, cancel := context.WithCancel(context.Background())
	f.reqs = make(chan []target, 1)
	f.retarget([]target{{state: st, seedRole: 1, seed: game.NoMove}})
	cancel()
	close(f.reqs)
	f.wg.Add(1)
	f.work(ctx, f.reqs)
	if n, h := f.searches.Load(), f.lookup(st); n != 0 || h != nil {
		t.Errorf("the worker searched a request taken after the stop: %d searches, hint %v", n, h != nil)
	}
}
