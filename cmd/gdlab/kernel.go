package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"

	"gdlab/kernel"
	"gdlab/kernel/symbols"
)

func init() {
	register("kernel", command{
		summary: "run the Jupyter kernel, or install its kernelspec (kernel install)",
		run:     runKernel,
	})
}

const kernelUsage = `usage:
  gdlab kernel --connection-file FILE
  gdlab kernel install [--user | --prefix DIR] [--name NAME]`

func runKernel(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && args[0] == "install" {
		return installKernel(args[1:], stdout, stderr)
	}
	fs := flag.NewFlagSet("kernel", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprintln(stderr, kernelUsage) }
	file := fs.String("connection-file", "", "connection `file` written by Jupyter")
	if err := fs.Parse(args); err != nil {
		return exitError{2}
	}
	if *file == "" || fs.NArg() > 0 {
		fs.Usage()
		return exitError{2}
	}
	conn, err := kernel.ReadConnection(*file)
	if err != nil {
		return err
	}
	// SIGINT interrupts a cell and must not end the kernel, so the kernel
	// does not inherit the command's interrupt-cancelled context; it
	// handles SIGINT and SIGTERM itself.
	return kernel.Run(context.WithoutCancel(ctx), conn, kernel.Options{
		Symbols: []interp.Exports{stdlib.Symbols, symbols.Symbols},
	})
}

// installKernel writes the kernelspec pointing at this very binary.
func installKernel(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("kernel install", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprintln(stderr, kernelUsage) }
	user := fs.Bool("user", false, "install for the current user (the default)")
	prefix := fs.String("prefix", "", "install under `DIR`/share/jupyter/kernels")
	name := fs.String("name", kernel.DefaultName, "kernelspec `name`")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 || (*user && *prefix != "") {
		fs.Usage()
		return exitError{2}
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	if exe, err = filepath.EvalSymlinks(exe); err != nil {
		return err
	}
	dir, err := kernelsDir(*prefix)
	if err != nil {
		return err
	}
	path, err := kernel.Install(kernel.NewSpec(exe), dir, *name)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "installed kernelspec %s in %s\n", *name, filepath.Dir(path))
	return nil
}

// kernelsDir returns where kernelspecs go: under a prefix, or the user's
// Jupyter data directory as jupyter_core computes it on Linux.
func kernelsDir(prefix string) (string, error) {
	if prefix != "" {
		return filepath.Join(prefix, "share", "jupyter", "kernels"), nil
	}
	if d := os.Getenv("JUPYTER_DATA_DIR"); d != "" {
		return filepath.Join(d, "kernels"), nil
	}
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "jupyter", "kernels"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(home, ".local", "share", "jupyter", "kernels"), nil
}
