package mcts

import (
	"context"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"gdlab/datasets"
	"gdlab/engine/analysis/latch"
	"gdlab/engine/game"
	"gdlab/engine/game/gametest"
	"gdlab/engine/propnet"
	"gdlab/engine/propnet/propnettest"
	"gdlab/engine/search"
)

func started(t testing.TB, m game.Machine, role int, opt Options, seed uint64) *Player {
	t.Helper()
	p := New(opt)
	if err := p.Start(context.Background(), search.Setup{Machine: m, Role: role, Seed: seed}); err != nil {
		t.Fatal(err)
	}
	return p
}

// play applies moves given as text, one joint move per entry (role order).
func play(t *testing.T, m game.Machine, s game.State, joints ...[]string) game.State {
	t.Helper()
	return gametest.Play(t, m, s, joints...)
}

// exact returns every role's game-theoretic value of s in a sequential
// game (one role chooses per state), by memoized minimax: the reference
// the solver is checked against.
func exact(t *testing.T, m game.Machine, s game.State, memo map[uint64][]float64) []float64 {
	if v, ok := memo[s.Hash()]; ok {
		return v
	}
	term, err := m.Terminal(s)
	if err != nil {
		t.Fatal(err)
	}
	var best []float64
	if term {
		for r := range m.Roles() {
			g, _ := m.Goal(s, r)
			best = append(best, float64(g))
		}
	} else {
		legal, err := game.LegalAll(m, s)
		if err != nil {
			t.Fatal(err)
		}
		mover := 0
		for r := range legal {
			if len(legal[r]) > 1 {
				mover = r
			}
		}
		joint := make([]game.Move, len(legal))
		for r := range legal {
			joint[r] = legal[r][0]
		}
		for _, mv := range legal[mover] {
			joint[mover] = mv
			next, err := m.Next(s, joint)
			if err != nil {
				t.Fatal(err)
			}
			if v := exact(t, m, next, memo); best == nil || v[mover] > best[mover] {
				best = v
			}
		}
	}
	memo[s.Hash()] = best
	return best
}

// The corridor is solved by the plain search thanks to transpositions, and
// the hard corridor of length 4 too (8^4 leaves); latch-terminal nodes make
// both linear.
func TestCorridorSolved(t *testing.T) {
	for _, hard := range []bool{false, true} {
		g, _ := datasets.Corridor(4, hard)
		net := propnettest.Of(t, g)
		for _, opt := range []Options{{}, {LatchTerminal: true}} {
			p := started(t, net, 0, opt, 1)
			mv, rep, err := p.Play(context.Background(), net.Initial(), search.Budget{Nodes: 20000})
			if err != nil {
				t.Fatal(err)
			}
			if !rep.Complete || rep.Value != 100 || net.MoveText(0, mv) != "d" {
				t.Errorf("hard=%v %s: move %s value %v complete %v", hard, p.Name(), net.MoveText(0, mv), rep.Value, rep.Complete)
			}
			t.Logf("hard=%v %s: %d nodes, %d iterations", hard, p.Name(), rep.Used.Nodes, p.LastStats().Iterations)
			if opt.LatchTerminal && rep.Used.Nodes > 60 {
				t.Errorf("latch-terminal search used %d nodes for length 4", rep.Used.Nodes)
			}
		}
	}
}

// Switch 1 on the hard corridor of length 8 (8^8 paths): the plain search
// cannot solve it in 20000 nodes, the latch-terminal search solves it in
// 8 nodes a step. After a wrong move the root's range is [0,0]: the
// root is still expanded and a legal move returned.
func TestLatchTerminal(t *testing.T) {
	g, _ := datasets.Corridor(8, true)
	net := propnettest.Of(t, g)
	b := search.Budget{Nodes: 20000}
	_, plain, err := started(t, net, 0, Options{Iterations: 100000}, 1).Play(context.Background(), net.Initial(), b)
	if err != nil {
		t.Fatal(err)
	}
	mv, latch, err := started(t, net, 0, Options{Iterations: 100000, LatchTerminal: true}, 1).Play(context.Background(), net.Initial(), b)
	if err != nil {
		t.Fatal(err)
	}
	if plain.Complete {
		t.Errorf("plain search solved the hard corridor of length 6 with %d nodes", plain.Used.Nodes)
	}
	if !latch.Complete || latch.Value != 100 || net.MoveText(0, mv) != "d" || latch.Used.Nodes > 8*8+1 {
		t.Errorf("latch-terminal: move %s value %v complete %v with %d nodes", net.MoveText(0, mv), latch.Value, latch.Complete, latch.Used.Nodes)
	}
	wrong, _ := net.ParseMove(0, "a")
	s, _ := net.Next(net.Initial(), []game.Move{wrong})
	p := started(t, net, 0, Options{Iterations: 1000, LatchTerminal: true}, 1)
	mv, rep, err := p.Play(context.Background(), s, search.Budget{})
	if err != nil || mv == game.NoMove || !rep.Complete || rep.Value != 0 {
		t.Errorf("lost corridor: move %d value %v complete %v err %v", mv, rep.Value, rep.Complete, err)
	}
	if prof := p.DepthProfile(); len(prof) != 2 || prof[1] != 8 {
		t.Errorf("lost corridor: depth profile %v, want the root and its 8 children", prof)
	}
}

