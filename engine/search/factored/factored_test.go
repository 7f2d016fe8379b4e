package factored

import (
	"context"
	"math"
	"strings"
	"testing"

	"gdlab/engine/analysis/factor"
	"gdlab/engine/game"
	"gdlab/engine/game/gametest"
	"gdlab/engine/propnet/propnettest"
	"gdlab/engine/prover"
	"gdlab/engine/search"
	"gdlab/engine/search/mcts"
)

// start starts a player on m for role with seed.
func start(t testing.TB, p search.Player, m game.Machine, role int, seed uint64) {
	t.Helper()
	if err := p.Start(context.Background(), search.Setup{Machine: m, Role: role, Seed: seed}); err != nil {
		t.Fatal(err)
	}
}

// TestFactorsFound: the test games factor as their comments say, and the
// player says so.
func TestFactorsFound(t *testing.T) {
	for _, c := range []struct {
		game     string
		factored bool
	}{{"twinlights", true}, {"twinnim", true}, {"coupledlights", false}} {
		p := New(Options{MCTS: mcts.Options{Iterations: 50}})
		start(t, p, propnettest.Load(t, "testdata/"+c.game+".kif"), 0, 1)
		t.Logf("%s: %s", c.game, p.Prepared())
		if p.Factored() != c.factored {
			t.Errorf("%s: Factored() = %v, want %v", c.game, p.Factored(), c.factored)
		}
	}
}

