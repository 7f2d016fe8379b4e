package propnet_test

import (
	"context"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"testing"
	"time"

	"gdlab/engine/game"
	"gdlab/engine/propnet"
	"gdlab/engine/propnet/internal/bitboard"
	"gdlab/engine/propnet/internal/draw"
	"gdlab/engine/propnet/native"
)

// variant plays at least block playouts from the initial state, goals read
// at the end, and returns how many it played.
type variant struct {
	name string
	run  func(rng *rand.Rand, block int) (int, error)
}

// blockSize is the playouts of one variant's turn: one Lanes call.
const blockSize = propnet.LaneCount

// BenchmarkSimulators compares the differential simulator (Sim) with the
// straight-line ones: one playout on the generic kernel (flat-generic) and
// on the specialised kernels (flat), 64 lanes a word without pseudo-nodes
// (lanes-dense), with them and a counter per lane (lanes-scalar), with
// bit-sliced counters (lanes-sliced), by rejection (lanes-rejection),
// with the default draw that picks one of those at each step (lanes),
// streaming (stream), and the last two with the gates compiled natively
// (native, native-stream: package native); and on
// connectFour and
// breakthrough with the hand-written bitboard simulator. Each iteration
// (a round) gives every variant in turn blockCPU of its thread's CPU time
// (see threadCPU), which a shared machine distorts less than wall time, so
// that all see the same machine load. It reports the medians over rounds
// of each variant's playouts per CPU second, of its rate over Sim's in
// the same round (x-sim) and, where there is one, of its rate over the
// bitboard's (x-ceiling).
func BenchmarkSimulators(b *testing.B) {
	for _, g := range benchGames {
		b.Run(g.key, func(b *testing.B) {
			net := loadBench(b, g.key)
			start := time.Now()
			vs, err := variants(net, g.key)
			if err != nil {
				b.Fatal(err)
			}
			b.ReportMetric(float64(time.Since(start).Microseconds())/1000, "variants-build-ms")
			b.ReportMetric(float64(net.Stats().TotalTime.Microseconds())/1000, "net-build-ms")
			rng := game.NewRand(1)
			rates := make([][]float64, len(vs))
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			b.ResetTimer()
			for b.Loop() {
				for i, v := range vs {
					r, err := cpuBlockRate(v, rng)
					if err != nil {
						b.Fatal(err)
					}
					rates[i] = append(rates[i], r)
				}
			}
			reportVariants(b, vs, rates)
		})
	}
}

// blockCPU is the CPU time of one variant's turn: well above the
// granularity of a thread's CPU clock.
const blockCPU = 100 * time.Millisecond

// cpuBlockRate runs blocks of v until the thread has used blockCPU and
// returns v's playouts per CPU second.
func cpuBlockRate(v variant, rng *rand.Rand) (float64, error) {
	start, n := threadCPU(), 0
	for threadCPU()-start < blockCPU {
		k, err := v.run(rng, blockSize)
		if err != nil {
			return 0, err
		}
		n += k
	}
	return float64(n) / (threadCPU() - start).Seconds(), nil
}

func reportVariants(b *testing.B, vs []variant, rates [][]float64) {
	ceil := -1
	for i, v := range vs {
		if v.name == "bitboard" {
			ceil = i
		}
	}
	for i, v := range vs {
		b.ReportMetric(median(rates[i], nil), v.name+"-playouts/cpu-s")
		if i > 0 && v.name != "bitboard" {
			b.ReportMetric(median(rates[i], rates[0]), v.name+"-x-sim")
		}
		if ceil >= 0 && i != ceil {
			b.ReportMetric(median(rates[i], rates[ceil]), v.name+"-x-ceiling")
		}
	}
}

// median returns the median over rounds of r[k]/base[k], or of r[k] when
// base is nil.
func median(r, base []float64) float64 {
	q := make([]float64, len(r))
	for k := range r {
		q[k] = r[k]
		if base != nil {
			q[k] /= base[k]
		}
	}
	slices.Sort(q)
	if n := len(q); n%2 == 0 {
		return (q[n/2-1] + q[n/2]) / 2
	}
	return q[len(q)/2]
}

