package mcts

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gdlab/engine/game"
	"gdlab/engine/propnet/propnettest"
	"gdlab/engine/search"
)

// TestPowerOneIsPlainUCT: with p = 1 the power-mean backup makes the same
// choices as plain UCT, bit for bit, on seeded searches through a game (the
// tree kept from move to move), on turn-taking, simultaneous and
// three-player games; and every correction it computes is exactly zero.
func TestPowerOneIsPlainUCT(t *testing.T) {
	cases := []struct {
		game    string
		threads int
	}{{"ticTacToe", 1}, {"connectFour", 1}, {"connectFour", 2}, {"blocker", 1}, {"threePlayerConnectFour", 1}}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/%d-threads", c.game, c.threads), func(t *testing.T) {
			net := propnettest.Curated(t, c.game)
			plain := started(t, net, 0, Options{Iterations: 1500, Threads: c.threads}, 7)
			power := started(t, net, 0, Options{Iterations: 1500, Threads: c.threads, PowerMean: 1}, 7)
			rng := rand.New(rand.NewPCG(3, 4))
			s := net.Initial()
			for step := 0; step < 6; step++ {
				if over, _ := net.Terminal(s); over {
					break
				}
				a, _, err := plain.Play(context.Background(), s, search.Budget{})
				if err != nil {
					t.Fatal(err)
				}
				b, _, err := power.Play(context.Background(), s, search.Budget{})
				if err != nil {
					t.Fatal(err)
				}
				if a != b {
					t.Fatalf("step %d: plain UCT plays %s, p = 1 plays %s", step, net.MoveText(0, a), net.MoveText(0, b))
				}
				ra, rb := plain.Root(0), power.Root(0)
				for i := range ra {
					if ra[i] != rb[i] {
						t.Fatalf("step %d: root move %d: plain %+v, p = 1 %+v", step, i, ra[i], rb[i])
					}
				}
				for id := range power.t.nodes {
					if nd := &power.t.nodes[id]; nd.live {
						for r, d := range nd.delta {
							if d != 0 {
								t.Fatalf("step %d: node %d role %d: correction %g at p = 1", step, id, r, d)
							}
						}
					}
				}
				s = advance(t, net, s, 0, a, rng)
			}
		})
	}
}

// advance plays role's move and random moves for the other roles.
func advance(t *testing.T, m game.Machine, s game.State, role int, mv game.Move, rng *rand.Rand) game.State {
	t.Helper()
	legal, err := game.LegalAll(m, s)
	if err != nil {
		t.Fatal(err)
	}
	joint := make([]game.Move, len(legal))
	for r := range legal {
		joint[r] = legal[r][rng.IntN(len(legal[r]))]
	}
	if mv != game.NoMove {
		joint[role] = mv
	}
	next, err := m.Next(s, joint)
	if err != nil {
		t.Fatal(err)
	}
	return next
}

// TestPowerNodeValues checks one node's corrections against the formulas:
// the chooser's value is the visit-weighted power mean of its moves'
// values (a move's value its plain mean plus its child's correction), the
// other role's its plain mean less the chooser's gain; in this constant-sum
// node, as p grows both follow the chooser's best move.
func TestPowerNodeValues(t *testing.T) {
	visits := []int64{5, 3, 2}
	sums := [2][]float64{{250, 240, 40}, {250, 60, 160}} // plain means 50, 80, 20 and 50, 20, 80
	childDelta := [2][]float64{{4, -10, 0}, {-4, 10, 0}}
	for _, p := range []float64{1, 2, 8, 300} {
		tr := &tree{roles: 2, opt: Options{PowerMean: p}}
		nd := node{chooser: 0, moves: [][]game.Move{{0, 1, 2}, {0}}}
		tr.initStats(&nd)
		for i, n := range visits {
			nd.n[0][i], nd.nj[i] = n, n
			nd.n[1][0] += n
			for r := 0; r < 2; r++ {
				nd.wj[r][i] = sums[r][i]
			}
			nd.w[0][i] = sums[0][i]
			nd.w[1][0] += sums[1][i]
			child := node{chooser: 1, moves: [][]game.Move{{0}, {0, 1}}}
			tr.initStats(&child)
			child.delta[0], child.delta[1] = childDelta[0][i], childDelta[1][i]
			tr.nodes = append(tr.nodes, child)
			nd.children[i] = int32(i)
		}
		tr.updateDelta(&nd)

		var total float64
		for _, n := range visits {
			total += float64(n)
		}
		q := [2][]float64{}
		weights := []float64{}
		for i, n := range visits {
			weights = append(weights, float64(n)/total)
			for r := 0; r < 2; r++ {
				q[r] = append(q[r], sums[r][i]/float64(n)+childDelta[r][i])
			}
		}
		var am float64
		for i := range weights {
			am += weights[i] * q[0][i]
		}
		want0 := powerMean(weights, q[0], p, am)
		if p > 1 { // the formula itself, unscaled
			var s float64
			for i := range weights {
				s += weights[i] * math.Pow(q[0][i]/100, p)
			}
			if direct := 100 * math.Pow(s, 1/p); p < 100 && math.Abs(direct-want0) > 1e-9 {
				t.Errorf("p = %g: powerMean %.9f, the formula %.9f", p, want0, direct)
			}
		}
		// The other role loses what the chooser gains over its plain mean.
		var lin1 float64
		for i := range weights {
			lin1 += weights[i] * q[1][i]
		}
		want1 := lin1 - (want0 - am)
		got0, got1 := tr.powerValue(&nd, 0), tr.powerValue(&nd, 1)
		if math.Abs(got0-want0) > 1e-9 || math.Abs(got1-want1) > 1e-9 {
			t.Errorf("p = %g: values %.6f, %.6f; want %.6f, %.6f", p, got0, got1, want0, want1)
		}
		if p == 300 {
			// The chooser's best move is the second: 80−10 = 70 for it, 20+10 = 30 for the other.
			if math.Abs(got0-70) > 1 || math.Abs(got1-30) > 1 {
				t.Errorf("p = 300: values %.3f, %.3f; want about the best move's 70, 30", got0, got1)
			}
		}
	}
}