// In tic-tac-toe, x (to move) completes a row: a win in one that the
// search proves.
func TestFindsWin(t *testing.T) {
	net := propnettest.Curated(t, "ticTacToe")
	s := play(t, net, net.Initial(),
		[]string{"(mark 1 1)", "noop"}, []string{"noop", "(mark 2 1)"},
		[]string{"(mark 1 2)", "noop"}, []string{"noop", "(mark 2 2)"})
	p := started(t, net, 0, Options{Iterations: 100000}, 7)
	mv, rep, err := p.Play(context.Background(), s, search.Budget{Nodes: 5000})
	if err != nil {
		t.Fatal(err)
	}
	if got := net.MoveText(0, mv); got != "(mark 1 3)" || !rep.Complete || rep.Value != 100 {
		t.Errorf("move %s value %v complete %v, want the win (mark 1 3) proved", got, rep.Value, rep.Complete)
	}
	// o must block (defence): with x threatening (mark 1 3), o's other
	// moves lose, and the search finds the block.
	s = play(t, net, net.Initial(),
		[]string{"(mark 1 1)", "noop"}, []string{"noop", "(mark 2 2)"},
		[]string{"(mark 1 2)", "noop"})
	p = started(t, net, 1, Options{Iterations: 100000}, 7)
	mv, _, err = p.Play(context.Background(), s, search.Budget{Nodes: 20000})
	if err != nil {
		t.Fatal(err)
	}
	if got := net.MoveText(1, mv); got != "(mark 1 3)" {
		t.Errorf("o plays %s, want the block (mark 1 3)", got)
	}
}

// The whole tic-tac-toe tree is small: the search proves the draw, and
// every solved node along the root's moves has its exact minimax value.
func TestSolvedPropagation(t *testing.T) {
	net := propnettest.Curated(t, "ticTacToe")
	p := started(t, net, 0, Options{Iterations: 400000}, 3)
	if _, err := p.Search(context.Background(), net.Initial(), search.Budget{Nodes: 200000}); err != nil {
		t.Fatal(err)
	}
	st := p.LastStats()
	if !st.RootSolved || st.RootValue[0] != 50 || st.RootValue[1] != 50 {
		t.Fatalf("root solved %v value %v, want the draw 50/50 proved", st.RootSolved, st.RootValue)
	}
	memo := map[uint64][]float64{}
	tr := p.t
	checked := 0
	for id := range tr.nodes {
		nd := &tr.nodes[id]
		if !nd.live || !nd.solved {
			continue
		}
		want := exact(t, net, nd.state, memo)
		if nd.value[0] != want[0] || nd.value[1] != want[1] {
			t.Errorf("solved node %v: value %v, exact %v", nd.state, nd.value, want)
		}
		checked++
	}
	t.Logf("solved with %d nodes, %d iterations; %d solved nodes checked against minimax; depth profile %v",
		st.Expansions, st.Iterations, checked, p.DepthProfile())
}

