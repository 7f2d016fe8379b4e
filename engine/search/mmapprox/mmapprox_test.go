package mmapprox

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"testing"
	"time"

	"gdlab/engine/game"
	"gdlab/engine/heuristic"
	"gdlab/engine/search"
	"gdlab/engine/search/playertest"
	"gdlab/engine/search/searchtest"
)

func TestMean(t *testing.T) {
	xs := []float64{1, 2, 4}
	cases := []struct {
		p, want float64
	}{
		{1, 7.0 / 3},
		{0, 2},
		{2, math.Sqrt(21.0 / 3)},
		{-1, 3 / (1 + 0.5 + 0.25)},
		{1e6, 4},
		{-1e6, 1},
	}
	for _, c := range cases {
		if got := Mean(c.p, xs); math.Abs(got-c.want) > 1e-4*c.want {
			t.Errorf("M_%g = %g, want %g", c.p, got, c.want)
		}
	}
	// The derivative against a central difference.
	for _, p := range []float64{-10, -1, 0, 1, 3, 10} {
		for i := range xs {
			h := 1e-6
			up, down := slices.Clone(xs), slices.Clone(xs)
			up[i] += h
			down[i] -= h
			num := (Mean(p, up) - Mean(p, down)) / (2 * h)
			if got := MeanDerivative(p, xs, i); math.Abs(got-num) > 1e-5 {
				t.Errorf("p=%g: ∂M/∂x_%d = %g, numerically %g", p, i, got, num)
			}
			if w := Weight(p, xs, i); math.Abs(w+math.Log(MeanDerivative(p, xs, i))) > 1e-9 {
				t.Errorf("p=%g: Weight %g is not −ln D", p, w)
			}
		}
	}
}

// exampleGame is an explicit game tree: node 0 is the root, max moves at
// even depths and min at odd ones, and eval gives every node's static value.
type exampleGame struct {
	kids  [][]int
	eval  []float64
	depth []int
}

type exState int

func (s exState) Facts() []string          { return []string{fmt.Sprintf("(node %d)", int(s))} }
func (s exState) Hash() uint64             { return uint64(s) }
func (s exState) Equal(o game.State) bool  { return o.(exState) == s }
func (g *exampleGame) Roles() []string     { return []string{"max", "min"} }
func (g *exampleGame) Initial() game.State { return exState(0) }
func (g *exampleGame) mover(s exState) int { return g.depth[s] % 2 }
func (g *exampleGame) Terminal(s game.State) (bool, error) {
	return len(g.kids[s.(exState)]) == 0, nil
}
func (g *exampleGame) Goal(s game.State, role int) (int, error) {
	v := int(g.eval[s.(exState)])
	if role == 1 {
		v = 100 - v
	}
	return v, nil
}
func (g *exampleGame) Legal(s game.State, role int, dst []game.Move) ([]game.Move, error) {
	dst = dst[:0]
	n := s.(exState)
	if g.mover(n) != role {
		return append(dst, 0), nil
	}
	for k := range g.kids[n] {
		dst = append(dst, game.Move(k))
	}
	return dst, nil
}
func (g *exampleGame) Next(s game.State, joint []game.Move) (game.State, error) {
	n := s.(exState)
	return exState(g.kids[n][joint[g.mover(n)]]), nil
}
func (g *exampleGame) MoveText(role int, m game.Move) string { return fmt.Sprintf("(m %d)", m) }
func (g *exampleGame) ParseMove(role int, text string) (game.Move, error) {
	var m int
	_, err := fmt.Sscanf(text, "(m %d)", &m)
	return game.Move(m), err
}

// newExample builds the tree from parent links.
func newExample(parents []int, eval []float64) *exampleGame {
	g := &exampleGame{kids: make([][]int, len(parents)), eval: eval, depth: make([]int, len(parents))}
	for i, p := range parents {
		if p >= 0 {
			g.kids[p] = append(g.kids[p], i)
			g.depth[i] = g.depth[p] + 1
		}
	}
	return g
}

func (g *exampleGame) Evaluate(m game.Machine, s game.State, role int) (float64, error) {
	return g.eval[s.(exState)], nil
}

