package factored

import (
	"context"
	"testing"
	"time"

	"gdlab/engine/game"
	"gdlab/engine/game/gametest"
	"gdlab/engine/propnet/propnettest"
	"gdlab/engine/prover"
	"gdlab/engine/search"
	"gdlab/engine/search/mcts"
	"gdlab/engine/search/playertest"
	"gdlab/engine/search/searchtest"
)

// TestAlphaBetaProvesFaster: on puzzles of two to four independent
// boards, factored alpha-beta proves the win at the start in fewer nodes,
// all its factors' searches together, than unfactored alpha-beta spends
// proving the root's value (or than it fails to prove it in, where it
// needs too many for a test); played out, where that is quick, the
// factored player reaches goal 100.
func TestAlphaBetaProvesFaster(t *testing.T) {
	for _, c := range []struct {
		game    string
		corpus  bool // a game of the shared corpus, not of testdata
		playOut bool // the turtles take some sixty moves, each proved anew
	}{
		{"twinlights", false, true},
		{"lightsOnParallel", true, true},
		{"factoringEasyTurtleBrain", true, false},
	} {
		t.Run(c.game, func(t *testing.T) {
			path := "testdata/" + c.game + ".kif"
			if c.corpus {
				path = corpusGame(t, c.game)
			}
			provesFaster(t, propnettest.Load(t, path), c.playOut)
		})
	}
}

// provesFaster checks factored alpha-beta against unfactored on puzzle m
// for TestAlphaBetaProvesFaster.
func provesFaster(t *testing.T, m game.Machine, playToEnd bool) {
	t.Helper()
	f := New(Options{AlphaBeta: &search.AlphaBeta{}})
	start(t, f, m, 0, 1)
	if _, _, err := f.Play(context.Background(), m.Initial(), search.Budget{Nodes: 400000}); err != nil {
		t.Fatal(err)
	}
	fs := f.LastStats()
	if !fs.Solved || fs.Chosen < 0 || fs.Values[len(fs.Values)-1] != 100 || fs.Nodes == 0 {
		t.Fatalf("factored alpha-beta did not prove the win: %+v", fs)
	}
	// Unfactored alpha-beta gets the factored nodes, or 20,000 when that
	// is more, so that it shows what it needs where it proves the root in
	// that: to prove the corpus's turtle puzzle it needs over two million,
	// too many for a test.
	u := &search.AlphaBeta{}
	start(t, u, m, 0, 1)
	_, urep, err := u.Play(context.Background(), m.Initial(), search.Budget{Nodes: max(fs.Nodes, 20000)})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("factored %d nodes (values %v, depth %d), unfactored %d nodes (value %v, depth %d, complete %v)",
		fs.Nodes, fs.Values, fs.Reports[len(fs.Reports)-1].Depth, urep.Used.Nodes, urep.Value, urep.Depth, urep.Complete)
	if urep.Complete && urep.Used.Nodes <= fs.Nodes {
		t.Errorf("unfactored alpha-beta proved the root in %d nodes, factored %d", urep.Used.Nodes, fs.Nodes)
	}
	if playToEnd {
		if g := playOut(t, m, f); g != 100 {
			t.Errorf("factored alpha-beta played out to goal %d, want 100", g)
		}
	}
}

