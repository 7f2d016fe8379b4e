package propnet_test

import (
	"context"
	"math"
	"slices"
	"testing"

	"gdlab/engine/game"
	"gdlab/engine/propnet"
	"gdlab/engine/propnet/propnettest"
)

// batchGames are the curated games the batch tests play: turn-taking ones
// of several sizes, a simultaneous one (blocker) and one of three roles.
var batchGames = []string{"ticTacToe", "connectFour", "breakthroughSmall", "blocker", "threePlayerConnectFour"}

// midStates returns k states of m, state i reached by (i+1)·plies seeded
// random joint moves from the initial state (seed i), or one fewer than
// the game lasts: states a search meets, none terminal.
func midStates(t *testing.T, m game.Machine, k, plies int) []game.State {
	t.Helper()
	var out []game.State
	for i := 0; i < k; i++ {
		play := func(steps int) game.PlayoutResult {
			res, err := game.Playout(context.Background(), m, m.Initial(), game.NewRand(uint64(100+i)), steps)
			if err != nil {
				t.Fatal(err)
			}
			return res
		}
		res := play((i + 1) * plies)
		if res.Terminal {
			res = play(res.Steps - 1) // the same draws, one move short
		}
		out = append(out, res.Final)
	}
	return out
}

// curatedFlat builds the curated game key's network and its straight-line
// machine.
func curatedFlat(t *testing.T, key string) (*propnet.Net, *propnet.Flat) {
	t.Helper()
	net := propnettest.Curated(t, key)
	f, err := propnet.NewFlat(net)
	if err != nil {
		t.Fatal(err)
	}
	return net, f
}

// TestLanesFromState: lanes put at a mid-game state (Lanes.SetState) all
// hold it, and stepped one joint move at a time from there every lane's
// state follows from its previous one by a legal joint move until it is
// terminal or has played the step limit (checked exactly against the
// network, as TestLanes does from the initial state). A FlatSim's batch
// of 64 from the same state with the same seed plays the same lanes: its
// goals are those the lanes end with, its joint moves those the lanes
// played, and its own state does not change.
func TestLanesFromState(t *testing.T) {
	for _, key := range batchGames {
		t.Run(key, func(t *testing.T) {
			net, f := curatedFlat(t, key)
			sim := f.NewFlatSim()
			for i, s := range midStates(t, net, 2, 6) {
				limit := 0
				if i == 1 {
					limit = 3 // lanes cut short by the step limit
				}
				if err := sim.SetState(s); err != nil {
					t.Fatal(err)
				}
				got, steps, err := sim.Playouts(game.NewRand(uint64(i)), propnet.LaneCount, limit, nil)
				if err != nil {
					t.Fatal(err)
				}
				if !sim.State().Equal(s) {
					t.Fatalf("state %d: Playouts changed the simulator's state", i)
				}
				want, wantSteps := stepLanes(t, net, f.NewLanes(), s, uint64(i), limit)
				if !slices.Equal(got, want) || steps != wantSteps {
					t.Fatalf("state %d: the batch gave goals %v in %d joint moves; its lanes, stepped, end with %v in %d",
						i, got, steps, want, wantSteps)
				}
			}
		})
	}
}

// stepLanes puts l at s and plays it from there with seed's generator,
// one joint move at a time, checking every lane's every step (checkStep),
// until every lane is terminal or has played limit joint moves when
// limit > 0. It checks that every lane ends terminal or at the limit and
// returns the lanes' goals, lane after lane, with the joint moves played.
func stepLanes(t *testing.T, m game.Machine, l *propnet.Lanes, s game.State, seed uint64, limit int) ([]int, int) {
	t.Helper()
	if err := l.SetState(s); err != nil {
		t.Fatal(err)
	}
	prev := make([]game.State, propnet.LaneCount)
	for i := range prev {
		if prev[i] = laneState(t, l, i); !prev[i].Equal(s) {
			t.Fatalf("lane %d is not at the state SetState gave", i)
		}
	}
	rng := game.NewRand(seed)
	var played [propnet.LaneCount]int
	total := 0
	for step := 0; limit <= 0 || step < limit; step++ {
		active := 0
		for i := range played {
			if !l.Terminal(i) {
				played[i]++
				active++
			}
		}
		if active == 0 {
			break
		}
		n, err := l.Playouts(rng, 1)
		if err != nil {
			t.Fatal(err)
		}
		if n != active {
			t.Fatalf("step %d: %d joint moves played by %d lanes not terminal", step, n, active)
		}
		total += n
		checkStep(t, m, l, prev, step)
	}
	var goals []int
	for i, k := range played {
		if !l.Terminal(i) && k != limit {
			t.Fatalf("lane %d stopped after %d joint moves, neither terminal nor at the limit %d", i, k, limit)
		}
		goals = append(goals, l.Goals(i, nil)...)
	}
	return goals, total
}

