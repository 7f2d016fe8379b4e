package propnet_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"testing"
	"time"

	"gdlab/engine/game"
	"gdlab/engine/game/gametest"
	"gdlab/engine/gdl"
	"gdlab/engine/propnet"
	"gdlab/engine/propnet/propnettest"
)

// flatGames are the games the straight-line simulator's contract test
// plays in -short mode; other runs play diffSample.
var flatGames = []string{"ticTacToe", "connectFour", "breakthrough", "reversi", "hex", "roshambo2", "hanoi"}

// TestFlat holds the straight-line machine to the contract (gametest.Conform,
// its simulator included) and to the prover (gametest.Differ on seeded
// matches); TestFlatTraces holds it to the recorded traces.
func TestFlat(t *testing.T) {
	dir := sharedDir(t)
	keys := diffSample
	if testing.Short() {
		keys = flatGames
	}
	for _, key := range keys {
		t.Run(key, func(t *testing.T) {
			t.Parallel()
			net, err := buildNet(dir, key)
			if err != nil {
				// Too large, or too slow to build on a loaded machine:
				// the network's own tests cover building it.
				t.Skipf("the network cannot: %v", err)
			}
			f, err := propnet.NewFlat(net)
			if err != nil {
				t.Fatal(err)
			}
			gametest.Conform(t, f, 3, 40)
			if err := flatDiffer(dir, key, f); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestFlatTraces replays the golden traces through the straight-line
// machine, as TestTraces does through the network: every game's, or under
// -short and GDLAB_QUICK (where TestTraces already replays the corpus)
// those of diffSample.
func TestFlatTraces(t *testing.T) {
	var only []string
	if testing.Short() || os.Getenv("GDLAB_QUICK") != "" {
		only = diffSample
	}
	traceAll(t, only, func(net *propnet.Net) (game.Machine, error) { return propnet.NewFlat(net) })
}

// flatDiffer plays two seeded matches of the prover against f.
func flatDiffer(dir, key string, f *propnet.Flat) error {
	d, err := gdl.ParseFile(kifPath(dir, key))
	if err != nil {
		return err
	}
	pr, err := loadProver(d, buildTimeout)
	if err != nil {
		return nil // the prover cannot: nothing to compare with
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for seed := int64(1); seed <= 2; seed++ {
		_, dis, err := gametest.Differ(ctx, pr, f, seed, 200)
		switch {
		case errors.Is(err, gametest.ErrReference), ctx.Err() != nil:
			return nil
		case err != nil:
			return err
		case dis != nil:
			return fmt.Errorf("seed %d: %v", seed, dis)
		}
	}
	return nil
}

// TestFlatGoalAllocatesNothing: reading a goal through the machine costs
// no allocation, as a searcher reads one at every terminal it meets.
func TestFlatGoalAllocatesNothing(t *testing.T) {
	net := propnettest.Load(t, kifPath(sharedDir(t), "ticTacToe"))
	f, err := propnet.NewFlat(net)
	if err != nil {
		t.Fatal(err)
	}
	s := f.Initial() // play the first legal moves to the end
	for {
		done, err := f.Terminal(s)
		if err != nil {
			t.Fatal(err)
		}
		if done {
			break
		}
		joint := []game.Move{}
		for r := range f.Roles() {
			ms, err := f.Legal(s, r, nil)
			if err != nil {
				t.Fatal(err)
			}
			joint = append(joint, ms[0])
		}
		if s, err = f.Next(s, joint); err != nil {
			t.Fatal(err)
		}
	}
	allocs := testing.AllocsPerRun(100, func() {
		if _, err := f.Goal(s, 0); err != nil {
			t.Fatal(err)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per Goal", allocs)
	}
}
