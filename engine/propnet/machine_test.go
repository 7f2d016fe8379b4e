package propnet_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"gdlab/datasets"
	"gdlab/engine/game"
	"gdlab/engine/game/gametest"
	"gdlab/engine/gdl"
	"gdlab/engine/propnet"
	"gdlab/engine/propnet/propnettest"
	"gdlab/engine/prover"
)

// TestConform runs the game contract's tests, the simulator's included,
// on the networks of curated games of every kind: alternating, simultaneous,
// three roles, one role.
func TestConform(t *testing.T) {
	for _, name := range []string{"ticTacToe", "connectFour", "breakthroughSmall", "threePlayerConnectFour",
		"dualConnectFour", "eightPuzzle", "reversiSmall", "dotsAndBoxes"} {
		t.Run(name, func(t *testing.T) { gametest.Conform(t, propnettest.Curated(t, name), 5, 80) })
	}
	t.Run("recursion", func(t *testing.T) { gametest.Conform(t, propnettest.Load(t, "testdata/reach.kif"), 5, 80) })
}

// TestRecursionAgainstProver plays random matches of a game whose ground
// rules are cyclic (a transitive closure that the player edits) with the
// propnet and the prover side by side.
func TestRecursionAgainstProver(t *testing.T) {
	net := propnettest.Load(t, "testdata/reach.kif")
	if net.Stats().Cycles == 0 {
		t.Fatal("no cycle was unrolled")
	}
	pr, err := prover.Load("testdata/reach.kif")
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(1); seed <= 200; seed++ {
		if _, dis := compareMatch(pr, net, seed, time.Now().Add(time.Minute)); dis != "" {
			t.Fatalf("seed %d: %s", seed, dis)
		}
	}
	for _, opt := range []propnet.Options{{NoOptimize: true}} {
		d, _ := gdl.ParseFile("testdata/reach.kif")
		raw, err := propnet.Build(context.Background(), d, opt)
		if err != nil {
			t.Fatal(err)
		}
		for seed := uint64(1); seed <= 50; seed++ {
			if _, dis := compareMatch(pr, raw, seed, time.Now().Add(time.Minute)); dis != "" {
				t.Fatalf("unoptimised, seed %d: %s", seed, dis)
			}
		}
	}
}

// TestStateIgnoresMoves plays rules whose legal and goal read does (not
// valid GDL): a state is read without moves, whatever was played into it.
func TestStateIgnoresMoves(t *testing.T) {
	net := propnettest.Load(t, "testdata/doeslegal.kif")
	s := net.Initial()
	for step, m := range []game.Move{0, 1, 0} { // n goes 0, 1, 2, 3
		ns, err := net.Next(s, []game.Move{m})
		if err != nil {
			t.Fatal(err)
		}
		legal, _ := net.Legal(ns, 0, nil)
		if g, _ := net.Goal(ns, 0); len(legal) != 2 || g != 0 {
			t.Fatalf("step %d after %d: legal %v goal %d", step, m, legal, g)
		}
		s = ns
	}
	sim := net.NewSim()
	if _, err := sim.Playout(game.NewRand(1), 0); err != nil {
		t.Fatal(err)
	}
	if g, _ := sim.Goal(0); g != 0 || sim.LegalCount(0) != 2 {
		t.Errorf("after a playout: goal %d, %d legal moves", g, sim.LegalCount(0))
	}
	if err := sim.SetMove(0, 5); err == nil {
		t.Error("SetMove accepted a move out of range")
	}
	if err := sim.SetMoves([]game.Move{0, 0}); err == nil {
		t.Error("SetMoves accepted a joint move of the wrong length")
	}
	if err := sim.SetState(propnettest.Load(t, "testdata/reach.kif").NewSim().State()); err == nil {
		t.Error("SetState accepted another network's state")
	}
}

// TestGoalsAndMoves checks the errors of undefined goals and unknown moves.
func TestGoalsAndMoves(t *testing.T) {
	net := propnettest.Load(t, "testdata/oddgoal.kif")
	s := net.Initial()
	if g, err := net.Goal(s, 0); err != nil || g != 0 {
		t.Errorf("goal in the initial state: %d, %v", g, err)
	}
	if _, err := net.ParseMove(0, "never"); !errors.Is(err, propnet.ErrUnknownMove) {
		t.Errorf("ParseMove(never): got %v, want ErrUnknownMove", err)
	}
	for _, bad := range []string{"(go", "?x", "(f ?x)"} {
		if _, err := net.ParseMove(0, bad); err == nil {
			t.Errorf("ParseMove(%q) succeeded", bad)
		}
	}
	if _, err := net.ParseMove(1, "go"); err == nil {
		t.Error("ParseMove for a role that does not exist succeeded")
	}
	if _, err := net.Next(s, []game.Move{7}); err == nil {
		t.Error("Next with an out-of-range move succeeded")
	}
	m, err := net.ParseMove(0, "go")
	if err != nil {
		t.Fatal(err)
	}
	s, err = net.Next(s, []game.Move{m})
	if err != nil {
		t.Fatal(err)
	}
	if term, _ := net.Terminal(s); !term {
		t.Error("not terminal after go")
	}
	if _, err := net.Goal(s, 0); err == nil || !strings.Contains(err.Error(), `"high"`) {
		t.Errorf("goal high: got %v, want a not-an-integer error", err)
	}
	if _, err := net.Goal(s, 0); errors.Is(err, game.ErrNoGoal) {
		t.Error("a non-integer goal reported as no goal")
	}
}