// TestBatchMeans: from the initial state and mid-game states of every
// batch game, the mean goals of a FlatSim's batches (of 40 playouts, so
// that lanes stay idle) agree per role with those of as many playouts of
// the network's differential simulator, within four standard errors of
// the difference of two independent means. The states are chosen so that
// the test can fail: in every game some state's mean lies more than twice
// that bound from the initial state's, which batches that ignored the
// state would give.
func TestBatchMeans(t *testing.T) {
	const batch, batches = 40, 52
	for _, key := range batchGames {
		t.Run(key, func(t *testing.T) {
			net, f := curatedFlat(t, key)
			roles := len(net.Roles())
			flat, ref := f.NewFlatSim(), net.NewSimulator()
			states := append([]game.State{net.Initial()}, midStates(t, net, 3, 8)...)
			var initial []sample
			informative := false
			for i, s := range states {
				if err := flat.SetState(s); err != nil {
					t.Fatal(err)
				}
				var bs []int
				for k := 0; k < batches; k++ {
					g, _, err := game.Playouts(flat, game.NewRand(uint64(1000*i+k)), batch, 0, nil)
					if err != nil {
						t.Fatal(err)
					}
					bs = append(bs, g...)
				}
				ss := scalarGoals(t, ref, s, uint64(i), batch*batches)
				for r := 0; r < roles; r++ {
					b, sc := sampleOf(bs, roles, r), sampleOf(ss, roles, r)
					if d, tol := math.Abs(b.mean-sc.mean), 4*b.se(sc); d > tol {
						t.Errorf("state %d, role %d: batch mean %.2f, scalar %.2f: differ by %.2f, more than %.2f", i, r, b.mean, sc.mean, d, tol)
					}
					if i == 0 {
						initial = append(initial, sc)
					} else if math.Abs(sc.mean-initial[r].mean) > 8*sc.se(initial[r]) {
						informative = true
					}
				}
			}
			if !informative {
				t.Fatal("no state's mean stands apart from the initial state's: the test could not tell batches that ignore the state")
			}
		})
	}
}

// scalarGoals plays n playouts from s on sim, one at a time, and returns
// their goals, playout after playout.
func scalarGoals(t *testing.T, sim game.Simulator, s game.State, seed uint64, n int) []int {
	t.Helper()
	rng := game.NewRand(seed)
	var out []int
	for k := 0; k < n; k++ {
		if err := sim.SetState(s); err != nil {
			t.Fatal(err)
		}
		if _, err := sim.Playout(rng, 0); err != nil {
			t.Fatal(err)
		}
		g, err := sim.Goals(nil)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, g...)
	}
	return out
}

// sample is the mean and variance of one role's goals over playouts.
type sample struct {
	mean, variance float64
	n              int
}

// sampleOf returns role's sample from goals laid out role by role, playout
// after playout.
func sampleOf(goals []int, roles, role int) sample {
	var sum, sq float64
	n := len(goals) / roles
	for i := 0; i < n; i++ {
		g := float64(goals[i*roles+role])
		sum += g
		sq += g * g
	}
	mean := sum / float64(n)
	return sample{mean: mean, variance: max(sq/float64(n)-mean*mean, 0) * float64(n) / float64(n-1), n: n}
}

// se is the standard error of the difference of a's and b's means.
func (a sample) se(b sample) float64 {
	return math.Sqrt(a.variance/float64(a.n) + b.variance/float64(b.n))
}

// TestFlatSimPlayoutsErrors: batches of fewer than 1 or more than 64
// playouts are refused.
func TestFlatSimPlayoutsErrors(t *testing.T) {
	_, f := curatedFlat(t, "ticTacToe")
	sim := f.NewFlatSim()
	for _, n := range []int{0, propnet.LaneCount + 1} {
		if _, _, err := sim.Playouts(game.NewRand(1), n, 0, nil); err == nil {
			t.Errorf("a batch of %d did not fail", n)
		}
	}
	if err := f.NewLanes().SetState(propnettest.Curated(t, "ticTacToe").Initial()); err == nil {
		t.Errorf("SetState of another network's state did not fail")
	}
}

// TestFlatSimPlayoutsAllocatesNothing: after its first batch (which makes
// the lanes), a FlatSim's batch allocates nothing into a buffer large
// enough.
func TestFlatSimPlayoutsAllocatesNothing(t *testing.T) {
	net, f := curatedFlat(t, "connectFour")
	sim := f.NewFlatSim()
	s := midStates(t, net, 1, 6)[0]
	if err := sim.SetState(s); err != nil {
		t.Fatal(err)
	}
	rng := game.NewRand(1)
	dst := make([]int, 0, 2*propnet.LaneCount)
	if _, _, err := sim.Playouts(rng, propnet.LaneCount, 0, dst); err != nil {
		t.Fatal(err)
	}
	if a := testing.AllocsPerRun(20, func() { sim.Playouts(rng, propnet.LaneCount, 0, dst) }); a != 0 {
		t.Errorf("%v allocations a batch", a)
	}
}
