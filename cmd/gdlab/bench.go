package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"sync"
	"time"

	"gdlab/engine/game"
	"gdlab/engine/propnet"
)

func init() {
	register("bench", command{"measure random playouts per second of a reasoner", runBench})
}

// benchChunk is how many joint moves a propnet playout plays between two
// looks at the clock, so that a game that never ends cannot overrun.
const benchChunk = 1024

func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench", "FILE [--seconds S] [--threads N] [--machine NAME] [--seed S]", stderr)
	seconds := fs.Float64("seconds", 5, "measuring time in seconds")
	threads := fs.Int("threads", 1, "goroutines playing at once, each with its own simulator")
	machine := fs.String("machine", "propnet", "reasoner: "+machineNames())
	seed := fs.Uint64("seed", 1, "seed of the first goroutine's move choices (goroutine i uses seed+i)")
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(files) != 1 {
		return usageError(fs, "need exactly one rulesheet")
	}
	if *seconds <= 0 || *threads < 1 {
		return usageError(fs, "need --seconds > 0 and --threads >= 1")
	}
	build, ok := machines[*machine]
	if !ok {
		return fmt.Errorf("unknown machine %q (have %s)", *machine, machineNames())
	}
	d, err := parseGame(files[0], stderr)
	if err != nil {
		return err
	}
	start := time.Now()
	m, err := build(d)
	if err != nil {
		return err
	}
	buildTime := time.Since(start)
	r, err := measure(ctx, m, time.Duration(*seconds*float64(time.Second)), *threads, *seed)
	if err != nil {
		return err
	}
	sec := r.elapsed.Seconds()
	fmt.Fprintf(stdout, "game      %s (%s)\n", gameKey(files[0]), files[0])
	fmt.Fprintf(stdout, "machine   %s, %d thread(s)\n", *machine, *threads)
	fmt.Fprintf(stdout, "build     %v\n", buildTime.Round(time.Microsecond))
	fmt.Fprintf(stdout, "state     %s\n", stateSize(m))
	fmt.Fprintf(stdout, "playouts  %d in %.2f s: %.0f playouts/s\n", r.playouts, sec, float64(r.playouts)/sec)
	fmt.Fprintf(stdout, "states    %d: %.0f states/s, %.1f joint moves per playout\n",
		r.steps, float64(r.steps)/sec, float64(r.steps)/float64(max(r.playouts, 1)))
	return nil
}

// stateSize describes how large a state of m is.
func stateSize(m game.Machine) string {
	switch mm := m.(type) {
	case lanesMachine:
		return flatSize(mm.Flat)
	case *propnet.Flat:
		return flatSize(mm)
	}
	if net, ok := m.(*propnet.Net); ok {
		st := net.Stats()
		return fmt.Sprintf("%d bytes (bitset of %d base propositions); network of %d ANDs, %d ORs, %d links",
			st.StateBytes, st.Bases, st.Optimized.Ands, st.Optimized.Ors, st.Optimized.Links)
	}
	return fmt.Sprintf("%d facts in the initial state", len(m.Initial().Facts()))
}

// flatSize describes the straight-line code of a network.
func flatSize(f *propnet.Flat) string {
	st := f.Stats()
	state, move, goal := f.Gates()
	return fmt.Sprintf("%d bytes (bitset of %d base propositions); straight-line code of %d gates a state, %d a joint move, %d for goals",
		st.StateBytes, st.Bases, state, move, goal)
}

// benchResult is what the goroutines of one measurement played together.
type benchResult struct {
	playouts, steps int
	elapsed         time.Duration
}

// measure runs random playouts from the initial state to a terminal state,
// reading the goals at the end, on threads goroutines for d, and counts the
// playouts completed within d. A propnet, differential or straight-line,
// plays through one simulator per goroutine, the lanes machine through one
// Lanes per goroutine, any other machine through game.Playout.
func measure(ctx context.Context, m game.Machine, d time.Duration, threads int, seed uint64) (benchResult, error) {
	start := time.Now()
	ctx, cancel := context.WithDeadline(ctx, start.Add(d))
	defer cancel()
	results := make([]benchResult, threads)
	errs := make([]error, threads)
	var wg sync.WaitGroup
	for i := range threads {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := game.NewRand(seed + uint64(i))
			switch mm := m.(type) {
			case *propnet.Net:
				results[i], errs[i] = simPlayouts(ctx, mm.NewSim(), rng)
			case *propnet.Flat:
				results[i], errs[i] = simPlayouts(ctx, mm.NewFlatSim(), rng)
			case lanesMachine:
				results[i], errs[i] = lanePlayouts(ctx, mm.NewLanes(), rng)
			default:
				results[i], errs[i] = machinePlayouts(ctx, m, rng)
			}
		}()
	}
	wg.Wait()
	total := benchResult{elapsed: time.Since(start)}
	for i, r := range results {
		if errs[i] != nil {
			return total, errs[i]
		}
		total.playouts += r.playouts
		total.steps += r.steps
	}
	if total.playouts == 0 {
		return total, fmt.Errorf("no playout finished within %v", d)
	}
	if err := ctx.Err(); err != nil && err != context.DeadlineExceeded {
		return total, err // interrupted
	}
	return total, nil
}

// resetSim is a network's simulator, which returns to the initial state.
type resetSim interface {
	game.Simulator
	Reset()
}

// simPlayouts plays propnet playouts until ctx ends, counting those that
// reached a terminal state.
func simPlayouts(ctx context.Context, sim resetSim, rng *rand.Rand) (benchResult, error) {
	var r benchResult
	goals := make([]int, 0, 8)
	for ctx.Err() == nil {
		sim.Reset()
		steps := 0
		for {
			n, err := sim.Playout(rng, benchChunk)
			if err != nil {
				return r, err
			}
			steps += n
			if term, _ := sim.Terminal(); term || ctx.Err() != nil {
				break
			}
		}
		if term, _ := sim.Terminal(); !term {
			break
		}
		goals, _ = sim.Goals(goals)
		r.playouts++
		r.steps += steps
	}
	return r, nil
}

// lanePlayouts streams playouts on 64 lanes until ctx ends, counting those
// that reached a terminal state, goals read.
func lanePlayouts(ctx context.Context, l *propnet.Lanes, rng *rand.Rand) (benchResult, error) {
	var r benchResult
	for ctx.Err() == nil {
		n, steps, err := l.Stream(ctx, rng, laneChunk, func([]int) {})
		r.playouts += n
		r.steps += steps
		if err != nil && ctx.Err() == nil {
			return r, err
		}
	}
	return r, nil
}

// laneChunk is how many playouts one Stream call plays: many times the
// lanes, since a stream drops the playouts still running when it ends.
const laneChunk = 64 * propnet.LaneCount

// machinePlayouts plays playouts through the Machine interface until ctx
// ends; the one ctx cuts short is not counted.
func machinePlayouts(ctx context.Context, m game.Machine, rng *rand.Rand) (benchResult, error) {
	var r benchResult
	for {
		p, err := game.Playout(ctx, m, m.Initial(), rng, 0)
		if ctx.Err() != nil {
			return r, nil
		}
		if err != nil {
			return r, err
		}
		r.playouts++
		r.steps += p.Steps
	}
}