// variants returns the simulators to compare, Sim first.
func variants(net *propnet.Net, key string) ([]variant, error) {
	f, err := propnet.NewFlat(net)
	if err != nil {
		return nil, err
	}
	dense, err := f.NewLanesDense()
	if err != nil {
		return nil, err
	}
	vs := []variant{
		{"sim", simBlock(net.NewSim())},
		{"flat-generic", simBlock(f.NewFlatSimGeneric())},
		{"flat", simBlock(f.NewFlatSim())},
		{"lanes-dense", lanesBlock(dense)},
		{"lanes-scalar", lanesBlock(f.NewLanesScalar())},
		{"lanes-sliced", lanesBlock(f.NewLanesSliced())},
		{"lanes-rejection", lanesBlock(f.NewLanesRejection())},
		{"lanes", lanesBlock(f.NewLanes())},
		{"stream", streamBlock(f.NewLanes())},
	}
	nf, _, err := native.Load(context.Background(), f, native.Options{})
	if err != nil {
		return nil, err
	}
	vs = append(vs, variant{"native", lanesBlock(nf.NewLanes())}, variant{"native-stream", streamBlock(nf.NewLanes())})
	switch key {
	case "connectFour":
		var g bitboard.ConnectFour
		vs = append(vs, bitboardVariant(func(src *draw.Source) {
			g.Reset()
			g.Playout(src)
		}))
	case "breakthrough":
		var g bitboard.Breakthrough
		vs = append(vs, bitboardVariant(func(src *draw.Source) {
			g.Reset()
			g.Playout(src)
		}))
	}
	return vs, nil
}

// bitboardVariant runs playout, which plays one bitboard playout, drawing
// from a draw.Source on the round's generator.
func bitboardVariant(playout func(*draw.Source)) variant {
	var src *draw.Source
	return variant{"bitboard", func(rng *rand.Rand, n int) (int, error) {
		if src == nil {
			src = draw.NewSource(rng)
		}
		for range n {
			playout(src)
		}
		return n, nil
	}}
}

// resetter is a simulator that returns to the initial state.
type resetter interface {
	game.Simulator
	Reset()
}

func simBlock(sim resetter) func(*rand.Rand, int) (int, error) {
	goals := make([]int, 0, 8)
	return func(rng *rand.Rand, n int) (int, error) {
		for range n {
			sim.Reset()
			if _, err := sim.Playout(rng, 0); err != nil {
				return 0, err
			}
			goals, _ = sim.Goals(goals)
		}
		return n, nil
	}
}

func lanesBlock(l *propnet.Lanes) func(*rand.Rand, int) (int, error) {
	goals := make([]int, 0, 8)
	return func(rng *rand.Rand, n int) (int, error) {
		k := 0
		for ; k < n; k += propnet.LaneCount {
			l.Reset()
			if _, err := l.Playouts(rng, 0); err != nil {
				return 0, err
			}
			for i := range propnet.LaneCount {
				goals = l.Goals(i, goals)
			}
		}
		return k, nil
	}
}

// streamBlock streams streamSize playouts a call, reading every goal: a
// stream drops the playouts still running when it ends, so it needs many
// more than there are lanes.
func streamBlock(l *propnet.Lanes) func(*rand.Rand, int) (int, error) {
	sum := 0
	record := func(goals []int) { sum += goals[0] }
	return func(rng *rand.Rand, _ int) (int, error) {
		n, _, err := l.Stream(context.Background(), rng, streamSize, record)
		return n, err
	}
}

const streamSize = 32 * propnet.LaneCount

// TestFlatSize prints, per benchmark game, the straight-line code's gates
// and the time NewFlat takes beside the network's build. Set GDLAB_SPEED=1
// to run it.
func TestFlatSize(t *testing.T) {
	if os.Getenv("GDLAB_SPEED") == "" {
		t.Skip("set GDLAB_SPEED=1 to print the straight-line code's size")
	}
	dir := sharedDir(t)
	for _, g := range benchGames {
		net, err := buildNet(dir, g.key)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		f, err := propnet.NewFlat(net)
		if err != nil {
			t.Fatal(err)
		}
		took := time.Since(start)
		s, m, gl := f.Gates()
		t.Logf("%-18s gates a state %6d, a joint move %6d, for goals %6d; NewFlat %v (network build %v)",
			g.key, s, m, gl, took.Round(10*time.Microsecond), net.Stats().TotalTime.Round(time.Millisecond))
	}
}