// Transpositions: tic-tac-toe has 5478 reachable states, so a search that
// solves it holds at most that many nodes, and two move orders reaching the
// same position share one node.
func TestTranspositions(t *testing.T) {
	net := propnettest.Curated(t, "ticTacToe")
	p := started(t, net, 0, Options{Iterations: 400000}, 5)
	if _, err := p.Search(context.Background(), net.Initial(), search.Budget{Nodes: 200000}); err != nil {
		t.Fatal(err)
	}
	if st := p.LastStats(); st.PoolNodes > 5478 || st.Expansions > 5478 {
		t.Errorf("%d nodes in the pool, %d created, for 5478 states", st.PoolNodes, st.Expansions)
	}
	a := play(t, net, net.Initial(), []string{"(mark 1 1)", "noop"}, []string{"noop", "(mark 2 2)"}, []string{"(mark 3 3)", "noop"})
	b := play(t, net, net.Initial(), []string{"(mark 3 3)", "noop"}, []string{"noop", "(mark 2 2)"}, []string{"(mark 1 1)", "noop"})
	ia, ib := p.t.lookup(a), p.t.lookup(b)
	if ia == none || ia != ib {
		t.Fatalf("nodes %d and %d for one position", ia, ib)
	}
	parents := 0
	for id := range p.t.nodes {
		for _, c := range p.t.nodes[id].children {
			if c == ia {
				parents++
			}
		}
	}
	if parents < 2 {
		t.Errorf("the position has %d parents in the graph, want 2", parents)
	}
}

// Every move of a full match against a random player is legal, on one and
// on two threads, in a two-player and a simultaneous-move game.
func TestPlaysLegalMoves(t *testing.T) {
	for _, name := range []string{"ticTacToe", "connectFourSmall", "dualConnectFour"} {
		net := propnettest.Curated(t, name)
		for _, threads := range []int{1, 2} {
			p := started(t, net, 0, Options{Iterations: 200, Threads: threads}, 9)
			playsLegal(t, net, p, 9, 200, nil)
		}
	}
}

// playsLegal plays a match from m's initial state, p choosing role 0's
// moves and the other roles moving at random (seeded), for at most moves
// joint moves, and fails on a move of p's that is not legal. After each of
// p's searches it calls check, when not nil, with role 0's legal moves.
func playsLegal(t *testing.T, m game.Machine, p *Player, seed uint64, moves int, check func(legal []game.Move)) {
	t.Helper()
	rng := game.NewRand(seed)
	s := m.Initial()
	for k := 0; k < moves; k++ {
		if term, _ := m.Terminal(s); term {
			break
		}
		legal, err := game.LegalAll(m, s)
		if err != nil {
			t.Fatal(err)
		}
		mv, _, err := p.Play(context.Background(), s, search.Budget{})
		if err != nil {
			t.Fatal(err)
		}
		if !contains(legal[0], mv) {
			t.Fatalf("move %d is not legal in %v", mv, s)
		}
		if check != nil {
			check(legal[0])
		}
		joint := []game.Move{mv}
		for r := 1; r < len(legal); r++ {
			joint = append(joint, legal[r][rng.IntN(len(legal[r]))])
		}
		if s, err = m.Next(s, joint); err != nil {
			t.Fatal(err)
		}
	}
}

func contains(ms []game.Move, m game.Move) bool {
	for _, x := range ms {
		if x == m {
			return true
		}
	}
	return false
}

// With a fixed seed the search is reproducible, on one thread and on two
// (playouts are seeded by iteration); another seed gives another search.
func TestDeterminism(t *testing.T) {
	net := propnettest.Curated(t, "connectFour")
	run := func(threads int, seed uint64) []MoveStat {
		p := started(t, net, 0, Options{Iterations: 300, Threads: threads}, seed)
		if _, _, err := p.Play(context.Background(), net.Initial(), search.Budget{}); err != nil {
			t.Fatal(err)
		}
		return p.Root(0)
	}
	same := func(a, b []MoveStat) bool {
		for i := range a {
			if a[i] != b[i] {
				return false
			}
		}
		return true
	}
	for _, threads := range []int{1, 2} {
		if a, b := run(threads, 42), run(threads, 42); !same(a, b) {
			t.Errorf("threads %d: two runs with seed 42 differ: %+v vs %+v", threads, a, b)
		}
	}
	if same(run(1, 42), run(1, 43)) {
		t.Errorf("seeds 42 and 43 gave the same search")
	}
}

