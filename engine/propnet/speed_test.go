package propnet_test

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"
	"sync"
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
// machine distorts less than wall-clock rates, and the same summed over one
// thread per core running at once (thread scaling). Set GDLAB_SPEED=1 to
// run it; GDLAB_SPEED_GAMES=a,b limits it to some games.
func TestSpeedReport(t *testing.T) {
	if os.Getenv("GDLAB_SPEED") == "" {
		t.Skip("set GDLAB_SPEED=1 to measure playout rates")
	}
	dir := sharedDir(t)
	only := os.Getenv("GDLAB_SPEED_GAMES")
	for _, g := range benchGames {
		if only != "" && !strings.Contains(","+only+",", ","+g.key+",") {
			continue
		}
		net, err := propnet.Load(context.Background(), kifPath(dir, g.key), propnet.Options{})
		if err != nil {
			t.Fatal(err)
		}
		r := cpuRate(t, net, 1)
		st := net.Stats()
		ratio := "         "
		if g.sancho > 0 {
			ratio = fmt.Sprintf("(%4.2fx)", r.playouts/g.sancho)
		}
		t.Logf("%-18s %9.0f playouts/cpu-s %s %9.0f states/cpu-s  wall %9.0f/s  build %v (ground %v)  state %dB",
			g.key, r.playouts, ratio, r.states, r.wall, st.TotalTime.Round(time.Millisecond), st.GroundTime.Round(time.Millisecond), st.StateBytes)
		t.Logf("%-18s raw %+v", "", st.Raw)
		t.Logf("%-18s opt %+v", "", st.Optimized)
		if n := runtime.NumCPU(); n > 1 {
			p := cpuRate(t, net, n)
			t.Logf("%-18s %d threads: %9.0f playouts/cpu-s each, %.2fx one thread's rate together (wall %9.0f/s)",
				"", n, p.playouts/float64(n), p.playouts/r.playouts, p.wall)
		}
	}
}

// rate is what cpuRate measured.
type rate struct {
	playouts, states float64 // per CPU second of a thread, summed over threads
	wall             float64 // playouts per wall-clock second, all threads
}

// cpuRate runs playouts on threads goroutines, each locked to its OS thread
// with its own simulator, until each has used a second of CPU. Summing the
// per-thread rates gives what the threads would do together on as many
// otherwise idle cores, sharing caches and memory as they do here.
func cpuRate(t *testing.T, net *propnet.Net, threads int) rate {
	runtime.GC() // not during the measurement: the build leaves garbage
	rates := make([]rate, threads)
	errs := make(chan error, threads)
	wall0 := time.Now()
	var wg sync.WaitGroup
	for i := range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			sim := net.NewSim()
			rng := game.NewRand(uint64(i + 1))
			var goals []int
			n, steps := 0, 0
			play := func(d time.Duration) error {
				cpu0 := threadCPU()
				for threadCPU()-cpu0 < d {
					for range 50 {
						sim.Reset()
						k, err := sim.Playout(rng, 0)
						if err != nil {
							return err
						}
						steps += k
						goals, _ = sim.Goals(goals)
						n++
					}
				}
				return nil
			}
			if err := play(200 * time.Millisecond); err != nil { // warm the caches
				errs <- err
				return
			}
			n, steps = 0, 0
			cpu0 := threadCPU()
			if err := play(time.Second); err != nil {
				errs <- err
				return
			}
			cpu := (threadCPU() - cpu0).Seconds()
			rates[i] = rate{playouts: float64(n) / cpu, states: float64(steps) / cpu, wall: float64(n)}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	var sum rate
	for _, r := range rates {
		sum.playouts += r.playouts
		sum.states += r.states
		sum.wall += r.wall
	}
	sum.wall /= time.Since(wall0).Seconds()
	return sum
}