// bruteTip recomputes, independently of the player, the values (with
// math.Pow), weights and penalties of the tree formed by the first nodes
// of g that a search with the given expansions has created, and returns the
// root's child weights and the expandable tip of least penalty.
func bruteTip(g *exampleGame, p, penalty float64, expanded map[int]bool) ([]float64, int) {
	var val func(n int) float64
	val = func(n int) float64 {
		if !expanded[n] {
			return g.eval[n] + 1
		}
		q := p
		if g.depth[n]%2 == 1 {
			q = -p
		}
		sum := 0.0
		for _, c := range g.kids[n] {
			sum += math.Pow(val(c), q)
		}
		return math.Pow(sum/float64(len(g.kids[n])), 1/q)
	}
	weight := func(n, c int) float64 {
		q := p
		if g.depth[n]%2 == 1 {
			q = -p
		}
		k := float64(len(g.kids[n]))
		return -math.Log(math.Pow(val(c)/val(n), q-1)/k) + penalty
	}
	best, bestPen := -1, math.Inf(1)
	var walk func(n int, pen float64)
	walk = func(n int, pen float64) {
		if !expanded[n] {
			if len(g.kids[n]) > 0 && pen < bestPen {
				best, bestPen = n, pen
			}
			return
		}
		for _, c := range g.kids[n] {
			walk(c, pen+weight(n, c))
		}
	}
	walk(0, 0)
	var ws []float64
	for _, c := range g.kids[0] {
		ws = append(ws, weight(0, c))
	}
	return ws, best
}

// TestWorkedExample follows the paper's worked example in shape: a small
// tree searched with p = 10, expansion by expansion, and checks the root's
// weights and the tip chosen next against an independent computation,
// without and with a constant edge penalty.
func TestWorkedExample(t *testing.T) {
	for _, penalty := range []float64{0, 0.5, 2, 5} {
		workedExample(t, penalty)
	}
}