// Cancellation and every budget stop the search promptly, and Play still
// returns a legal move.
func TestBudgets(t *testing.T) {
	net := propnettest.Curated(t, "breakthrough")
	p := started(t, net, 0, Options{Threads: 2}, 1)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	start := time.Now()
	mv, rep, err := p.Play(ctx, net.Initial(), search.Budget{})
	if err != nil {
		t.Fatal(err)
	}
	if d := time.Since(start); d > time.Second || rep.Stopped != search.StopCancelled || mv == game.NoMove {
		t.Errorf("stopped after %v with %q, move %d", d, rep.Stopped, mv)
	}
	start = time.Now()
	_, rep, _ = p.Play(context.Background(), net.Initial(), search.Budget{Time: 30 * time.Millisecond})
	if d := time.Since(start); rep.Stopped != search.StopTime || d > 500*time.Millisecond {
		t.Errorf("time budget: stopped by %q after %v", rep.Stopped, d)
	}
	_, rep, _ = p.Play(context.Background(), net.Initial(), search.Budget{Nodes: 100})
	if rep.Stopped != search.StopNodes || rep.Used.Nodes < 100 || rep.Used.Nodes > 102 {
		t.Errorf("node budget 100: stopped by %q after %d nodes", rep.Stopped, rep.Used.Nodes)
	}
	_, rep, _ = p.Play(context.Background(), net.Initial(), search.Budget{NextCalls: 5000})
	if rep.Stopped != search.StopNextCalls || rep.Used.NextCalls < 5000 {
		t.Errorf("Next budget 5000: stopped by %q after %d calls", rep.Stopped, rep.Used.NextCalls)
	}
	q := started(t, net, 0, Options{Iterations: 123, Threads: 2}, 1)
	if _, err := q.Search(context.Background(), net.Initial(), search.Budget{}); err != nil {
		t.Fatal(err)
	}
	if st := q.LastStats(); st.Iterations != 123 {
		t.Errorf("iteration limit 123: %d iterations", st.Iterations)
	}
}

// The pool bound holds, and the tree is kept across moves: after a move
// and a reply, the new root's subtree (and its visits) survive.
func TestPoolAndReuse(t *testing.T) {
	net := propnettest.Curated(t, "connectFour")
	p := started(t, net, 0, Options{Iterations: 3000, PoolSize: 500}, 1)
	s := net.Initial()
	mv, _, err := p.Play(context.Background(), s, search.Budget{})
	if err != nil {
		t.Fatal(err)
	}
	if st := p.LastStats(); st.PoolNodes > 500 {
		t.Errorf("%d nodes in a pool of 500", st.PoolNodes)
	}
	legal, _ := net.Legal(s, 1, nil)
	s, _ = net.Next(s, []game.Move{mv, legal[0]})
	id := p.t.lookup(s)
	if id == none {
		t.Fatal("the state after the first move is not in the tree")
	}
	kept := p.t.nodes[id].visits
	if _, err := p.Search(context.Background(), s, search.Budget{Nodes: 1}); err != nil {
		t.Fatal(err)
	}
	if got := p.RootVisits(); got < kept {
		t.Errorf("root visits %d after reuse, had %d", got, kept)
	}
}

// Switch 2 in the duel: with white's king captured, white's best is the
// draw, and striking back (both kings captured, a terminal draw) reaches
// it. With the switch the root is solved as soon as that child is seen;
// without it the search must solve the other moves too.
func TestLatchWin(t *testing.T) {
	net := propnettest.Load(t, "testdata/duel.kif")
	s := play(t, net, net.Initial(), []string{"advance", "noop"}, []string{"noop", "strike"})
	nodes := map[bool]int64{}
	for _, on := range []bool{false, true} {
		p := started(t, net, 0, Options{Iterations: 100000, LatchWin: on}, 1)
		if on {
			if lo, hi := p.Analysis().Range(s, 0); lo != 0 || hi != 50 {
				t.Fatalf("white's range [%d,%d], want [0,50]", lo, hi)
			}
		}
		mv, rep, err := p.Play(context.Background(), s, search.Budget{Nodes: 100000})
		if err != nil {
			t.Fatal(err)
		}
		// Without the switch any move of value 50 will do: striking later
		// draws too.
		if (on && net.MoveText(0, mv) != "strike") || !rep.Complete || rep.Value != 50 {
			t.Errorf("LatchWin %v: %s value %v complete %v", on, net.MoveText(0, mv), rep.Value, rep.Complete)
		}
		nodes[on] = rep.Used.Nodes
	}
	t.Logf("nodes to solve: %d without switch 2, %d with", nodes[false], nodes[true])
	if nodes[true] > 5 || nodes[false] <= 2*nodes[true] {
		t.Errorf("nodes to solve: %d without switch 2, %d with", nodes[false], nodes[true])
	}
}

