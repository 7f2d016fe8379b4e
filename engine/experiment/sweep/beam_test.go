package sweep

import (
	"context"
	"syscall"
	"testing"
	"time"

	"gdlab/engine/analysis/latch"
	"gdlab/engine/game"
	"gdlab/engine/heuristic"
	"gdlab/engine/search"
)

// idle is a player that waits before each move: units of idle players
// leave the cores free, so what the process burns is the runner's own.
type idle struct{ search.Legal }

func (p *idle) Play(ctx context.Context, s game.State, b search.Budget) (game.Move, search.Report, error) {
	time.Sleep(40 * time.Millisecond)
	return p.Legal.Play(ctx, s, b)
}

// cpuTime is the process's user and system time so far.
func cpuTime(t *testing.T) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestPrismIdlesWhileUnitsPlay: while the embedded runner waits for units
// whose players do nothing, the process uses a small part of one core.
// Prism waits for a stage whose output no other stage reads in a loop that
// spins, a core per running bundle (see playFn.ProcessElement): this
// sweep then used more CPU time than wall time.
func TestPrismIdlesWhileUnitsPlay(t *testing.T) {
	kinds["idle"] = kind{make: func(params, heuristic.Evaluator, *latch.Analysis) search.Player { return &idle{} }}
	defer delete(kinds, "idle")
	spec := func(seeds int) *Spec {
		return &Spec{Name: "idle", Games: []string{"ticTacToe"}, Seeds: seeds, Seed: 1,
			Players: []PlayerSpec{{Kind: "idle"}, {Label: "other", Kind: "idle"}}}
	}
	ctx := context.Background()
	if _, err := Run(ctx, spec(1), Options{Runner: RunnerPrism}); err != nil { // starts the runner
		t.Fatal(err)
	}
	cpu0, wall0 := cpuTime(t), time.Now()
	if _, err := Run(ctx, spec(8), Options{Runner: RunnerPrism}); err != nil {
		t.Fatal(err)
	}
	cpu, wall := cpuTime(t)-cpu0, time.Since(wall0)
	t.Logf("8 idle units: %v of CPU in %v", cpu.Round(time.Millisecond), wall.Round(time.Millisecond))
	if cpu > wall/2 {
		t.Errorf("the runner used %v of CPU in %v of idle units (more than half a core)", cpu.Round(time.Millisecond), wall.Round(time.Millisecond))
	}
}
