// Command gdlab is the one binary of the gdlab workbench: it checks GDL files,
// plays and traces random matches, counts perft, replays recorded traces,
// benchmarks reasoners and runs the Jupyter kernel.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
)

// command is one subcommand: its one-line summary and its entry point, which
// receives the arguments after the subcommand's name.
type command struct {
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) error
}

// commands holds every subcommand; each lives in its own file and registers
// itself from an init function, so adding one touches no other file.
var commands = map[string]command{}

func register(name string, c command) { commands[name] = c }

// exitError carries an exit code for failures already reported to the user.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit status %d", e.code) }

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes one command line and returns the process exit code: 0 on
// success, 1 on a failure the command reports, 2 on a usage error.
func run(args []string, stdout, stderr io.Writer) (code int) {
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(stdout)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "gdlab: unknown command %q (run 'gdlab help')\n", args[0])
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	defer func() {
		// A panic here is a bug in gdlab, never the user's fault; report it in
		// one line rather than a trace, and fail.
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "gdlab %s: internal error: %v\n", args[0], r)
			code = 1
		}
	}()
	if err := c.run(ctx, args[1:], stdout, stderr); err != nil {
		if e, ok := err.(exitError); ok {
			return e.code
		}
		fmt.Fprintf(stderr, "gdlab %s: %v\n", args[0], err)
		return 1
	}
	return 0
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: gdlab COMMAND [ARGS]\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-8s %s\n", n, commands[n].summary)
	}
}
