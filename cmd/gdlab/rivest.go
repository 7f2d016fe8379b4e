package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"gdlab/engine/experiment/rivest"
)

func init() {
	register("rivest", command{"run Rivest's Connect Four experiment (min/max approximation vs alpha-beta)", runRivest})
}

func runRivest(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("rivest", "[--openings N] [--seed S] [--step D] [--p P] [--sweep P,P,...] [--reverse] [--workers W] [--out DIR]", stderr)
	openings := fs.Int("openings", 49, "openings per bound, two games each (49: Rivest's full setup)")
	seed := fs.Uint64("seed", 1, "base seed: the game from opening o with MM in seat c has match seed heuristic.Mix(seed + 2o + c)")
	step := fs.Duration("step", 5*time.Millisecond, "time bounds are 1..5 × step per move")
	p := fs.Float64("p", 10, "MM's p in the main tables")
	sweep := fs.String("sweep", "1,2,5,10,20,50,1e6", "the p values of the sweep, separated by commas")
	reverse := fs.Bool("reverse", false, "MM uses reverse approximation")
	workers := fs.Int("workers", 0, "games at once (0: GOMAXPROCS)")
	out := fs.String("out", "datasets/results", "directory for the result tables")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) > 0 {
		return usageError(fs, "no positional arguments")
	}
	ps, err := parsePs(*sweep)
	if err != nil {
		return usageError(fs, "%v", err)
	}
	m, err := rivest.Machine(ctx)
	if err != nil {
		return err
	}
	cmd := "gdlab rivest " + strings.Join(args, " ")
	last := time.Now()
	reps, err := rivest.Experiment(ctx, m, rivest.Settings{Openings: *openings, Seed: *seed, Step: *step, Workers: *workers,
		P: *p, Sweep: ps, Reverse: *reverse, Command: strings.TrimSpace(cmd),
		Progress: func(block string, done, total int) {
			if done == total || time.Since(last) > 10*time.Second {
				last = time.Now()
				fmt.Fprintf(stderr, "%s: %d/%d games\n", block, done, total)
			}
		}})
	for i, rp := range reps {
		if serr := rp.Save(*out, rivest.Names[i]); serr != nil {
			return serr
		}
		if werr := rp.WriteMarkdown(stdout); werr != nil {
			return werr
		}
	}
	return err
}

// parsePs reads a comma-separated list of positive p values.
func parsePs(list string) ([]float64, error) {
	var ps []float64
	for _, f := range strings.Split(list, ",") {
		p, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || !(p > 0) || p > 1e300 {
			return nil, fmt.Errorf("--sweep: %q is not a positive number", f)
		}
		ps = append(ps, p)
	}
	return ps, nil
}
