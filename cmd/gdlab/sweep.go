package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"gdlab/engine/experiment/sweep"
)

func init() {
	register("sweep", command{"run a sweep of settings × games × seeds (a Beam pipeline, embedded runner by default)", runSweep})
}

func runSweep(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("sweep", "SPEC.json [--out DIR] [--runner prism|local|universal] [--endpoint HOST:PORT] [--workers W]", stderr)
	out := fs.String("out", "out/sweeps", "directory for the table (NAME.csv, NAME.parquet) and the finished units, from which a rerun resumes")
	runner := fs.String("runner", sweep.RunnerPrism, "prism (Beam's embedded runner), local (goroutines, no pipeline) or universal (a job server at --endpoint)")
	endpoint := fs.String("endpoint", "", "the job server's HOST:PORT, for --runner universal")
	workers := fs.Int("workers", 0, "matches at once with --runner local (0: GOMAXPROCS)")
	rest, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(rest) != 1 {
		return usageError(fs, "need one spec file")
	}
	spec, err := sweep.Load(rest[0])
	if err != nil {
		return err
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	last := time.Time{}
	t, err := sweep.Run(ctx, spec, sweep.Options{Runner: *runner, Endpoint: *endpoint, Dir: *out, Workers: *workers,
		Progress: func(done, total int) {
			if done == total || time.Since(last) > 10*time.Second {
				last = time.Now()
				fmt.Fprintf(stderr, "%s: %d/%d units\n", spec.Name, done, total)
			}
		}})
	if t != nil {
		writeSummary(stdout, t)
		fmt.Fprintf(stdout, "table: %s (and .parquet)\n", strings.TrimPrefix(*out+"/"+spec.Name+".csv", "./"))
	}
	return err
}

// writeSummary prints the subject's score by setting and game.
func writeSummary(w io.Writer, t *sweep.Table) {
	fmt.Fprintf(w, "%s: %s's score, mean [95%% interval] over the matches\n", t.Spec.Name, t.Spec.Players[0].Name())
	for _, l := range t.Summary() {
		game := l.Game
		if game == "" {
			game = "all games"
		}
		fmt.Fprintf(w, "  setting %d (%s)  %-14s %4d matches  %5.1f [%.1f, %.1f]\n", l.Setting, sweep.ValuesText(t.Spec, l.Values), game, l.Matches, l.Mean, l.Low, l.High)
	}
}
