package factored

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"gdlab/engine/game"
	"gdlab/engine/game/gametest"
	"gdlab/engine/propnet/propnettest"
	"gdlab/engine/search"
	"gdlab/engine/search/mcts"
)

// partWith returns the player's part whose factor holds the base fact.
func partWith(t *testing.T, p *Player, fact string) part {
	t.Helper()
	for _, pt := range p.parts {
		for _, b := range p.an.Factors[pt.factor].Bases {
			if p.an.Bases[b] == fact {
				return pt
			}
		}
	}
	t.Fatalf("no searched factor holds %s", fact)
	return part{}
}

// texts are the moves' texts for role.
func texts(m game.Machine, role int, ms []game.Move) []string {
	var out []string
	for _, mv := range ms {
		out = append(out, m.MoveText(role, mv))
	}
	return out
}

// TestSubgameWithPasses: in twinnim's pile-a factor, white may take from
// pile a or pass (its first move on pile b), black only waits; the pass
// changes the turn and leaves pile b as it was.
func TestSubgameWithPasses(t *testing.T) {
	net := propnettest.Load(t, "testdata/twinnim.kif")
	p := New(Options{MCTS: mcts.Options{Iterations: 10}})
	start(t, p, net, 0, 1)
	sub := partWith(t, p, "(size a 5)").sub
	if sub.hold == nil {
		t.Fatal("a game of two roles is searched without passes")
	}
	s := net.Initial()
	white, err := sub.Legal(s, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := texts(net, 0, white), []string{"(take a 1)", "(take a 2)", "(take b 1)"}; !slices.Equal(got, want) {
		t.Fatalf("white's moves %v, want %v", got, want)
	}
	black, _ := sub.Legal(s, 1, nil)
	if got := texts(net, 1, black); !slices.Equal(got, []string{"noop"}) {
		t.Fatalf("black's moves %v, want [noop]", got)
	}
	after, err := sub.Next(s, []game.Move{white[2], black[0]})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := after.Facts(), []string{"(control black)", "(size a 5)", "(size b 4)"}; !slices.Equal(got, want) {
		t.Errorf("after the pass: %v, want %v", got, want)
	}
	// The subgame's simulator agrees with its machine.
	sim := sub.NewSimulator()
	if err := sim.SetState(s); err != nil {
		t.Fatal(err)
	}
	if err := sim.Play([]game.Move{white[2], black[0]}); err != nil {
		t.Fatal(err)
	}
	if !sim.State().Equal(after) {
		t.Errorf("simulator after the pass: %v, want %v", sim.State().Facts(), after.Facts())
	}
}

// TestRoundOfPassesLifts: in twinnim's pile-a factor, white passes and
// black passes back, which leads to the start's real state again. The
// subgame tells the states apart (the count of passes is part of its
// state) and, after the round, goes on as the whole game: every legal
// move is allowed and a move on pile b is played, not kept off. A move
// in the factor after a lone pass starts the count afresh.
func TestRoundOfPassesLifts(t *testing.T) {
	net := propnettest.Load(t, "testdata/twinnim.kif")
	p := New(Options{MCTS: mcts.Options{Iterations: 10}})
	start(t, p, net, 0, 1)
	sub := partWith(t, p, "(size a 5)").sub
	move := func(role int, text string) game.Move { return mustMove(t, net, role, text) }
	next := func(s game.State, white, black string) game.State {
		t.Helper()
		n, err := sub.Next(s, []game.Move{move(0, white), move(1, black)})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	s := net.Initial()
	once := next(s, "(take b 1)", "noop")
	if ps, ok := once.(*passState); !ok || ps.passes != 1 {
		t.Fatalf("after white's pass: %#v, want one pass counted", once)
	}
	round := next(once, "noop", "(take b 1)")
	if !slices.Equal(round.Facts(), s.Facts()) {
		t.Fatalf("after the round: %v, want the start's facts %v", round.Facts(), s.Facts())
	}
	if round.Equal(s) || s.Equal(round) || round.Hash() == s.Hash() {
		t.Fatal("the state after a round of passes is the start's state in the subgame")
	}
	all, _ := net.Legal(s, 0, nil) // the same real state
	allowed, err := sub.Legal(round, 0, nil)
	if err != nil || !slices.Equal(allowed, all) {
		t.Fatalf("after the round white may play %v (%v), want every legal move %v", texts(net, 0, allowed), err, texts(net, 0, all))
	}
	onB := next(round, "(take b 2)", "noop")
	if got, want := onB.Facts(), []string{"(control black)", "(size a 5)", "(size b 2)"}; !slices.Equal(got, want) {
		t.Errorf("a move on pile b after the round: %v, want %v", got, want)
	}
	if g, err := sub.Goal(round, 0); err != nil || g != 50 {
		t.Errorf("goal after the round %d (%v), want the real state's 50", g, err)
	}
	moved := next(next(once, "noop", "(take a 1)"), "(take b 1)", "noop")
	if ps, ok := moved.(*passState); !ok || ps.passes != 1 {
		t.Errorf("a pass after a move in the factor: %#v, want one pass counted", moved)
	}
	// The simulator agrees, through Save and Restore too.
	sim := sub.NewSimulator()
	if err := sim.SetState(once); err != nil {
		t.Fatal(err)
	}
	saved := sim.Save(nil)
	if err := sim.Play([]game.Move{move(0, "noop"), move(1, "(take b 1)")}); err != nil {
		t.Fatal(err)
	}
	if !sim.State().Equal(round) || sim.Hash() != round.Hash() {
		t.Errorf("simulator after the round: %#v, want %#v", sim.State(), round)
	}
	if err := sim.Restore(saved); err != nil || !sim.State().Equal(once) {
		t.Errorf("restored %#v (%v), want %#v", sim.State(), err, once)
	}
}

// TestNodeBudgetEnds: a search of a factor with passes spends a Node
// budget on expanding nodes, in self-play to the end of each game. Late
// in dualConnect4 both sides would rather pass on a board; in nim1 and
// double_tictactoe_dengji the waiting role's noop is a joint move (its
// frame rules touch every factor). A round of passes that led back to
// its start would send selection round the cycle to mcts's path bound
// without expanding: a move would take seconds, or in nim1, whose whole
// subgame is smaller than the budget, never end (the deadline here
// stops it).
func TestNodeBudgetEnds(t *testing.T) {
	for _, key := range []string{"dualConnect4", "nim1", "double_tictactoe_dengji"} {
		net := propnettest.Load(t, corpusGame(t, key))
		const nodes = 2000
		ps := []*Player{New(Options{}), New(Options{})}
		for r, p := range ps {
			start(t, p, net, r, 2)
		}
		s := net.Initial()
		for step := 0; ; step++ {
			if term, _ := net.Terminal(s); term {
				break
			}
			joint := make([]game.Move, 2)
			for r, p := range ps {
				ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
				mv, _, err := p.Play(ctx, s, search.Budget{Nodes: nodes})
				cancel()
				if err != nil {
					t.Fatal(err)
				}
				if st := p.LastStats(); st.Iterations > 2*nodes {
					t.Fatalf("%s, step %d, role %d: %d iterations for %d nodes: %+v", key, step, r, st.Iterations, nodes, st.Searches)
				}
				joint[r] = mv
			}
			var err error
			if s, err = net.Next(s, joint); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// findCycle searches m depth first from s, at most depth moves deep and
// through at most states states, for a state reached again on its own
// path, and returns it (nil when there is none).
func findCycle(t *testing.T, m game.Machine, s game.State, depth, states int) game.State {
	t.Helper()
	seen := map[uint64]bool{}
	var path []game.State
	var visit func(s game.State) game.State
	visit = func(s game.State) game.State {
		for _, q := range path {
			if q.Hash() == s.Hash() && q.Equal(s) {
				return s
			}
		}
		if seen[s.Hash()] || len(seen) >= states || len(path) >= depth {
			return nil
		}
		seen[s.Hash()] = true
		if term, err := m.Terminal(s); term || err != nil {
			return nil
		}
		path = append(path, s)
		defer func() { path = path[:len(path)-1] }()
		var joints [][]game.Move
		for r := range m.Roles() {
			legal, err := m.Legal(s, r, nil)
			if err != nil {
				t.Fatal(err)
			}
			joints = product(joints, legal)
		}
		for _, joint := range joints {
			n, err := m.Next(s, joint)
			if err != nil {
				t.Fatal(err)
			}
			if c := visit(n); c != nil {
				return c
			}
		}
		return nil
	}
	return visit(s)
}

// product extends each joint move of joints (one empty one when there
// are none) by each of moves.
func product(joints [][]game.Move, moves []game.Move) [][]game.Move {
	if joints == nil {
		joints = [][]game.Move{nil}
	}
	var out [][]game.Move
	for _, j := range joints {
		for _, m := range moves {
			out = append(out, append(slices.Clone(j), m))
		}
	}
	return out
}

// TestNoPassesRestrictsThePlayerOnly: with NoPasses the opponents play
// any move and the player never passes.
func TestNoPassesRestrictsThePlayerOnly(t *testing.T) {
	net := propnettest.Load(t, "testdata/twinnim.kif")
	p := New(Options{MCTS: mcts.Options{Iterations: 10}, NoPasses: true})
	start(t, p, net, 0, 1)
	sub := partWith(t, p, "(size a 5)").sub
	if sub.hold != nil || !sub.allow[1].all {
		t.Fatal("NoPasses: the subgame has passes, or restricts the opponent")
	}
	white, _ := sub.Legal(net.Initial(), 0, nil)
	if got, want := texts(net, 0, white), []string{"(take a 1)", "(take a 2)"}; !slices.Equal(got, want) {
		t.Errorf("white's moves %v, want %v", got, want)
	}
}

// TestSubgameLiftsWhenPlayedOut: once the first board of
// double_tictactoe_dengji is decided, its factor's subgame goes on as the
// whole game: every legal move is allowed, and moves are no longer kept
// off the other board.
func TestSubgameLiftsWhenPlayedOut(t *testing.T) {
	net := propnettest.Load(t, corpusGame(t, "double_tictactoe_dengji"))
	p := New(Options{MCTS: mcts.Options{Iterations: 10}})
	start(t, p, net, 0, 1)
	sub := partWith(t, p, "(cell1 1 1 b)").sub
	s := playFactorOut(t, net, sub, net.Initial(), 1)
	for r := range 2 {
		real, _ := net.Legal(s, r, nil)
		allowed, err := sub.Legal(s, r, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(real, allowed) {
			t.Errorf("role %d: subgame moves %v, want every legal move %v", r, texts(net, r, allowed), texts(net, r, real))
		}
	}
}

// playFactorOut plays random moves from s, in sub's factor wherever a role has
// one there, until the factor is played out, and returns the state
// reached. The game must not end with the factor.
func playFactorOut(t *testing.T, m game.Machine, sub *restricted, s game.State, seed uint64) game.State {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 2))
	for {
		joint := make([]game.Move, len(m.Roles()))
		inFactor := false
		for r := range joint {
			legal, _ := m.Legal(s, r, nil)
			var mine []game.Move
			for _, mv := range legal {
				if sub.solo[r].has(mv) {
					mine = append(mine, mv)
				}
			}
			joint[r] = legal[rng.IntN(len(legal))]
			if len(mine) > 0 {
				joint[r], inFactor = mine[rng.IntN(len(mine))], true
			}
		}
		if !inFactor {
			break
		}
		var err error
		if s, err = m.Next(s, joint); err != nil {
			t.Fatal(err)
		}
	}
	if term, _ := m.Terminal(s); term {
		t.Fatal("the game ended with the factor")
	}
	return s
}

// TestRebase: a subgame that carries its tree searches the real position
// with the other factors as the last search's root held them, except
// where the factor is played out: the subgame goes on as the whole game
// there, which must see the other factors as they are. dualConnect4, the
// corpus game whose subgames carry trees, has no played-out board that
// does not end the game, so the test makes double_tictactoe_dengji's
// first-board subgame carry its tree.
func TestRebase(t *testing.T) {
	net := propnettest.Load(t, corpusGame(t, "double_tictactoe_dengji"))
	p := New(Options{MCTS: mcts.Options{Iterations: 10}})
	start(t, p, net, 0, 1)
	sub := partWith(t, p, "(cell1 1 1 b)").sub
	sub.hold.carry = true
	held := net.Initial()
	s := gametest.Play(t, net, held, []string{"(mark1 1 1)", "noop"}, []string{"noop", "(mark2 2 2)"})

	got, err := sub.rebase(s, nil)
	if err != nil || got != s {
		t.Errorf("before a first search: rebase gave %v (%v), want the real state", got, err)
	}
	got, err = sub.rebase(s, held)
	if err != nil {
		t.Fatal(err)
	}
	facts := got.Facts()
	for _, f := range []string{"(cell1 1 1 x)", "(cell2 2 2 b)", "(control xplayer)"} {
		if !slices.Contains(facts, f) {
			t.Errorf("rebased state %v lacks %s: the factor as it is, the other board as held", facts, f)
		}
	}

	out := playFactorOut(t, net, sub, s, 1)
	if got, err = sub.rebase(out, held); err != nil {
		t.Fatal(err)
	}
	if !got.Equal(out) {
		t.Errorf("with the factor played out: rebase gave %v, want the real state %v", got.Facts(), out.Facts())
	}
}

// TestBlocksThreatElsewhere: in dualConnect4, with red three in a row on
// the normal board and black's earlier moves on the suicide board, black
// must block on the normal board. The player finds it by the gain of its
// move over passing, for every seed tried.
func TestBlocksThreatElsewhere(t *testing.T) {
	net := propnettest.Load(t, corpusGame(t, "dualConnect4"))
	s := gametest.Play(t, net, net.Initial(),
		[]string{"(drop_normal 1)", "noop"},
		[]string{"noop", "(drop_suicide 8)"},
		[]string{"(drop_normal 2)", "noop"},
		[]string{"noop", "(drop_suicide 7)"},
		[]string{"(drop_normal 3)", "noop"},
	)
	for seed := uint64(1); seed <= 3; seed++ {
		p := New(Options{MCTS: mcts.Options{Iterations: 20000}})
		start(t, p, net, 1, seed)
		mv, _, err := p.Play(context.Background(), s, search.Budget{})
		if err != nil {
			t.Fatal(err)
		}
		if got := net.MoveText(1, mv); got != "(drop_normal 4)" {
			t.Errorf("seed %d: black played %s, want (drop_normal 4); gains %v", seed, got, p.LastStats().Gains)
		}
	}
}

// TestPlaysProvenWin: in dualConnect4, with red three high in column 5 of
// the normal board, red's search proves the fourth a win at once, and
// random playouts from most other moves win too. The player plays the
// proven win, not a move that merely drew as many visits and won its
// playouts.
func TestPlaysProvenWin(t *testing.T) {
	net := propnettest.Load(t, corpusGame(t, "dualConnect4"))
	s := gametest.Play(t, net, net.Initial(),
		[]string{"(drop_normal 5)", "noop"},
		[]string{"noop", "(drop_suicide 1)"},
		[]string{"(drop_normal 5)", "noop"},
		[]string{"noop", "(drop_suicide 8)"},
		[]string{"(drop_normal 5)", "noop"},
		[]string{"noop", "(drop_suicide 1)"},
	)
	for seed := uint64(1); seed <= 5; seed++ {
		p := New(Options{MCTS: mcts.Options{Iterations: 2000}})
		start(t, p, net, 0, seed)
		mv, _, err := p.Play(context.Background(), s, search.Budget{})
		if err != nil {
			t.Fatal(err)
		}
		st := p.LastStats()
		if got := net.MoveText(0, mv); got != "(drop_normal 5)" {
			t.Errorf("seed %d: red played %s, want the win (drop_normal 5); gains %v", seed, got, st.Gains)
		}
		if !st.Solved {
			t.Errorf("seed %d: the win is not reported solved", seed)
		}
	}
}

// TestSubgameConforms: every factor's subgame, passes and all, keeps the
// game.Machine contract, and its simulator agrees with it state by state
// through moves, Save and Restore, and playouts (a simulator that kept
// what it found in one state into the next would not). And since the
// games terminate, no state of a subgame leads back to itself, which
// would send a search round the cycle instead of growing its tree: each
// subgame is explored depth first from the initial state, to a bounded
// depth and number of states. In nim1 and double_tictactoe_dengji a round
// of passes, each answered by the other role's noop, would lead back to
// its start if the noop (a joint move) counted as a move in the factor.
func TestSubgameConforms(t *testing.T) {
	for _, key := range []string{"", "dualConnect4", "double_tictactoe_dengji", "nim1"} {
		path := "testdata/twinnim.kif"
		if key != "" {
			path = corpusGame(t, key)
		}
		net := propnettest.Load(t, path)
		p := New(Options{MCTS: mcts.Options{Iterations: 10}})
		start(t, p, net, 0, 1)
		for _, pt := range p.parts {
			gametest.Conform(t, pt.sub, 3, 80)
			if cycle := findCycle(t, pt.sub, net.Initial(), 8, 20000); cycle != nil {
				t.Errorf("%s, factor %d: the subgame goes from %v back to it", path, pt.factor, cycle.Facts())
			}
		}
	}
}

// TestCarriesTrees: dualConnect4 ends when either board ends, so each
// factor's search keeps its tree from one of red's moves to the next even
// when red and black moved on different boards, where the real position
// has both boards changed: a second search begins with the visits its
// root had. With NoTreeReuse every second search begins afresh, as it
// does in games whose outputs read the other boards
// (double_tictactoe_dengji's scores add up over both).
func TestCarriesTrees(t *testing.T) {
	for _, c := range []struct {
		name, key string
		opt       Options
		carried   bool
	}{
		{"dualConnect4", "dualConnect4", Options{}, true},
		{"dualConnect4 NoTreeReuse", "dualConnect4", Options{NoTreeReuse: true}, false},
		{"dengji", "double_tictactoe_dengji", Options{}, false},
	} {
		net := propnettest.Load(t, corpusGame(t, c.key))
		c.opt.MCTS = mcts.Options{Iterations: 4000}
		p := New(c.opt)
		start(t, p, net, 0, 1)
		if got := p.parts[0].sub.hold.carry; got != c.carried {
			t.Errorf("%s: carry %v, want %v", c.name, got, c.carried)
		}
		s := net.Initial()
		mv, _, err := p.Play(context.Background(), s, search.Budget{})
		if err != nil {
			t.Fatal(err)
		}
		s = elsewhere(t, net, p, s, mv)
		if _, _, err := p.Play(context.Background(), s, search.Budget{}); err != nil {
			t.Fatal(err)
		}
		most := int64(0)
		for _, pt := range p.parts {
			ms := pt.s.(*mctsSearch)
			most = max(most, ms.RootVisits()-ms.LastStats().Iterations)
		}
		// A fresh root gets a few visits beyond the search's iterations
		// (its expansion's); a carried one the hundreds its subtree had.
		if carried := most > c.opt.MCTS.Iterations/100; carried != c.carried {
			t.Errorf("%s: a factor's root began with %d visits, want carried %v", c.name, most, c.carried)
		}
	}
}

// elsewhere plays red's move mv at s, then black's first legal move
// outside the factor mv was in, and returns the state reached: red to
// move, with both factors changed.
func elsewhere(t *testing.T, m game.Machine, p *Player, s game.State, mv game.Move) game.State {
	t.Helper()
	var in *restricted
	for _, pt := range p.parts {
		if pt.sub.own[0].has(mv) {
			in = pt.sub
		}
	}
	if in == nil {
		t.Fatalf("red's move %s is in no factor", m.MoveText(0, mv))
	}
	first := func(s game.State, r int, keep func(game.Move) bool) game.Move {
		legal, err := m.Legal(s, r, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range legal {
			if keep(l) {
				return l
			}
		}
		t.Fatalf("%s has no move to play", m.Roles()[r])
		return game.NoMove
	}
	all := func(game.Move) bool { return true }
	s = gametest.Play(t, m, s, []string{m.MoveText(0, mv), m.MoveText(1, first(s, 1, all))})
	reply := first(s, 1, func(l game.Move) bool { return !in.own[1].has(l) })
	return gametest.Play(t, m, s, []string{m.MoveText(0, first(s, 0, all)), m.MoveText(1, reply)})
}

// TestLeadSearchesAgain: with a lead, the factor moved in is searched
// again with what the equal shares left, so it spends most of the
// budget; split equally, the factors spend alike. Either way the move's
// searches stay within the budget, and a factor's statistics add up all
// its searches, as its usage does. With MCTS.Iterations the split is equal.
func TestLeadSearchesAgain(t *testing.T) {
	net := propnettest.Load(t, corpusGame(t, "dualConnect4"))
	const calls = 40000
	for _, lead := range []float64{0.5, -1} {
		p := New(Options{Lead: lead})
		start(t, p, net, 0, 1)
		if _, _, err := p.Play(context.Background(), net.Initial(), search.Budget{NextCalls: calls}); err != nil {
			t.Fatal(err)
		}
		st := p.LastStats()
		if len(st.Factors) != 2 || st.Chosen < 0 {
			t.Fatalf("lead %v: stats %+v", lead, st)
		}
		k := slices.Index(st.Factors, st.Chosen)
		mine, other := st.Reports[k].Used.NextCalls, st.Reports[1-k].Used.NextCalls
		if total := mine + other; total > calls*11/10 {
			t.Errorf("lead %v: %d Next calls of a budget of %d", lead, total, calls)
		}
		if spent := mine > 2*other; spent != (lead > 0) {
			t.Errorf("lead %v: the leader made %d Next calls, the other factor %d", lead, mine, other)
		}
		for i, r := range st.Reports {
			if got := st.Searches[i].NextCalls; got != r.Used.NextCalls {
				t.Errorf("lead %v: factor %d's searches made %d Next calls, their stats say %d", lead, st.Factors[i], r.Used.NextCalls, got)
			}
		}
	}
	p := New(Options{Lead: 0.9, MCTS: mcts.Options{Iterations: 1000}})
	start(t, p, net, 0, 1)
	if got := p.lead(); got != 0 {
		t.Errorf("with MCTS.Iterations: lead %v, want 0", got)
	}
}