// TestPowerRefusesSmallP: p below 1 (other than 0, off) is refused.
func TestPowerRefusesSmallP(t *testing.T) {
	net := propnettest.Curated(t, "ticTacToe")
	for _, p := range []float64{0.5, -1, math.Inf(1), math.NaN()} {
		if err := New(Options{PowerMean: p}).Start(context.Background(), search.Setup{Machine: net}); err == nil {
			t.Errorf("PowerMean %g accepted", p)
		}
	}
}

// TestPowerCloserToExact: on Tic-Tac-Toe positions after a few seeded
// random moves, the root value for the side to move is nearer the exact
// game value with p = 8 than with p = 1 (the plain mean), on average over
// the positions, at equal iterations: the power mean corrects the mean's
// pessimism about the mover's own choices.
func TestPowerCloserToExact(t *testing.T) {
	net := propnettest.Curated(t, "ticTacToe")
	memo := map[uint64][]float64{}
	var err1, err8 float64
	positions := 0
	for seed := uint64(1); seed <= 12; seed++ {
		rng := rand.New(rand.NewPCG(seed, 1))
		s := net.Initial()
		for k := 0; k < 1+int(seed%4); k++ {
			s = advance(t, net, s, 0, game.NoMove, rng)
		}
		if over, _ := net.Terminal(s); over {
			continue
		}
		legal, _ := game.LegalAll(net, s)
		mover := 0
		if len(legal[1]) > 1 {
			mover = 1
		}
		want := exact(t, net, s, memo)[mover]
		value := func(p float64) float64 {
			pl := started(t, net, mover, Options{Iterations: 4000, PowerMean: p}, seed)
			if _, _, err := pl.Play(context.Background(), s, search.Budget{}); err != nil {
				t.Fatal(err)
			}
			return pl.t.powerValue(&pl.t.nodes[pl.t.root], mover)
		}
		err1 += math.Abs(value(1) - want)
		err8 += math.Abs(value(8) - want)
		positions++
	}
	t.Logf("%d positions: mean error of the root value %.2f at p = 1, %.2f at p = 8", positions, err1/float64(positions), err8/float64(positions))
	if err8 >= err1 {
		t.Errorf("p = 8 is no nearer the exact values than p = 1: %.2f against %.2f", err8/float64(positions), err1/float64(positions))
	}
}

// TestPowerContinuousAtOne: just above p = 1 every correction is small, as
// the power mean is continuous in p; a backup whose weights jump at a zero
// value (a reply that lost its one playout) fails this with corrections
// of tens of points.
func TestPowerContinuousAtOne(t *testing.T) {
	for _, name := range []string{"connectFour", "blocker"} {
		net := propnettest.Curated(t, name)
		pl := started(t, net, 0, Options{Iterations: 3000, PowerMean: 1 + 1e-9}, 7)
		if _, _, err := pl.Play(context.Background(), net.Initial(), search.Budget{}); err != nil {
			t.Fatal(err)
		}
		worst := 0.0
		for id := range pl.t.nodes {
			for _, d := range pl.t.nodes[id].delta {
				worst = math.Max(worst, math.Abs(d))
			}
		}
		if worst > 1e-3 {
			t.Errorf("%s: a correction of %g at p = 1 + 1e-9", name, worst)
		}
	}
}

// powerValue returns role r's power value of nd: its plain mean plus its
// correction (the plain mean alone when the backup is off or nothing has
// passed through nd).
func (t *tree) powerValue(nd *node, r int) float64 {
	var total, sum float64
	for i := range nd.moves[r] {
		total += float64(nd.n[r][i])
		sum += nd.w[r][i]
	}
	if total == 0 {
		return 0
	}
	v := sum / total
	if nd.delta != nil {
		v += nd.delta[r]
	}
	return v
}
