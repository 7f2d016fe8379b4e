package main

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"gdlab/engine/game"
	"gdlab/engine/gdl"
	"gdlab/engine/propnet"
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
}

func machineNames() string {
	names := make([]string, 0, len(machines))
	for n := range machines {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// loadMachine parses a rulesheet and builds the named reasoner for it.
func loadMachine(name, path string) (game.Machine, error) {
	build, ok := machines[name]
	if !ok {
		return nil, fmt.Errorf("unknown machine %q (have %s)", name, machineNames())
	}
	d, err := gdl.ParseFile(path)
	if err != nil {
		return nil, err
	}
	return build(d)
}
