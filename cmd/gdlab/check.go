package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"gdlab/engine/gdl"
	"gdlab/engine/gdl/check"
	"gdlab/engine/gdl/compat"
	"gdlab/engine/prover"
)

func init() {
	register("check", command{"parse and validate GDL files; every problem as file:line:col", runCheck})
}

func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("check", "[--compat] FILE...", stderr)
	compatible := fs.Bool("compat", false, "read the rules as ggp-base does (as gdlab plays them): what that reading repairs is a warning, not an error")
	files, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(files) == 0 {
		return usageError(fs, "no files given")
	}
	bad := 0
	for _, f := range files {
		errs, warnings := checkFile(f, *compatible)
		for _, w := range warnings {
			fmt.Fprintf(stderr, "%s: warning: %s\n", w.Pos, w.Message())
		}
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

// checkFile parses and validates one file, returning every problem found
// and the warnings. Under the compatible reading, the rules are checked as
// compat.Read repairs them, the repairs are warnings, and so is what the
// specification forbids but gdlab plays (see playable); otherwise they are
// checked as written, and each error the compatible reading would repair
// says how.
func checkFile(path string, compatible bool) (gdl.ErrorList, []compat.Repair) {
	d, err := gdl.ParseFile(path)
	var list gdl.ErrorList
	if errors.As(err, &list) {
		return list, nil
	}
	if err != nil { // unreadable file
		list.Add(gdl.Position{Filename: path}, "%v", unwrapPath(err))
		return list, nil
	}
	read, repairs := compat.Read(d)
	if compatible {
		return playable(d, check.Check(read), repairs)
	}
	return strict(check.Check(d), repairs)
}

// playable is the compatible reading's verdict on the errors Check finds in
// the read rules: the reasoners play some games the specification forbids,
// as ggp-base's prover does (a (not (distinct ...)), negation through one
// goal value of another, a name used with two arities), so those are
// warnings; they stay errors when the prover cannot load the game, whose
// own error then comes last.
func playable(d *gdl.Description, errs gdl.ErrorList, repairs []compat.Repair) (gdl.ErrorList, []compat.Repair) {
	if len(errs) == 0 {
		return nil, repairs
	}
	if _, err := prover.New(d); err != nil {
		var list gdl.ErrorList
		if errors.As(err, &list) {
			return append(errs, list...), repairs
		}
		errs.Add(gdl.Position{Filename: d.File.Name()}, "%v", err)
		return errs, repairs
	}
	for _, e := range errs {
		repairs = append(repairs, compat.Repair{Pos: e.Pos, Kind: compat.Note, Construct: e.Msg,
			Treatment: "gdlab plays it all the same, as ggp-base's prover does"})
	}
	return nil, repairs
}

// strict names, on each error that the compatible reading repairs, how it
// reads the construct; a repair that no error reports becomes an error of
// its own. Notes, which change no reading, stay warnings.
func strict(errs gdl.ErrorList, repairs []compat.Repair) (gdl.ErrorList, []compat.Repair) {
	var notes []compat.Repair
	byPos := map[gdl.Position][]compat.Repair{}
	for _, r := range repairs {
		if r.Kind == compat.Note {
			notes = append(notes, r)
		} else {
			byPos[r.Pos] = append(byPos[r.Pos], r)
		}
	}
	for _, e := range errs {
		if rs := byPos[e.Pos]; len(rs) > 0 {
			e.Msg += "; " + rs[0].Treatment + " (gdlab check --compat)"
			delete(byPos, e.Pos)
		}
	}
	for _, rs := range byPos {
		for _, r := range rs {
			errs.Add(r.Pos, "%s; %s (gdlab check --compat)", r.Construct, r.Treatment)
		}
	}
	errs.Sort()
	return errs, notes
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