func workedExample(t *testing.T, penalty float64) {
	//          0
	//   1      2     3          max to move at 0
	//  4  5   6 7   8 9         min at 1..3
	//  16    10 11 12 13        max at 4..9 (4 has a single move)
	// 17 18     14 15           min at 10..13 and 16
	parents := []int{-1, 0, 0, 0, 1, 1, 2, 2, 3, 3, 7, 7, 8, 8, 11, 11, 4, 16, 16}
	eval := []float64{50, 30, 45, 60, 20, 50, 55, 35, 70, 65, 40, 30, 80, 60, 10, 90, 20, 15, 40}
	g := newExample(parents, eval)
	const p = 10
	pl := &Player{Eval: g, P: p, Penalty: penalty}
	if err := pl.Start(context.Background(), search.Setup{Machine: g, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	// Play with growing Next budgets; the root's moves keep their order
	// because the seed is the same and Start is repeated.
	var prevCalls int64 = -1
	lone := false // whether the single-move node 4 was expanded
	for calls := int64(3); calls <= 20; calls++ {
		if err := pl.Start(context.Background(), search.Setup{Machine: g, Seed: 1}); err != nil {
			t.Fatal(err)
		}
		_, rep, err := pl.Play(context.Background(), g.Initial(), search.Budget{NextCalls: calls})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Used.NextCalls == prevCalls {
			continue
		}
		prevCalls = rep.Used.NextCalls
		expanded := map[int]bool{}
		order := map[int]int{} // example node -> position among root children
		for i := range pl.t.nodes {
			n := &pl.t.nodes[i]
			id := int(n.state.(exState))
			if n.expanded() {
				expanded[id] = true
			}
			if n.parent == 0 {
				order[id] = i - int(pl.t.nodes[0].first)
			}
		}
		lone = lone || expanded[16]
		wantW, wantTip := bruteTip(g, p, penalty, expanded)
		gotW, _ := pl.Weights()
		for k, c := range g.kids[0] {
			if got := gotW[order[c]]; math.Abs(got-wantW[k]) > 1e-9*math.Max(1, math.Abs(wantW[k])) {
				t.Errorf("penalty %g, after %d calls: weight of node %d = %.12g, want %.12g", penalty, rep.Used.NextCalls, c, got, wantW[k])
			}
		}
		if pl.Shape().Solved {
			if wantTip != -1 {
				t.Errorf("penalty %g, after %d calls: solved, but tip %d is expandable", penalty, rep.Used.NextCalls, wantTip)
			}
			break
		}
		i := int32(0)
		for pl.t.nodes[i].expanded() {
			i = pl.t.nodes[i].best
		}
		if got := int(pl.t.nodes[i].state.(exState)); got != wantTip {
			t.Errorf("penalty %g, after %d calls: next tip %d, want %d", penalty, rep.Used.NextCalls, got, wantTip)
		}
	}
	if prevCalls < 9 || !lone {
		t.Errorf("penalty %g: searched only %d calls, single-move node expanded: %v", penalty, prevCalls, lone)
	}
}

// TestWorkedExampleFirstStep checks the first step by hand: with evaluations
// 30, 45, 60 under the root (positive values 31, 46, 61), p = 10 gives the
// weights −ln((1/3)(x_i/M)^9), and the tip under 60 is expanded next.
func TestWorkedExampleFirstStep(t *testing.T) {
	g := newExample([]int{-1, 0, 0, 0, 1, 1, 2, 2, 3, 3}, []float64{50, 30, 45, 60, 20, 50, 55, 35, 70, 65})
	pl := &Player{Eval: g, P: 10}
	if err := pl.Start(context.Background(), search.Setup{Machine: g, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := pl.Play(context.Background(), g.Initial(), search.Budget{NextCalls: 3}); err != nil {
		t.Fatal(err)
	}
	m := math.Pow((math.Pow(31, 10)+math.Pow(46, 10)+math.Pow(61, 10))/3, 0.1)
	ws, best := pl.Weights()
	for k, n := range pl.t.nodes[1:4] {
		x := g.eval[n.state.(exState)] + 1
		want := -math.Log(math.Pow(x/m, 9) / 3)
		if math.Abs(ws[k]-want) > 1e-9 {
			t.Errorf("weight of %v = %g, want %g", n.state.Facts(), ws[k], want)
		}
	}
	if id := pl.t.nodes[1+best].state.(exState); id != 3 {
		t.Errorf("next tip under node %d, want 3", id)
	}
	if sh := pl.Shape(); sh.Nodes != 4 || sh.Expanded != 1 || sh.Depths[1] != 3 {
		t.Errorf("shape %+v", sh)
	}
}

// TestConform runs the shared player contract; unbounded moves grow whole
// tic-tac-toe trees through the prover, so it takes a minute or two.
func TestConform(t *testing.T) {
	if testing.Short() {
		t.Skip("slow: whole tic-tac-toe trees through the prover")
	}
	playertest.Conform(t, func() search.Player { return &Player{P: 2, Reverse: true, Penalty: 0.5} })
}

// TestMinimaxMove: with a very large p (or reverse approximation) and no
// budget, the tree grows to the end of the game and the chosen move is a
// minimax move.
func TestMinimaxMove(t *testing.T) {
	ctx := context.Background()
	boards := []string{"x.o.o.x..", "xo.ox....", "xx.oo....", "x..o.x...", "xo..x..o."}
	for _, board := range boards {
		m, err := searchtest.TicTacToe(board)
		if err != nil {
			t.Fatal(err)
		}
		s := m.Initial()
		role := 0
		if legal, _ := m.Legal(s, 0, nil); len(legal) == 1 {
			role = 1
		}
		values := map[game.Move]float64{}
		best := -1.0
		legal, _ := m.Legal(s, role, nil)
		for _, mv := range legal {
			joint := []game.Move{0, 0}
			other, _ := m.Legal(s, 1-role, nil)
			joint[role], joint[1-role] = mv, other[0]
			ns, _ := m.Next(s, joint)
			v, _, err := search.MinimaxValue(ctx, m, ns, role, 20, nil, search.Budget{})
			if err != nil {
				t.Fatal(err)
			}
			values[mv] = v
			best = math.Max(best, v)
		}
		for _, pl := range []*Player{{P: 1e6}, {P: 1, Reverse: true}, {P: 1e12, Reverse: true}} {
			if err := pl.Start(ctx, search.Setup{Machine: m, Role: role, Seed: 5}); err != nil {
				t.Fatal(err)
			}
			mv, rep, err := pl.Play(ctx, s, search.Budget{})
			if err != nil {
				t.Fatal(err)
			}
			if !pl.Shape().Solved {
				t.Errorf("%s %s: tree not solved", board, pl.Name())
			}
			if values[mv] != best {
				t.Errorf("%s %s: chose %s worth %g, minimax %g (report %+v)", board, pl.Name(), m.MoveText(role, mv), values[mv], best, rep)
			}
			if pl.Reverse && (rep.Value != best || !rep.Complete) {
				t.Errorf("%s %s: value %g complete %v, want %g", board, pl.Name(), rep.Value, rep.Complete, best)
			}
		}
	}
}

// TestBudgets: Next-call budgets are never exceeded and are spent in full
// when the tree is not solved first; node budgets likewise.
func TestBudgets(t *testing.T) {
	m, err := searchtest.Game("ttt")
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, b := range []search.Budget{{NextCalls: 1}, {NextCalls: 10}, {NextCalls: 100}, {NextCalls: 1000}, {Nodes: 5}, {Nodes: 50}} {
		pl := &Player{P: 10, Eval: heuristic.Constant{Value: 50}}
		meter := search.NewCounter(ctx, m, search.Budget{})
		if err := pl.Start(ctx, search.Setup{Machine: meter, Seed: 2}); err != nil {
			t.Fatal(err)
		}
		_, rep, err := pl.Play(ctx, m.Initial(), b)
		if err != nil {
			t.Fatal(err)
		}
		u := rep.Used
		if seen := meter.Used().NextCalls; seen != u.NextCalls {
			t.Errorf("budget %+v: reported %d Next calls, made %d", b, u.NextCalls, seen)
		}
		if (b.NextCalls > 0 && u.NextCalls > b.NextCalls) || (b.Nodes > 0 && u.Nodes > b.Nodes) {
			t.Errorf("budget %+v: used %+v", b, u)
		}
		if b.NextCalls > 9 && u.NextCalls < b.NextCalls-9 {
			t.Errorf("budget %+v: used only %+v", b, u)
		}
	}
}

// TestCancel: a cancelled context and a time budget stop the search at once.
func TestCancel(t *testing.T) {
	m, err := searchtest.Game("ttt")
	if err != nil {
		t.Fatal(err)
	}
	pl := &Player{P: 10}
	if err := pl.Start(context.Background(), search.Setup{Machine: m, Seed: 2}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	mv, rep, err := pl.Play(ctx, m.Initial(), search.Budget{})
	if err != nil || mv == game.NoMove || rep.Stopped != search.StopCancelled {
		t.Errorf("cancelled: move %v report %+v err %v", mv, rep, err)
	}
	ctx, cancel = context.WithTimeout(context.Background(), 5*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, rep, err = pl.Play(ctx, m.Initial(), search.Budget{})
	if took := time.Since(start); took > 100*time.Millisecond || err != nil {
		t.Errorf("deadline: took %v, report %+v, err %v", took, rep, err)
	}
	if !errors.Is(ctx.Err(), context.DeadlineExceeded) && !pl.Shape().Solved {
		t.Errorf("search ended before its deadline without solving")
	}
}

// TestTreeShape: small p grows broader, shallower trees than large p.
func TestTreeShape(t *testing.T) {
	m, err := searchtest.Game("ttt")
	if err != nil {
		t.Fatal(err)
	}
	depth := map[float64]float64{}
	for _, p := range []float64{1, 50} {
		pl := &Player{P: p, Eval: heuristic.Mobility{}}
		if err := pl.Start(context.Background(), search.Setup{Machine: m, Seed: 2}); err != nil {
			t.Fatal(err)
		}
		if _, _, err := pl.Play(context.Background(), m.Initial(), search.Budget{NextCalls: 300}); err != nil {
			t.Fatal(err)
		}
		sh := pl.Shape()
		depth[p] = sh.MeanTipDepth
		if len(sh.PV) == 0 || sh.Nodes > 301 || sh.Nodes < 290 {
			t.Errorf("p=%g: shape %+v", p, sh)
		}
	}
	if depth[1] >= depth[50] {
		t.Errorf("mean tip depth %v: p=1 not shallower than p=50", depth)
	}
}