// Switch 3: at the start of the duel, striking raises white's minimum
// (black can no longer win) and blundering lowers its maximum; the bias
// says so, and selection shifts visits accordingly.
func TestLatchSelect(t *testing.T) {
	net := propnettest.Load(t, "testdata/duel.kif")
	visits := map[bool]map[string]int64{}
	for _, on := range []bool{false, true} {
		p := started(t, net, 0, Options{Iterations: 60, LatchSelect: on}, 1)
		if _, err := p.Search(context.Background(), net.Initial(), search.Budget{}); err != nil {
			t.Fatal(err)
		}
		visits[on] = map[string]int64{}
		for _, ms := range p.Root(0) {
			visits[on][ms.Text] = ms.Visits
		}
		if on {
			tr := p.t
			nd := &tr.nodes[tr.root]
			for i, mv := range nd.moves[0] {
				b := tr.rangeBias(nd, 0, i, 1)
				switch net.MoveText(0, mv) {
				case "strike":
					if b <= 0 {
						t.Errorf("bias of strike %v, want > 0", b)
					}
				case "blunder":
					if b >= 0 {
						t.Errorf("bias of blunder %v, want < 0", b)
					}
				case "advance":
					if b != 0 {
						t.Errorf("bias of advance %v, want 0", b)
					}
				}
			}
		}
	}
	t.Logf("root visits without switch 3 %v, with %v", visits[false], visits[true])
	if visits[true]["strike"] <= visits[false]["strike"] || visits[true]["blunder"] >= visits[false]["blunder"] {
		t.Errorf("switch 3 did not move visits toward strike and away from blunder: %v vs %v", visits[false], visits[true])
	}
}

