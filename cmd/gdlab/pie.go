package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"gdlab/engine/gdl"
	"gdlab/engine/gdl/pie"
	"gdlab/engine/prover"
)

func init() {
	register("pie", command{"write the pie-rule variant of a two-player turn-taking game", runPie})
}

func runPie(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("pie", "[--swap MOVE] FILE > VARIANT.kif", stderr)
	swap := fs.String("swap", pie.DefaultSwap, "the second player's swap move: a constant the game does not use")
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(files) != 1 {
		return usageError(fs, "need one rulesheet")
	}
	v, roles, err := pieVariant(ctx, files[0], pie.Options{Swap: *swap})
	var list gdl.ErrorList
	if errors.As(err, &list) {
		fmt.Fprint(stderr, list.Detail())
		return exitError{1}
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, ";;; The pie-rule variant of %s, written by gdlab pie.\n", files[0])
	fmt.Fprintf(stdout, ";;; After %s's first move %s may play %s instead of a move: the players\n", roles[0], roles[1], *swap)
	fmt.Fprintf(stdout, ";;; then exchange sides, and %s goes on with %s's side and goal.\n\n", roles[0], roles[1])
	fmt.Fprint(stdout, gdl.Format(v))
	return nil
}

// pieVariant reads a rulesheet, transforms it and checks its opening with
// the reference prover; errors about the game come as a gdl.ErrorList.
func pieVariant(ctx context.Context, path string, opt pie.Options) (*gdl.Description, []string, error) {
	d, err := gdl.ParseFile(path)
	if err != nil {
		return nil, nil, err
	}
	v, err := pie.Transform(d, opt)
	if err != nil {
		return nil, nil, err
	}
	m, err := prover.New(d)
	if err != nil {
		return nil, nil, err
	}
	return v, m.Roles(), pie.CheckOpening(ctx, d, m)
}
