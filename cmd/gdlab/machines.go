package main

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"

	"gdlab/engine/game"
	"gdlab/engine/gdl"
	"gdlab/engine/gdl/compat"
	"gdlab/engine/propnet"
	"gdlab/engine/propnet/native"
	"gdlab/engine/prover"
)

// machines maps the names accepted by --machine to reasoner constructors.
var machines = map[string]func(d *gdl.Description) (game.Machine, error){
	"prover": func(d *gdl.Description) (game.Machine, error) { return prover.New(d) },
	// The propnet grounds the rules and builds its network up front, within
	// its default bounds on size.
	"propnet": func(d *gdl.Description) (game.Machine, error) {
		net, err := propnet.Build(context.Background(), d, propnet.Options{})
		if err != nil {
			return nil, err // not a typed nil in the interface
		}
		return net, nil
	},
	// The network run by straight-line simulators: every gate once a step.
	"flat": func(d *gdl.Description) (game.Machine, error) {
		f, err := buildFlat(d)
		if err != nil {
			return nil, err
		}
		return f, nil
	},
	// The same machine, whose bench runs 64 playouts a word (Lanes).
	"lanes": func(d *gdl.Description) (game.Machine, error) {
		f, err := buildFlat(d)
		if err != nil {
			return nil, err
		}
		return lanesMachine{f}, nil
	},
	// The lanes machine with its gates compiled to native code (package
	// native): built with the Go toolchain at first use, then cached per
	// game.
	"native": func(d *gdl.Description) (game.Machine, error) {
		f, err := buildFlat(d)
		if err != nil {
			return nil, err
		}
		nf, _, err := native.Load(context.Background(), f, native.Options{})
		if err != nil {
			return nil, err
		}
		return lanesMachine{nf}, nil
	},
}

// buildFlat builds a game's network and compiles it into straight-line code.
func buildFlat(d *gdl.Description) (*propnet.Flat, error) {
	net, err := propnet.Build(context.Background(), d, propnet.Options{})
	if err != nil {
		return nil, err
	}
	return propnet.NewFlat(net)
}

// lanesMachine is the flat machine, which bench plays through Lanes, 64
// playouts at once; every other command uses it as the flat machine. The
// native machine is one too, on a Flat with native kernels.
type lanesMachine struct{ *propnet.Flat }

func machineNames() string {
	names := make([]string, 0, len(machines))
	for n := range machines {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// loadMachine parses a rulesheet and builds the named reasoner for it,
// warning on stderr of what the compatible reading repairs.
func loadMachine(name, path string, stderr io.Writer) (game.Machine, error) {
	build, ok := machines[name]
	if !ok {
		return nil, fmt.Errorf("unknown machine %q (have %s)", name, machineNames())
	}
	d, err := parseGame(path, stderr)
	if err != nil {
		return nil, err
	}
	return build(d)
}

// parseGame parses a rulesheet to be played and reads it as ggp-base does
// (package compat), with a warning on stderr for every repair.
func parseGame(path string, stderr io.Writer) (*gdl.Description, error) {
	d, err := gdl.ParseFile(path)
	if err != nil {
		return nil, err
	}
	d, repairs := compat.Read(d)
	for _, r := range repairs {
		fmt.Fprintf(stderr, "%s: warning: %s\n", r.Pos, r.Message())
	}
	return d, nil
}