func mustAnalysis(t *testing.T, net *propnet.Net) *latch.Analysis {
	t.Helper()
	an, err := latch.Analyze(context.Background(), net, latch.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return an
}

// Switch 4: guided playouts never blunder while the blunder lowers the
// mover's maximum and another move exists; plain playouts often do.
func TestLatchPlayout(t *testing.T) {
	net := propnettest.Load(t, "testdata/duel.kif")
	resigned := map[bool]int{}
	for _, on := range []bool{false, true} {
		p := started(t, net, 0, Options{LatchPlayout: on}, 1)
		if !on {
			p.t.an = mustAnalysis(t, net) // ranges known, switch off
		}
		w := p.t.work[0]
		for i := 0; i < 200; i++ {
			l := &leaf{state: net.Initial(), seed: uint64(i)}
			w.run(l)
			if l.err != nil {
				t.Fatal(l.err)
			}
			// A blunder by a player whose king stands lowers its maximum;
			// once captured, its maximum is 50 already and a blunder is
			// harmless.
			facts := strings.Join(w.sim.State().Facts(), " ")
			for _, r := range []string{"white", "black"} {
				if strings.Contains(facts, "(resigned "+r+")") && !strings.Contains(facts, "(captured "+r+")") {
					resigned[on]++
					break
				}
			}
		}
	}
	t.Logf("playouts in which someone resigned: %d of 200 plain, %d guided", resigned[false], resigned[true])
	if resigned[true] != 0 || resigned[false] < 10 {
		t.Errorf("resignations: %d plain, %d guided", resigned[false], resigned[true])
	}
}

// The analysis of escort-latch breakthrough finds its goal latches.
func TestLatchWinEscort(t *testing.T) {
	net := propnettest.Curated(t, "escortLatchBreakthrough")
	p := started(t, net, 0, Options{LatchWin: true, LatchTerminal: true}, 1)
	an := p.Analysis()
	if an == nil || !an.HasGoalLatches() {
		t.Fatal("no goal latches found in escortLatchBreakthrough")
	}
	if lo, hi := an.Range(net.Initial(), 0); lo != 0 || hi != 100 {
		t.Errorf("initial range [%d,%d]", lo, hi)
	}
}

// Parallel playouts share nothing mutable: run under go test -race.
func TestParallelRace(t *testing.T) {
	net := propnettest.Load(t, "testdata/duel.kif")
	p := started(t, net, 0, Options{Iterations: 400, Threads: 4}.AllLatches(), 1)
	if _, err := p.Search(context.Background(), net.Initial(), search.Budget{}); err != nil {
		t.Fatal(err)
	}
	ttt := propnettest.Curated(t, "ticTacToe")
	q := started(t, ttt, 0, Options{Iterations: 400, Threads: 4}, 1)
	if _, err := q.Search(context.Background(), ttt.Initial(), search.Budget{}); err != nil {
		t.Fatal(err)
	}
}

func BenchmarkIterations(b *testing.B) {
	for _, game := range []string{"connectFour", "breakthrough"} {
		net := propnettest.Curated(b, game)
		for _, c := range []struct {
			name string
			opt  Options
		}{{"1thread", Options{Threads: 1}}, {"allcores", Options{Threads: -1}}, {"allcores-sharedtree", Options{Threads: -1, SharedTree: true}},
			{"1thread-power2", Options{Threads: 1, PowerMean: 2}}} {
			b.Run(game+"/"+c.name, func(b *testing.B) {
				opt := c.opt
				opt.Iterations = int64(b.N)
				p := started(b, net, 0, opt, 1)
				b.ReportAllocs()
				b.ResetTimer()
				if _, err := p.Search(context.Background(), net.Initial(), search.Budget{}); err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(p.LastStats().IterationsPerSecond(), "iter/s")
			})
		}
	}
}

// BenchmarkSpeedup measures what a second core buys, as a ratio taken side
// by side: it alternates one-thread and all-core searches of a fixed time
// from the initial state, each with a fresh player, and reports the median
// of the pairs' ratios of iterations per second (speedup) with the
// medians of each (iter/s-1, iter/s-all). Alternating keeps the load of a
// shared machine the same, on average, for both. Beside them, the same
// ratio for bare random playouts on one simulator per thread (ceiling):
// work that shares nothing, whose ratio is what the machine itself gives.
func BenchmarkSpeedup(b *testing.B) {
	const pairs, slice = 9, 300 * time.Millisecond
	for _, game := range []string{"connectFour", "breakthrough"} {
		net := propnettest.Curated(b, game)
		b.Run(game, func(b *testing.B) {
			rate := func(threads int, seed uint64) float64 {
				p := started(b, net, 0, Options{Threads: threads}, seed)
				if _, err := p.Search(context.Background(), net.Initial(), search.Budget{Time: slice}); err != nil {
					b.Fatal(err)
				}
				return p.LastStats().IterationsPerSecond()
			}
			var ratios, ones, alls, bare []float64
			for i := 0; i < b.N; i++ {
				for k := 0; k < pairs; k++ {
					one, all := rate(1, uint64(k)), rate(-1, uint64(k))
					ones, alls, ratios = append(ones, one), append(alls, all), append(ratios, all/one)
					bare = append(bare, playoutRate(b, net, runtime.GOMAXPROCS(0), slice)/playoutRate(b, net, 1, slice))
				}
			}
			b.ReportMetric(median(ratios), "speedup")
			b.ReportMetric(median(bare), "ceiling")
			b.ReportMetric(median(ones), "iter/s-1")
			b.ReportMetric(median(alls), "iter/s-all")
		})
	}
}

// playoutRate plays random playouts from the initial state on threads
// goroutines, one simulator each, for d, and returns playouts per second.
func playoutRate(b *testing.B, m game.Machine, threads int, d time.Duration) float64 {
	var total atomic.Int64
	var wg sync.WaitGroup
	end := time.Now().Add(d)
	for i := 0; i < threads; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sim, rng := game.NewSimulator(m), game.NewRand(uint64(i))
			for time.Now().Before(end) {
				if err := sim.SetState(m.Initial()); err != nil {
					b.Error(err)
					return
				}
				if _, err := sim.Playout(rng, 1000); err != nil {
					b.Error(err)
					return
				}
				total.Add(1)
			}
		}()
	}
	wg.Wait()
	return float64(total.Load()) / d.Seconds()
}

// median returns the middle value of xs (the upper one of an even count).
func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	return s[len(s)/2]
}

// TestNameShowsOptions: a player's name tells the search's switches apart,
// so match tables and ledger entries say which variant played.
func TestNameShowsOptions(t *testing.T) {
	for _, c := range []struct {
		opt  Options
		want string
	}{
		{Options{}, "mcts"},
		{Options{PowerMean: 2}, "mcts+power(2)"},
		{Options{PolyExplore: 1.5, DecisionNodes: true}, "mcts+poly(1.5)+decision"},
		{Options{PowerMean: 4, Name: "mine"}, "mine"},
		{Options{LeafBatch: 64}, "mcts+batch(64)"},
		{Options{LeafBatch: 1}, "mcts"},
	} {
		if got := New(c.opt).Name(); got != c.want {
			t.Errorf("%+v: name %q, want %q", c.opt, got, c.want)
		}
	}
}
