package experiment

import (
	"context"
	"fmt"

	"gdlab/datasets"
	"gdlab/engine/game"
	"gdlab/engine/gdl"
	"gdlab/engine/propnet"
	"gdlab/engine/prover"
)

// Rules returns the description of a curated game of package datasets.
func Rules(name string) (*gdl.Description, error) {
	rs, err := datasets.Game(name)
	if err != nil {
		return nil, err
	}
	return rs.Description()
}

// Network builds the propositional network of a curated game with the
// default bounds.
func Network(ctx context.Context, name string) (*propnet.Net, error) {
	d, err := Rules(name)
	if err != nil {
		return nil, err
	}
	net, err := propnet.Build(ctx, d, propnet.Options{})
	if err != nil {
		return nil, fmt.Errorf("experiment: %s: %w", name, err)
	}
	return net, nil
}

// Machine returns the fastest reasoner of a curated game that builds: its
// network, or the reference prover when the network exceeds its bounds.
func Machine(ctx context.Context, name string) (game.Machine, error) {
	d, err := Rules(name)
	if err != nil {
		return nil, err
	}
	if net, err := propnet.Build(ctx, d, propnet.Options{}); err == nil {
		return net, nil
	}
	return prover.New(d)
}

// MustRules is Rules for a notebook cell, where a panic shows as the
// cell's error.
func MustRules(name string) *gdl.Description {
	d, err := Rules(name)
	if err != nil {
		panic(err)
	}
	return d
}

// MustNetwork is Network for a notebook cell.
func MustNetwork(ctx context.Context, name string) *propnet.Net {
	net, err := Network(ctx, name)
	if err != nil {
		panic(err)
	}
	return net
}

// MustMachine is Machine for a notebook cell.
func MustMachine(ctx context.Context, name string) game.Machine {
	m, err := Machine(ctx, name)
	if err != nil {
		panic(err)
	}
	return m
}