// playOut plays p, already started, to the end of a one-player game and
// returns the goal reached.
func playOut(t *testing.T, m game.Machine, p search.Player) int {
	t.Helper()
	s := m.Initial()
	for term := false; !term; term, _ = m.Terminal(s) {
		mv, _, err := p.Play(context.Background(), s, search.Budget{Nodes: 400000})
		if err != nil {
			t.Fatal(err)
		}
		if s, err = m.Next(s, []game.Move{mv}); err != nil {
			t.Fatal(err)
		}
	}
	g, err := m.Goal(s, 0)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestAlphaBetaMovesLegal plays seeded matches of factored alpha-beta
// against itself at a small node budget, on twinnim's network and prover
// and on a few steps of the corpus's dualConnect4, and checks every move
// against the real game's legal moves.
func TestAlphaBetaMovesLegal(t *testing.T) {
	opt, b := Options{AlphaBeta: &search.AlphaBeta{}}, search.Budget{Nodes: 50}
	pr, err := prover.Load("testdata/twinnim.kif")
	if err != nil {
		t.Fatal(err)
	}
	for name, m := range map[string]game.Machine{"twinnim": propnettest.Load(t, "testdata/twinnim.kif"), "prover": pr} {
		for seed := uint64(1); seed <= 3; seed++ {
			playChecked(t, name, m, seed, opt, b)
		}
	}
	net := propnettest.Load(t, corpusGame(t, "dualConnect4"))
	players := make([]*Player, len(net.Roles()))
	for seed := uint64(1); seed <= 2; seed++ {
		for r := range players {
			players[r] = New(opt)
			start(t, players[r], net, r, seed+uint64(r))
			if !players[r].Factored() {
				t.Fatalf("dualConnect4 role %d: %s", r, players[r].Prepared())
			}
		}
		playSteps(t, net, players, 8, b)
	}
}

// TestOneMoveValued: in twinnim with one token left on pile a, white's
// only move in that factor is to take it and win; both searchers value
// that move (Play would return it without a value) and play it.
func TestOneMoveValued(t *testing.T) {
	net := propnettest.Load(t, "testdata/twinnim.kif")
	s := gametest.Play(t, net, net.Initial(), []string{"(take a 2)", "noop"}, []string{"noop", "(take a 2)"})
	win, err := net.ParseMove(0, "(take a 1)")
	if err != nil {
		t.Fatal(err)
	}
	for name, opt := range map[string]Options{
		"mcts":      {MCTS: mcts.Options{Iterations: 2000}},
		"alphabeta": {AlphaBeta: &search.AlphaBeta{}},
	} {
		p := New(opt)
		start(t, p, net, 0, 1)
		mv, _, err := p.Play(context.Background(), s, search.Budget{Nodes: 20000})
		if err != nil {
			t.Fatal(err)
		}
		st := p.LastStats()
		t.Logf("%s: played %s, factors %v, values %v", name, net.MoveText(0, mv), st.Factors, st.Values)
		valued := false
		for i, pt := range p.parts {
			// Alpha-beta sees the whole game below that move: its value
			// must be exact.
			valued = valued || pt.sub.allow[0].has(win) && i < len(st.Values) && st.Values[i] >= 0 &&
				(opt.AlphaBeta == nil || st.Reports[i].Complete)
		}
		if !valued {
			t.Errorf("%s: the factor with one move got no value: %+v", name, st)
		}
		if mv != win {
			t.Errorf("%s: played %s, want (take a 1)", name, net.MoveText(0, mv))
		}
	}
}

// TestValueOneBudget: alpha-beta's valuing of a lone move, which deepens
// AlphaBeta.ValueSolved, spends no more than its budget over all its
// depths, as its report and an independent count of Next calls show, and
// says which limit stopped it; and it stops at a proven win (coupledlights
// is won in three presses) with budget to spare.
func TestValueOneBudget(t *testing.T) {
	for _, c := range []struct {
		game string
		b    search.Budget
		won  bool
	}{
		{"twinlights", search.Budget{Nodes: 300}, false},
		{"twinlights", search.Budget{NextCalls: 3000}, false},
		{"coupledlights", search.Budget{Nodes: 20000}, true},
	} {
		net := propnettest.Load(t, "testdata/"+c.game+".kif")
		meter := search.NewCounter(context.Background(), net, search.Budget{})
		a := New(Options{AlphaBeta: &search.AlphaBeta{}}).newSearcher(1)
		start(t, a, meter, 0, 1)
		rep, err := a.valueOne(context.Background(), net.Initial(), c.b)
		if err != nil {
			t.Fatal(err)
		}
		seen := meter.Used().NextCalls
		t.Logf("%s, budget %+v: %+v, %d Next calls seen", c.game, c.b, rep, seen)
		switch {
		case c.won && (!rep.Complete || rep.Value != 100 || rep.Depth != 3 || rep.Stopped != search.StopNone):
			t.Errorf("%s: report %+v, want a proven win at depth 3", c.game, rep)
		case !c.won && (rep.Depth < 2 || rep.Value < 0 || rep.Complete || rep.Stopped == search.StopNone):
			t.Errorf("%s: report %+v, want a value of depth 2 or more, stopped by the budget", c.game, rep)
		}
		b := c.b
		if b.Nodes > 0 && rep.Used.Nodes > b.Nodes || b.NextCalls > 0 && (seen > b.NextCalls || rep.Used.NextCalls != seen) {
			t.Errorf("%s, budget %+v: used %+v, %d Next calls seen", c.game, b, rep.Used, seen)
		}
	}
}

// TestUnfactoredIsPlainAlphaBeta: where the game does not factor, and
// where the switch is off, the player's moves and reports are those of a
// plain search.AlphaBeta with the same options and seed.
func TestUnfactoredIsPlainAlphaBeta(t *testing.T) {
	ab := search.AlphaBeta{MaxDepth: 3, TableSize: 1 << 10}
	playsAsPlain(t, Options{AlphaBeta: &ab}, func() search.Player { cp := ab; return &cp }, search.Budget{Nodes: 500})
}

// TestAlphaBetaConform holds factored alpha-beta to the player contract
// on searchtest's games, of which summit factors and the others do not.
func TestAlphaBetaConform(t *testing.T) {
	for name, factored := range map[string]bool{"summit": true, "ttt": false} {
		m, err := searchtest.Game(name)
		if err != nil {
			t.Fatal(err)
		}
		p := New(Options{AlphaBeta: &search.AlphaBeta{}})
		start(t, p, m, 0, 1)
		if p.Factored() != factored {
			t.Fatalf("%s: %s", name, p.Prepared())
		}
	}
	playertest.Conform(t, func() search.Player { return New(Options{AlphaBeta: &search.AlphaBeta{}}) })
}

// TestAlphaBetaStops: on a factored puzzle that alpha-beta takes most of
// a second to prove, Play returns within its time budget and a bit, and
// soon after its context is cancelled mid-search, with a legal move both
// times.
func TestAlphaBetaStops(t *testing.T) {
	net := propnettest.Load(t, corpusGame(t, "factoringEasyTurtleBrain"))
	legal, err := net.Legal(net.Initial(), 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	const after = 20 * time.Millisecond
	for _, c := range []struct {
		b      search.Budget
		cancel bool // cancel the context after 20 ms
	}{{search.Budget{Time: 50 * time.Millisecond}, false}, {search.Budget{}, true}} {
		p := New(Options{AlphaBeta: &search.AlphaBeta{}})
		start(t, p, net, 0, 1)
		ctx, cancel := context.WithCancel(context.Background())
		if c.cancel {
			time.AfterFunc(after, cancel)
		}
		begin := time.Now()
		mv, rep, err := p.Play(ctx, net.Initial(), c.b)
		took := time.Since(begin)
		cancel()
		if err != nil || !contains(legal, mv) {
			t.Fatalf("budget %+v: move %v, error %v", c.b, mv, err)
		}
		// The slack allows for a loaded machine; proving the puzzle
		// takes over 500 ms.
		if limit := max(c.b.Time, after) + 150*time.Millisecond; took > limit {
			t.Errorf("budget %+v, cancel %v: took %v, want under %v", c.b, c.cancel, took, limit)
		}
		if c.cancel && rep.Stopped != search.StopCancelled {
			t.Errorf("cancelled: stopped %q", rep.Stopped)
		}
	}
}

// TestNames: the player's name says its search and whether it factors.
func TestNames(t *testing.T) {
	ab := &search.AlphaBeta{}
	for _, c := range []struct {
		opt  Options
		want string
	}{
		{Options{}, "mcts+factors"},
		{Options{Unfactored: true}, "mcts"},
		{Options{AlphaBeta: ab}, "alphabeta+factors"},
		{Options{AlphaBeta: ab, Unfactored: true}, "alphabeta"},
		{Options{AlphaBeta: ab, Name: "x"}, "x"},
	} {
		if got := New(c.opt).Name(); got != c.want {
			t.Errorf("Name() = %q, want %q", got, c.want)
		}
	}
}
