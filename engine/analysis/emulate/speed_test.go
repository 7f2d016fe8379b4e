package emulate

import (
	"context"
	"os"
	"testing"
	"time"

	"gdlab/datasets"
	"gdlab/engine/game"
	"gdlab/engine/propnet"
	"gdlab/engine/propnet/propnettest"
)

// emulated builds a curated game's network and its emulating machine.
func emulated(t testing.TB, name string) (*propnet.Net, *Machine) {
	t.Helper()
	net := propnettest.Curated(t, name)
	em, err := Analyze(context.Background(), net, nil, Options{Verify: VerifyOptions{Matches: 50}, Heuristic: VerifyOptions{Matches: 10}})
	if err != nil {
		t.Fatal(err)
	}
	g, _ := datasets.Game(name)
	d, _ := g.Description()
	m, err := NewMachine(context.Background(), d, em, propnet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return net, m
}

// BenchmarkEmulatedPlayout measures single-thread random playouts from the
// initial state with every goal read at the end, on the full network
// (goals from its goal logic) and on the emulating machine (network
// without goal rules, goals counted).
func BenchmarkEmulatedPlayout(b *testing.B) {
	for _, name := range []string{"reversi", "reversiSmall", "dotsAndBoxes"} {
		net, m := emulated(b, name)
		for _, side := range []string{"full", "emulated"} {
			b.Run(name+"/"+side, func(b *testing.B) {
				var sim *propnet.Sim
				if side == "full" {
					sim = net.NewSim()
				} else {
					sim = m.Net().NewSim()
				}
				rng := game.NewRand(1)
				goals := make([]int, 0, 4)
				b.ReportAllocs()
				for b.Loop() {
					sim.Reset()
					if _, err := sim.Playout(rng, 0); err != nil {
						b.Fatal(err)
					}
					if side == "full" {
						goals, _ = sim.Goals(goals)
					} else {
						goals = m.SimGoals(sim, goals)
					}
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "playouts/s")
			})
		}
	}
}

// TestEmulatedSpeed measures reversi side by side (GDLAB_SPEED=1; the
// figures depend on the machine, so the test only logs them and checks
// that emulation is not slower).
func TestEmulatedSpeed(t *testing.T) {
	if os.Getenv("GDLAB_SPEED") == "" {
		t.Skip("set GDLAB_SPEED=1 to measure playout speed with and without goal emulation")
	}
	net, m := emulated(t, "reversi")
	ps, err := MeasurePlayouts(context.Background(), net, m, 4*time.Second, 1)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("reversi: %.0f playouts/s full, %.0f emulated, ratio %.2f (%d rounds)", ps.Full, ps.Emulated, ps.Ratio, ps.Rounds)
	if ps.Ratio < 1 {
		t.Errorf("emulation is slower: ratio %.2f", ps.Ratio)
	}
}

func TestEmulatedPlayoutAllocs(t *testing.T) {
	_, m := emulated(t, "dotsAndBoxes")
	sim := m.Net().NewSim()
	rng := game.NewRand(1)
	goals := make([]int, 0, 4)
	allocs := testing.AllocsPerRun(20, func() {
		sim.Reset()
		sim.Playout(rng, 0)
		goals = m.SimGoals(sim, goals)
	})
	if allocs != 0 {
		t.Errorf("%.1f allocations per emulated playout, want 0", allocs)
	}
}
