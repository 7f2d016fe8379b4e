package mcts

import (
	"context"
	"reflect"
	"testing"
	"time"

	"gdlab/engine/game"
	"gdlab/engine/propnet"
	"gdlab/engine/propnet/propnettest"
	"gdlab/engine/search"
)

// TestLeafBatchOneIsDefault: LeafBatch 1 is the search without the option,
// bit for bit (TestZeroOptionsGolden holds that one to its record).
func TestLeafBatchOneIsDefault(t *testing.T) {
	if got, want := goldenCases(t, Options{LeafBatch: 1}), goldenCases(t, Options{}); !reflect.DeepEqual(got, want) {
		t.Fatal("LeafBatch 1 searched otherwise than the default search")
	}
}

// TestLeafBatchLeafValue: with LeafBatch n, a leaf's value is the mean of
// the goals of the n playouts game.Playouts runs from its state with the
// leaf's generator (on the network, whose simulator has no batches, n
// playouts one after another; on the straight-line machine, one batch on
// lanes), its Next calls are theirs and it counts n playouts.
func TestLeafBatchLeafValue(t *testing.T) {
	net := propnettest.Curated(t, "connectFour")
	f, err := propnet.NewFlat(net)
	if err != nil {
		t.Fatal(err)
	}
	s := play(t, net, net.Initial(), []string{"(drop 4)", "noop"}, []string{"noop", "(drop 3)"}, []string{"(drop 4)", "noop"})
	for _, m := range []game.Machine{net, f} {
		const n, seed = 37, 5
		p := started(t, m, 0, Options{LeafBatch: n}, 1)
		l := &leaf{state: s, seed: seed}
		p.t.work[0].run(l)
		if l.err != nil {
			t.Fatal(l.err)
		}
		// The same playouts, on a simulator of the same history.
		sim := game.NewSimulator(m)
		if err := sim.SetState(s); err != nil {
			t.Fatal(err)
		}
		// The worker seeds its generator as NewRand does.
		goals, steps, err := game.Playouts(sim, game.NewRand(seed), n, 1000, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := make([]float64, 2)
		for i, g := range goals {
			want[i%2] += float64(g)
		}
		want[0], want[1] = want[0]/n, want[1]/n
		if !reflect.DeepEqual(l.result, want) || l.steps != steps || l.playouts != n {
			t.Errorf("%T: leaf value %v after %d joint moves and %d playouts; the mean of its %d playouts is %v, after %d",
				m, l.result, l.steps, l.playouts, n, want, steps)
		}
	}
}

// TestLeafBatchSwitchPlayouts: under switch 4 a batch is that many of the
// switch's own (guided) playouts, one after another, not plain ones.
func TestLeafBatchSwitchPlayouts(t *testing.T) {
	net := propnettest.Load(t, "testdata/duel.kif")
	const n = 8
	p := started(t, net, 0, Options{LeafBatch: n, LatchPlayout: true}, 1)
	w := p.t.work[0]
	l := &leaf{state: net.Initial(), seed: 3}
	w.run(l)
	if l.err != nil {
		t.Fatal(l.err)
	}
	w.pcg.Seed(3, 0x9e3779b97f4a7c15)
	want, steps := make([]float64, 2), 0
	for i := 0; i < n; i++ {
		if err := w.sim.SetState(net.Initial()); err != nil {
			t.Fatal(err)
		}
		k, err := w.playout()
		if err != nil {
			t.Fatal(err)
		}
		steps += k
		for r, g := range w.goals {
			want[r] += float64(max(g, 0))
		}
	}
	want[0], want[1] = want[0]/n, want[1]/n
	if !reflect.DeepEqual(l.result, want) || l.steps != steps {
		t.Errorf("leaf value %v after %d joint moves; %d guided playouts give %v after %d", l.result, l.steps, n, want, steps)
	}
}

// TestLeafBatchFlat: with batches of 64 on the straight-line machine the
// search proves tic-tac-toe's initial position a draw (TestFlatMachine
// has it find a win and a block) and plays legal moves through a Connect
// Four match, on one tree and on two, counting 64 playouts a leaf played
// out.
func TestLeafBatchFlat(t *testing.T) {
	f := flatOf(t, "ticTacToe")
	p := started(t, f, 0, Options{LeafBatch: 64, Iterations: 400000}, 3)
	if _, err := p.Search(context.Background(), f.Initial(), search.Budget{Nodes: 200000}); err != nil {
		t.Fatal(err)
	}
	if st := p.LastStats(); !st.RootSolved || st.RootValue[0] != 50 || st.RootValue[1] != 50 {
		t.Errorf("root solved %v value %v, want the draw proved", st.RootSolved, st.RootValue)
	}
	c4 := flatOf(t, "connectFour")
	for _, threads := range []int{1, 2} {
		p := started(t, c4, 0, Options{LeafBatch: 64, Iterations: 60, Threads: threads}, 9)
		playsLegal(t, c4, p, 4, 60, func(legal []game.Move) {
			if st := p.LastStats(); len(legal) > 1 && (st.Playouts%64 != 0 || st.Playouts == 0 || st.Playouts > 64*st.Iterations) {
				t.Fatalf("%d playouts in %d iterations of 64 playouts each", st.Playouts, st.Iterations)
			}
		})
	}
}

// TestLeafBatchBudgets: under batches every limit holds as without them:
// the iteration limit counts leaves exactly (one tree, root parallelism
// and a shared tree), node budgets stop within a node or two, a Next-call
// budget stops once reached, passed by no more than the last leaves'
// playouts, and a time budget stops in time.
func TestLeafBatchBudgets(t *testing.T) {
	f := flatOf(t, "breakthroughSmall")
	for _, opt := range []Options{{}, {Threads: 2}, {Threads: 2, SharedTree: true}} {
		opt.LeafBatch, opt.Iterations = 64, 57
		p := started(t, f, 0, opt, 1)
		if _, err := p.Search(context.Background(), f.Initial(), search.Budget{}); err != nil {
			t.Fatal(err)
		}
		if st := p.LastStats(); st.Iterations != 57 || st.Playouts != 64*57 {
			t.Errorf("%+v: %d iterations and %d playouts, want 57 and 57·64", opt, st.Iterations, st.Playouts)
		}
	}
	p := started(t, f, 0, Options{LeafBatch: 64}, 1)
	_, rep, _ := p.Play(context.Background(), f.Initial(), search.Budget{Nodes: 100})
	if rep.Stopped != search.StopNodes || rep.Used.Nodes < 100 || rep.Used.Nodes > 102 {
		t.Errorf("node budget 100: stopped by %q after %d nodes", rep.Stopped, rep.Used.Nodes)
	}
	// A breakthroughSmall playout lasts well under 200 joint moves.
	_, rep, _ = p.Play(context.Background(), f.Initial(), search.Budget{NextCalls: 20000})
	if rep.Stopped != search.StopNextCalls || rep.Used.NextCalls < 20000 || rep.Used.NextCalls > 20000+64*200 {
		t.Errorf("Next budget 20000: stopped by %q after %d calls", rep.Stopped, rep.Used.NextCalls)
	}
	start := time.Now()
	_, rep, _ = p.Play(context.Background(), f.Initial(), search.Budget{Time: 30 * time.Millisecond})
	if d := time.Since(start); rep.Stopped != search.StopTime || d > 500*time.Millisecond {
		t.Errorf("time budget: stopped by %q after %v", rep.Stopped, d)
	}
	for _, bad := range []int{-1, game.MaxBatch + 1} {
		if err := New(Options{LeafBatch: bad}).Start(context.Background(), search.Setup{Machine: f}); err == nil {
			t.Errorf("LeafBatch %d accepted", bad)
		}
	}
}
