package main

import (
	"context"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"gdlab/engine/game"
)

func init() {
	register("perft", command{"count joint-move sequences and distinct states to a depth", runPerft})
}

func runPerft(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("perft", "FILE --depth D [--machine NAME]", stderr)
	depth := fs.Int("depth", 3, "depth in joint moves")
	machine := fs.String("machine", "prover", "reasoner: "+machineNames())
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(files) != 1 || *depth < 1 {
		return usageError(fs, "need one rulesheet and --depth >= 1")
	}
	m, err := loadMachine(*machine, files[0], stderr)
	if err != nil {
		return err
	}
	start := time.Now()
	levels, err := game.Perft(ctx, m, m.Initial(), *depth)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "depth\tsequences\tstates\tterminal\t")
	for _, l := range levels {
		fmt.Fprintf(tw, "%d\t%d\t%d\t%d\t\n", l.Depth, l.Sequences, l.States, l.Terminals)
	}
	tw.Flush()
	fmt.Fprintf(stdout, "time %v\n", time.Since(start).Round(time.Millisecond))
	return nil
}