// TestJointMovesOnly: on pairedlights the analysis finds two factors, but
// every move of the robot is a joint move of both, so no factor can be
// searched apart and the player searches the whole game, saying why and
// reporting that search's statistics.
func TestJointMovesOnly(t *testing.T) {
	net := propnettest.Load(t, "testdata/pairedlights.kif")
	an, err := factor.Analyze(context.Background(), net, factor.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !an.Factored() || len(an.Joint) != 9 {
		t.Fatalf("analysis: factored %v, %d joint moves; want two factors and 9 joint moves:\n%s", an.Factored(), len(an.Joint), strings.Join(an.Explain(), "\n"))
	}
	p := New(Options{Analysis: an, MCTS: mcts.Options{Iterations: 50}})
	start(t, p, net, 0, 1)
	if p.Factored() || !strings.Contains(p.Prepared(), "moves of its own") {
		t.Errorf("Factored() = %v (%s); want the whole game searched, for want of moves of its own", p.Factored(), p.Prepared())
	}
	// The whole game's search reports its statistics as the factors' do.
	_, rep, err := p.Play(context.Background(), net.Initial(), search.Budget{})
	if err != nil {
		t.Fatal(err)
	}
	st := p.LastStats()
	if st.Factored || st.Chosen != -1 || st.Iterations <= 0 || st.Iterations > 50 || st.Nodes != rep.Used.Nodes || st.Nodes == 0 || st.Solved != rep.Complete {
		t.Errorf("unfactored stats %+v, report %+v: want its iterations (at most 50) and the report's nodes and exactness", st, rep)
	}
}

// TestMovesLegal plays whole matches, the factored player in every seat
// against itself, on a network and on the prover (whose moves the player
// must carry over by their text), and checks every move against the real
// game's legal moves.
func TestMovesLegal(t *testing.T) {
	pr, err := prover.Load("testdata/twinnim.kif")
	if err != nil {
		t.Fatal(err)
	}
	for name, m := range map[string]game.Machine{
		"twinlights": propnettest.Load(t, "testdata/twinlights.kif"),
		"twinnim":    propnettest.Load(t, "testdata/twinnim.kif"),
		"prover":     pr,
	} {
		for seed := uint64(1); seed <= 3; seed++ {
			playChecked(t, name, m, seed, Options{MCTS: mcts.Options{Iterations: 200}}, search.Budget{})
		}
	}
}

// playChecked plays one match of factored players with opt, each move
// within b, and checks each move.
func playChecked(t *testing.T, name string, m game.Machine, seed uint64, opt Options, b search.Budget) {
	t.Helper()
	ctx := context.Background()
	players := make([]*Player, len(m.Roles()))
	for r := range players {
		players[r] = New(opt)
		start(t, players[r], m, r, seed+uint64(r))
	}
	s := m.Initial()
	for step := 0; step < 50; step++ {
		if term, _ := m.Terminal(s); term {
			return
		}
		joint := make([]game.Move, len(players))
		for r, p := range players {
			mv, _, err := p.Play(ctx, s, b)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			legal, _ := m.Legal(s, r, nil)
			if !contains(legal, mv) {
				t.Fatalf("%s seed %d step %d: role %d played %s, not legal", name, seed, step, r, m.MoveText(r, mv))
			}
			joint[r] = mv
		}
		var err error
		if s, err = m.Next(s, joint); err != nil {
			t.Fatal(err)
		}
	}
	t.Errorf("%s: no end after 50 steps", name)
}

func contains(ms []game.Move, m game.Move) bool {
	for _, x := range ms {
		if x == m {
			return true
		}
	}
	return false
}

// TestSolvesFaster: on twinlights, the factored player proves a winning
// line in fewer iterations, all its factors' searches together, than
// plain MCTS needs to solve the whole game's root, for every seed tried.
func TestSolvesFaster(t *testing.T) {
	net := propnettest.Load(t, "testdata/twinlights.kif")
	ctx := context.Background()
	for seed := uint64(1); seed <= 5; seed++ {
		f := New(Options{MCTS: mcts.Options{Iterations: 200000}})
		start(t, f, net, 0, seed)
		if _, _, err := f.Play(ctx, net.Initial(), search.Budget{}); err != nil {
			t.Fatal(err)
		}
		fs := f.LastStats()
		plain := mcts.New(mcts.Options{Iterations: 200000})
		start(t, plain, net, 0, seed)
		if _, _, err := plain.Play(ctx, net.Initial(), search.Budget{}); err != nil {
			t.Fatal(err)
		}
		ps := plain.LastStats()
		t.Logf("seed %d: factored %d iterations (solved %v, values %v), plain %d (solved %v)", seed, fs.Iterations, fs.Solved, fs.Values, ps.Iterations, ps.RootSolved)
		if !fs.Solved || !ps.RootSolved || fs.Iterations >= ps.Iterations {
			t.Errorf("seed %d: factored %d iterations (solved %v), plain %d (solved %v)", seed, fs.Iterations, fs.Solved, ps.Iterations, ps.RootSolved)
		}
	}
}

// TestSolvesPuzzle: played out with a small budget per move, the factored
// player lights a board.
func TestSolvesPuzzle(t *testing.T) {
	net := propnettest.Load(t, "testdata/twinlights.kif")
	for seed := uint64(1); seed <= 3; seed++ {
		p := New(Options{MCTS: mcts.Options{Iterations: 300}})
		start(t, p, net, 0, seed)
		s := net.Initial()
		for term := false; !term; term, _ = net.Terminal(s) {
			mv, _, err := p.Play(context.Background(), s, search.Budget{})
			if err != nil {
				t.Fatal(err)
			}
			if s, err = net.Next(s, []game.Move{mv}); err != nil {
				t.Fatal(err)
			}
		}
		if g, _ := net.Goal(s, 0); g != 100 {
			t.Errorf("seed %d: goal %d, want 100", seed, g)
		}
	}
}

// TestUnfactoredIsPlainMCTS: where the game does not factor, and where the
// switch is off, the player's moves and reports are plain MCTS's for the
// same seed.
func TestUnfactoredIsPlainMCTS(t *testing.T) {
	opt := mcts.Options{Iterations: 300}
	playsAsPlain(t, Options{MCTS: opt}, func() search.Player { return mcts.New(opt) }, search.Budget{})
}

// playsAsPlain plays coupledlights (which does not factor) and twinlights
// with the switch off, the player with opt against the plain player
// newPlain gives, move for move from the same seed, and requires the same
// moves and reports.
func playsAsPlain(t *testing.T, opt Options, newPlain func() search.Player, b search.Budget) {
	t.Helper()
	for _, c := range []struct {
		game       string
		unfactored bool
	}{{"coupledlights", false}, {"twinlights", true}} {
		net := propnettest.Load(t, "testdata/"+c.game+".kif")
		opt.Unfactored = c.unfactored
		f, plain := New(opt), newPlain()
		start(t, f, net, 0, 7)
		start(t, plain, net, 0, 7)
		s := net.Initial()
		for term := false; !term; term, _ = net.Terminal(s) {
			fm, frep, err := f.Play(context.Background(), s, b)
			if err != nil {
				t.Fatal(err)
			}
			pm, prep, err := plain.Play(context.Background(), s, b)
			if err != nil {
				t.Fatal(err)
			}
			if fm != pm || frep.Value != prep.Value || frep.Used.Nodes != prep.Used.Nodes || frep.Depth != prep.Depth {
				t.Fatalf("%s: factored player played %s (%+v), plain %s (%+v)", c.game, net.MoveText(0, fm), frep, net.MoveText(0, pm), prep)
			}
			if s, err = net.Next(s, []game.Move{fm}); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestTimeBudget: under a time budget shared among the factors, Play
// returns within the budget and a bit. Black moves with equal piles, a
// lost position, so that no search proves a win and ends the move early.
func TestTimeBudget(t *testing.T) {
	net := propnettest.Load(t, "testdata/twinnim.kif")
	p := New(Options{})
	start(t, p, net, 1, 3)
	s := gametest.Play(t, net, net.Initial(), []string{"(take a 1)", "noop"})
	b := search.Budget{Time: 100e6}
	mv, rep, err := p.Play(context.Background(), s, b)
	if err != nil || mv == game.NoMove {
		t.Fatal(mv, err)
	}
	if rep.Used.Time > 300e6 {
		t.Errorf("used %v of a %v budget", rep.Used.Time, b.Time)
	}
	if st := p.LastStats(); len(st.Factors) != 2 || st.Iterations == 0 {
		t.Errorf("stats %+v: want two factors searched", st)
	}
}

// TestStopsOnProvenWin: twinnim's opening (piles of 5 and 4, taking 1 or
// 2, whoever empties a pile wins) is a win for white. The first factor's
// search proves it (its subgame is exact, the lines after a round of
// passes played as the whole game), and the move ends there: no other
// factor can offer more than a proven win. The move is checked by
// minimax to the end. TestTimeBudget is the other side: from a lost
// position every factor is searched.
func TestStopsOnProvenWin(t *testing.T) {
	net := propnettest.Load(t, "testdata/twinnim.kif")
	for seed := uint64(1); seed <= 3; seed++ {
		p := New(Options{})
		start(t, p, net, 0, seed)
		mv, _, err := p.Play(context.Background(), net.Initial(), search.Budget{Time: 2e9})
		if err != nil {
			t.Fatal(err)
		}
		st := p.LastStats()
		if !st.Solved || len(st.Factors) != 1 || !math.IsInf(st.Gains[0], 1) {
			t.Fatalf("seed %d: stats %+v, want one factor searched, its win proven", seed, st)
		}
		next, err := net.Next(net.Initial(), []game.Move{mv, mustMove(t, net, 1, "noop")})
		if err != nil {
			t.Fatal(err)
		}
		// Minimax to the end of the game (nine tokens, at most nine moves).
		if v, _, err := search.MinimaxValue(context.Background(), net, next, 0, 20, nil, search.Budget{}); err != nil || v != 100 {
			t.Errorf("seed %d: %s is worth %v to white (%v), want a win", seed, net.MoveText(0, mv), v, err)
		}
	}
}

// mustMove parses role's move text.
func mustMove(t *testing.T, m game.Machine, role int, text string) game.Move {
	t.Helper()
	mv, err := m.ParseMove(role, text)
	if err != nil {
		t.Fatal(err)
	}
	return mv
}

// TestLatchSwitches: MCTS switches that analyse the network work in the
// factors' searches (the subgame gives its analyses the real game's
// network), and the player still solves the puzzle.
func TestLatchSwitches(t *testing.T) {
	net := propnettest.Load(t, "testdata/twinlights.kif")
	p := New(Options{MCTS: mcts.Options{Iterations: 20000}.AllLatches()})
	start(t, p, net, 0, 1)
	if !p.Factored() {
		t.Fatal("twinlights not searched on factors")
	}
	if _, _, err := p.Play(context.Background(), net.Initial(), search.Budget{}); err != nil {
		t.Fatal(err)
	}
	if st := p.LastStats(); !st.Solved {
		t.Errorf("not solved: %+v", st)
	}
}

// TestStartErrors: a setup without a machine or with a role out of range
// is refused, and Play before Start says so.
func TestStartErrors(t *testing.T) {
	net := propnettest.Load(t, "testdata/twinlights.kif")
	p := New(Options{})
	if _, _, err := p.Play(context.Background(), net.Initial(), search.Budget{}); err == nil {
		t.Error("Play before Start: no error")
	}
	for _, s := range []search.Setup{{}, {Machine: net, Role: 1}, {Machine: net, Role: -1}} {
		if err := p.Start(context.Background(), s); err == nil {
			t.Errorf("Start(%+v): no error", s)
		}
	}
}

// TestPerFactorIterations: the iterations are shared among the factors'
// searches, or given whole to each with PerFactor (too few for either
// search to solve its factor and stop early).
func TestPerFactorIterations(t *testing.T) {
	net := propnettest.Load(t, "testdata/twinnim.kif")
	for _, each := range []bool{false, true} {
		p := New(Options{MCTS: mcts.Options{Iterations: 10}, PerFactor: each})
		start(t, p, net, 0, 3)
		if _, _, err := p.Play(context.Background(), net.Initial(), search.Budget{}); err != nil {
			t.Fatal(err)
		}
		st := p.LastStats()
		want := int64(10)
		if each {
			want = 20
		}
		if len(st.Factors) != 2 || st.Iterations != want {
			t.Errorf("PerFactor %v: %d iterations over factors %v, want %d over two", each, st.Iterations, st.Factors, want)
		}
	}
}

// hidden is a machine analysis.Network cannot see through.
type hidden struct{ game.Machine }

// TestStartFallsBackToPlain: when the factoring cannot be prepared (the
// network cannot be read, or the start clock runs out), the match is
// played unfactored: Start succeeds, Prepared says why, and Play plays.
func TestStartFallsBackToPlain(t *testing.T) {
	net := propnettest.Load(t, corpusGame(t, "dualConnect4"))
	for _, c := range []struct {
		name  string
		setup search.Setup
	}{
		{"no network", search.Setup{Machine: hidden{net}, Seed: 1}},
		{"no start clock", search.Setup{Machine: net, Seed: 1, Budget: search.Budget{Time: 1}}},
	} {
		p := New(Options{})
		if err := p.Start(context.Background(), c.setup); err != nil {
			t.Fatalf("%s: Start: %v", c.name, err)
		}
		if p.Factored() || !strings.HasPrefix(p.Prepared(), "unfactored: ") {
			t.Errorf("%s: Factored %v, Prepared %q; want unfactored, and why", c.name, p.Factored(), p.Prepared())
		}
		mv, _, err := p.Play(context.Background(), net.Initial(), search.Budget{Nodes: 100})
		if err != nil || mv == game.NoMove {
			t.Errorf("%s: Play gave %v (%v)", c.name, mv, err)
		}
	}
}

// TestWholeGameFallbackBudget: when no factor offers a move (with
// alpha-beta, every factor's best is its pass: in twinnim with three
// tokens on each pile, every move loses), the whole game is searched
// with what the factors' searches left of a Node budget, and the move's
// report counts every search, as its statistics do.
func TestWholeGameFallbackBudget(t *testing.T) {
	net := propnettest.Load(t, "testdata/twinnim.kif")
	s := gametest.Play(t, net, net.Initial(), []string{"(take a 2)", "noop"}, []string{"noop", "(take b 1)"})
	const nodes = 40
	p := New(Options{AlphaBeta: &search.AlphaBeta{}})
	start(t, p, net, 0, 1)
	_, rep, err := p.Play(context.Background(), s, search.Budget{Nodes: nodes})
	if err != nil {
		t.Fatal(err)
	}
	st := p.LastStats()
	if st.Factored {
		t.Fatal("a factor offered a move: the test needs the whole game's fallback")
	}
	if rep.Used.Nodes != st.Nodes {
		t.Errorf("the report counts %d nodes, the statistics %d", rep.Used.Nodes, st.Nodes)
	}
	if st.Nodes > nodes {
		t.Errorf("%d nodes for a budget of %d", st.Nodes, nodes)
	}
}

// TestSaveReusesBuffer: a subgame simulator's Save into a buffer it
// filled before reuses the storage there, as the Simulator contract
// says: over the prover, whose generic simulator keeps saved states in
// slots, the slot is reused rather than a new one kept per Save.
func TestSaveReusesBuffer(t *testing.T) {
	pr, err := prover.Load("testdata/twinnim.kif")
	if err != nil {
		t.Fatal(err)
	}
	p := New(Options{MCTS: mcts.Options{Iterations: 10}})
	start(t, p, pr, 0, 1)
	sim := p.parts[0].sub.NewSimulator()
	buf := sim.Save(nil)
	first := buf[0]
	legal, err := sim.Legal(0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := sim.Play([]game.Move{legal[0], mustMove(t, pr, 1, "noop")}); err != nil {
		t.Fatal(err)
	}
	played := sim.State()
	if buf = sim.Save(buf); buf[0] != first {
		t.Errorf("a second Save into the buffer used slot %d, the first %d", buf[0], first)
	}
	if err := sim.SetState(pr.Initial()); err != nil {
		t.Fatal(err)
	}
	if err := sim.Restore(buf); err != nil || !sim.State().Equal(played) {
		t.Errorf("restored %v (%v), want %v", sim.State().Facts(), err, played.Facts())
	}
}
