package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"gdlab/engine/game"
)

func init() {
	register("replay", command{"replay recorded traces through a reasoner and report agreement", runReplay})
}

func runReplay(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("replay", "TRACES.jsonl --rules FILE.kif [--machine NAME]", stderr)
	rules := fs.String("rules", "", "the game's rulesheet (required)")
	machine := fs.String("machine", "prover", "reasoner to check: "+machineNames())
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || *rules == "" {
		return usageError(fs, "need one trace file and --rules")
	}
	m, err := loadMachine(*machine, *rules, stderr)
	if err != nil {
		return err
	}
	f, err := os.Open(pos[0])
	if err != nil {
		return err
	}
	defer f.Close()
	traces, err := game.ReadTraces(f)
	if err != nil {
		return fmt.Errorf("%s: %w", pos[0], err)
	}
	failed := 0
	for _, tr := range traces {
		d, err := game.Replay(ctx, m, tr)
		switch {
		case err != nil:
			failed++
			fmt.Fprintf(stdout, "%s seed %d: error: %v\n", tr.Game, tr.Seed, err)
		case d != nil:
			failed++
			fmt.Fprintf(stdout, "%s seed %d: disagrees at %v\n", tr.Game, tr.Seed, d)
		default:
			fmt.Fprintf(stdout, "%s seed %d: agrees (%d steps)\n", tr.Game, tr.Seed, len(tr.Steps))
		}
	}
	fmt.Fprintf(stdout, "%d of %d traces agree\n", len(traces)-failed, len(traces))
	if failed > 0 {
		return exitError{1}
	}
	return nil
}