// TestPerftTicTacToe counts every complete game of tic-tac-toe.
func TestPerftTicTacToe(t *testing.T) {
	net := propnettest.Load(t, kifPath(sharedDir(t), "ticTacToe"))
	levels, err := game.Perft(context.Background(), net, net.Initial(), 9)
	if err != nil {
		t.Fatal(err)
	}
	var games int64
	for _, l := range levels {
		games += l.Terminals
	}
	if games != 255168 {
		t.Errorf("%d complete games, want 255168", games)
	}
}

// TestPlayoutAllocatesNothing checks the fast path's promise.
func TestPlayoutAllocatesNothing(t *testing.T) {
	net := propnettest.Load(t, kifPath(sharedDir(t), "breakthroughSmall"))
	sim := net.NewSim()
	rng := game.NewRand(3)
	goals := make([]int, 0, 2)
	allocs := testing.AllocsPerRun(100, func() {
		sim.Reset()
		if _, err := sim.Playout(rng, 0); err != nil {
			t.Fatal(err)
		}
		goals, _ = sim.Goals(goals)
	})
	if allocs != 0 {
		t.Errorf("%v allocations per playout", allocs)
	}
}

// TestResetAfterPlayouts checks that Reset brings a used simulator back to
// exactly the initial state, by both of its ways: copying (ticTacToe's
// small network) and propagating back (reversi's large one). After each
// reset the used simulator and a fresh one play the same seeded match and
// must agree at every step. (Their playouts may differ: the order of a
// legal list depends on a simulator's history.)
func TestResetAfterPlayouts(t *testing.T) {
	for _, key := range []string{"ticTacToe", "reversi"} {
		t.Run(key, func(t *testing.T) {
			net := propnettest.Load(t, kifPath(sharedDir(t), key))
			used := net.NewSim()
			for seed := uint64(1); seed <= 10; seed++ {
				used.Reset()
				if _, err := used.Playout(game.NewRand(seed+100), 0); err != nil {
					t.Fatal(err)
				}
				used.Reset()
				sameMatch(t, net, used, net.NewSim(), game.NewRand(seed))
			}
		})
	}
}

// sameMatch plays a random match on a and b at once, and fails at the
// first step where their states, legal moves, terminal flags or goals
// differ.
func sameMatch(t *testing.T, net *propnet.Net, a, b *propnet.Sim, rng *rand.Rand) {
	t.Helper()
	joint := make([]game.Move, len(net.Roles()))
	for step := 0; ; step++ {
		if !a.State().Equal(b.State()) || must(a.Terminal()) != must(b.Terminal()) {
			t.Fatalf("step %d: states differ", step)
		}
		if must(a.Terminal()) {
			if ga, gb := must(a.Goals(nil)), must(b.Goals(nil)); !slices.Equal(ga, gb) {
				t.Fatalf("step %d: goals %v and %v", step, ga, gb)
			}
			return
		}
		for r := range joint {
			la, lb := must(a.Legal(r, nil)), must(b.Legal(r, nil))
			if !slices.Equal(la, lb) {
				t.Fatalf("step %d: role %d's legal moves %v and %v", step, r, la, lb)
			}
			joint[r] = la[rng.IntN(len(la))]
		}
		if err := a.Play(joint); err != nil {
			t.Fatal(err)
		}
		if err := b.Play(joint); err != nil {
			t.Fatal(err)
		}
	}
}

