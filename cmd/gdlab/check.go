package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"gdlab/engine/gdl"
	"gdlab/engine/gdl/check"
)

func init() {
	register("check", command{"parse and validate GDL files; every problem as file:line:col", runCheck})
}

func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("check", "FILE...", stderr)
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usageError(fs, "no files given")
	}
	bad := 0
	for _, f := range files {
		errs := checkFile(f)
		if len(errs) == 0 {
			fmt.Fprintf(stdout, "%s: ok\n", f)
			continue
		}
		bad++
		fmt.Fprint(stderr, errs.Detail())
	}
	if bad > 0 {
		return exitError{1}
	}
	return nil
}

// checkFile parses and validates one file, returning every problem found.
func checkFile(path string) gdl.ErrorList {
	d, err := gdl.ParseFile(path)
	var list gdl.ErrorList
	if errors.As(err, &list) {
		return list
	}
	if err != nil { // unreadable file
		list.Add(gdl.Position{Filename: path}, "%v", unwrapPath(err))
		return list
	}
	return check.Check(d)
}

// unwrapPath drops the path that os errors repeat, since the message is
// already prefixed with it.
func unwrapPath(err error) error {
	var pe interface{ Unwrap() error }
	if errors.As(err, &pe) {
		if inner := pe.Unwrap(); inner != nil {
			return inner
		}
	}
	return err
}
