package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"gdlab/engine/game"
)

func init() {
	register("play", command{"play a seeded random match and print it", runPlay})
	register("trace", command{"record a seeded random match as one line of the shared trace format", runTrace})
}

func runPlay(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("play", "FILE [--seed S] [--steps N] [--machine NAME]", stderr)
	seed := fs.Int64("seed", 1, "seed of the random move choices")
	steps := fs.Int("steps", 200, "stop after this many joint moves")
	machine := fs.String("machine", "prover", "reasoner: "+machineNames())
	tr, err := recordFromFlags(ctx, fs, args, seed, steps, machine)
	if err != nil {
		return err
	}
	printMatch(stdout, tr)
	return nil
}

func runTrace(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("trace", "FILE [--seed S] [--steps N] [--machine NAME]", stderr)
	seed := fs.Int64("seed", 1, "seed of java.util.Random, as the shared traces use it")
	steps := fs.Int("steps", 200, "cap on joint moves (the shared traces use 200)")
	machine := fs.String("machine", "prover", "reasoner: "+machineNames())
	tr, err := recordFromFlags(ctx, fs, args, seed, steps, machine)
	if err != nil {
		return err
	}
	return game.WriteTrace(stdout, tr)
}

// recordFromFlags parses the shared flags of play and trace and records the match.
func recordFromFlags(ctx context.Context, fs *flag.FlagSet, args []string, seed *int64, steps *int, machine *string) (*game.Trace, error) {
	files, err := parseFlags(fs, args)
	if err != nil {
		return nil, err
	}
	if len(files) != 1 {
		return nil, usageError(fs, "need exactly one rulesheet")
	}
	if *steps < 1 {
		return nil, usageError(fs, "--steps must be at least 1")
	}
	m, err := loadMachine(*machine, files[0], fs.Output())
	if err != nil {
		return nil, err
	}
	return game.Record(ctx, m, gameKey(files[0]), *seed, game.RecordOptions{MaxSteps: *steps})
}

// printMatch prints a match for people: each step's joint move, then the
// final state and goals.
func printMatch(w io.Writer, tr *game.Trace) {
	fmt.Fprintf(w, "game %s, seed %d, roles %s\n", tr.Game, tr.Seed, strings.Join(tr.Roles, " "))
	for i, st := range tr.Steps {
		if st.Joint != nil {
			fmt.Fprintf(w, "%3d. %s\n", i+1, strings.Join(st.Joint, "  "))
		}
	}
	last := tr.Steps[len(tr.Steps)-1]
	fmt.Fprintf(w, "final state:\n  %s\n", strings.Join(last.State, "\n  "))
	if !tr.Complete {
		fmt.Fprintf(w, "stopped after %d moves without reaching a terminal state\n", len(tr.Steps)-1)
	}
	for r, role := range tr.Roles {
		g := "none"
		if last.Goals[r] >= 0 {
			g = fmt.Sprint(last.Goals[r])
		}
		fmt.Fprintf(w, "goal %s: %s\n", role, g)
	}
}

// gameKey names a game after its rulesheet's file name, as the corpus does.
func gameKey(path string) string {
	return strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
}
