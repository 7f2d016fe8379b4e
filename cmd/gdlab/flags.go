package main

import (
	"flag"
	"fmt"
	"io"
	"strings"
)

// newFlags returns a flag set for a subcommand that reports errors to stderr
// and does not exit, so run can return the usage exit code.
func newFlags(name, args string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("gdlab "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: gdlab %s %s\n", name, args)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses args, allowing flags after positional arguments
// (gdlab play FILE --seed 3), and returns the positional arguments.
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, exitError{2}
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
		if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
			continue
		}
	}
}

// usageError reports a wrong command line and yields exit code 2.
func usageError(fs *flag.FlagSet, format string, a ...any) error {
	fmt.Fprintf(fs.Output(), "%s: %s\n", fs.Name(), fmt.Sprintf(format, a...))
	fs.Usage()
	return exitError{2}
}