// TestConcurrentUse runs the Machine and simulators from many goroutines at
// once (run with -race), and checks that they agree with one another.
func TestConcurrentUse(t *testing.T) {
	net := propnettest.Load(t, kifPath(sharedDir(t), "connectFour"))
	want, err := game.Playout(context.Background(), net, net.Initial(), game.NewRand(9), 0)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 20; i++ {
				got, err := game.Playout(context.Background(), net, net.Initial(), game.NewRand(9), 0)
				if err != nil || !got.Final.Equal(want.Final) || !slices.Equal(got.Goals, want.Goals) {
					t.Errorf("playout differs: %v %v", got.Goals, err)
					return
				}
				sim := net.NewSim()
				if _, err := sim.Playout(game.NewRand(uint64(i)), 0); err != nil {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
}

// TestSimAgreesWithMachine plays the same random moves through a Sim and
// through the Machine methods.
func TestSimAgreesWithMachine(t *testing.T) {
	net := propnettest.Load(t, kifPath(sharedDir(t), "reversi"))
	sim := net.NewSim()
	rng := game.NewRand(5)
	s := net.Initial()
	for step := 0; step < 200; step++ {
		if !sim.State().Equal(s) {
			t.Fatalf("step %d: states differ", step)
		}
		term, _ := net.Terminal(s)
		if term != must(sim.Terminal()) {
			t.Fatalf("step %d: terminal differs", step)
		}
		if term {
			if gs := game.Goals(net, s); !slices.Equal(gs, must(sim.Goals(nil))) {
				t.Fatalf("goals differ: %v %v", gs, must(sim.Goals(nil)))
			}
			return
		}
		joint := make([]game.Move, 2)
		for r := range joint {
			legal, _ := net.Legal(s, r, nil)
			if !slices.Equal(legal, must(sim.Legal(r, nil))) || len(legal) != sim.LegalCount(r) {
				t.Fatalf("step %d: legal moves differ", step)
			}
			joint[r] = legal[rng.IntN(len(legal))]
			if !sim.IsLegal(r, joint[r]) {
				t.Fatalf("step %d: IsLegal false for a legal move", step)
			}
		}
		s, _ = net.Next(s, joint)
		sim.Play(joint)
	}
}

// TestBuildCancels stops a build promptly when its context is cancelled.
func TestBuildCancels(t *testing.T) {
	d, err := gdl.ParseFile(kifPath(sharedDir(t), "chess_200"))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = propnet.Build(ctx, d, propnet.Options{})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("got %v, want the context's error", err)
	}
	if el := time.Since(start); el > time.Second {
		t.Errorf("took %v to stop", el)
	}
}

// TestIntrospection checks the researcher-facing views on tic-tac-toe.
func TestIntrospection(t *testing.T) {
	net := propnettest.Load(t, kifPath(sharedDir(t), "ticTacToe"))
	st := net.Stats()
	if st.Raw.Ands == 0 || st.Optimized.Links == 0 || st.Optimized.Links > st.Raw.Links || st.StateBytes != 8 {
		t.Errorf("stats %+v", st)
	}
	bases := net.BaseProps()
	if len(bases) != 29 || !slices.IsSorted(bases) || bases[0] != "(cell 1 1 b)" {
		t.Errorf("base propositions %v", bases)
	}
	if moves := net.InputProps(0); len(moves) != 10 || moves[9] != "noop" {
		t.Errorf("input propositions %v", moves)
	}
	sup, err := net.Support(propnet.Output{Kind: propnet.Terminal})
	if err != nil {
		t.Fatal(err)
	}
	if len(sup.Bases) != 27 { // every cell's x, o and b; not control
		t.Errorf("terminal depends on %d base propositions: %v", len(sup.Bases), sup.Bases)
	}
	nx, _ := net.Support(propnet.Output{Kind: propnet.Next, Index: 2}) // (cell 1 1 x)
	if len(nx.Inputs[0]) == 0 {
		t.Errorf("next (cell 1 1 x) depends on no move of xplayer: %+v", nx)
	}
	if _, err := net.Support(propnet.Output{Kind: propnet.Legal, Role: 5}); err == nil {
		t.Error("Support of a legal output of no role succeeded")
	}
	var b strings.Builder
	if err := net.WriteDOT(&b, 0); err != nil {
		t.Fatal(err)
	}
	if dot := b.String(); !strings.HasPrefix(dot, "digraph") || !strings.Contains(dot, `"(true (cell 1 1 b))"`) || !strings.Contains(dot, "terminal") {
		t.Errorf("DOT output:\n%.400s", dot)
	}
	if err := net.WriteDOT(&b, 10); err == nil {
		t.Error("WriteDOT drew a network larger than its bound")
	}
}

// TestEagerGoals builds reversiSmall, whose goals count discs through a
// large circuit, with and without lazy goal gates, and plays random
// matches of the eager network against the prover, goals compared at
// every step.
func TestEagerGoals(t *testing.T) {
	g, err := datasets.Game("reversiSmall")
	if err != nil {
		t.Fatal(err)
	}
	d, err := g.Description()
	if err != nil {
		t.Fatal(err)
	}
	lazy := propnettest.Of(t, g)
	eager, err := propnet.Build(context.Background(), d, propnet.Options{EagerGoals: true})
	if err != nil {
		t.Fatal(err)
	}
	if lazy.Stats().LazyGates == 0 || eager.Stats().LazyGates != 0 {
		t.Fatalf("lazy gates: %d by default, %d with EagerGoals", lazy.Stats().LazyGates, eager.Stats().LazyGates)
	}
	pr, err := prover.New(d)
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(1); seed <= 10; seed++ {
		if _, dis := compareMatch(pr, eager, seed, time.Now().Add(time.Minute)); dis != "" {
			t.Fatalf("eager goals, seed %d: %s", seed, dis)
		}
	}
}

// must returns v, panicking on err: the network's simulator methods never
// fail on valid arguments.
func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
