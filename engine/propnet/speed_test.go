package propnet_test

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"gdlab/engine/game"
	"gdlab/engine/propnet"
)

// threadCPU returns the CPU time the calling OS thread has used.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	const rusageThread = 1 // RUSAGE_THREAD on Linux
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestSpeedReport prints playouts per CPU second of one thread, which a busy
// machine distorts less than wall-clock rates. Set GDLAB_SPEED=1 to run it.
func TestSpeedReport(t *testing.T) {
	if os.Getenv("GDLAB_SPEED") == "" {
		t.Skip("set GDLAB_SPEED=1 to measure playout rates")
	}
	dir := sharedDir(t)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	only := os.Getenv("GDLAB_SPEED_GAMES")
	for _, g := range benchGames {
		if only != "" && !strings.Contains(","+only+",", ","+g.key+",") {
			continue
		}
		net, err := propnet.Load(context.Background(), kifPath(dir, g.key), propnet.Options{})
		if err != nil {
			t.Fatal(err)
		}
		sim := net.NewSim()
		rng := game.NewRand(1)
		var goals []int
		n, steps := 0, 0
		cpu0, wall0 := threadCPU(), time.Now()
		for threadCPU()-cpu0 < time.Second {
			for i := 0; i < 50; i++ {
				sim.Reset()
				k, err := sim.Playout(rng, 0)
				if err != nil {
					t.Fatal(err)
				}
				steps += k
				goals = sim.Goals(goals)
				n++
			}
		}
		cpu := (threadCPU() - cpu0).Seconds()
		wall := time.Since(wall0).Seconds()
		st := net.Stats()
		ratio := "         "
		if g.sancho > 0 {
			ratio = fmt.Sprintf("(%4.2fx)", float64(n)/cpu/g.sancho)
		}
		t.Logf("%-18s %9.0f playouts/cpu-s %s %9.0f states/cpu-s  wall %9.0f/s  build %v (ground %v)  state %dB",
			g.key, float64(n)/cpu, ratio, float64(steps)/cpu, float64(n)/wall, st.TotalTime.Round(time.Millisecond), st.GroundTime.Round(time.Millisecond), st.StateBytes)
		t.Logf("%-18s raw %+v", "", st.Raw)
		t.Logf("%-18s opt %+v", "", st.Optimized)
	}
}
