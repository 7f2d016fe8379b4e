// Package propnettest builds propositional networks for tests, failing the
// test on any error: from a rulesheet file, from a curated game of datasets
// by name, or from a datasets rulesheet (the generated families too).
package propnettest

import (
	"context"
	"testing"

	"gdlab/datasets"
	"gdlab/engine/propnet"
)

// Load builds the network of the rulesheet at path.
func Load(t testing.TB, path string) *propnet.Net {
	t.Helper()
	net, err := propnet.Load(context.Background(), path, propnet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return net
}

// Curated builds the network of the datasets game called name.
func Curated(t testing.TB, name string) *propnet.Net {
	t.Helper()
	g, err := datasets.Game(name)
	if err != nil {
		t.Fatal(err)
	}
	return Of(t, g)
}

// Of builds the network of a datasets rulesheet.
func Of(t testing.TB, g *datasets.Rulesheet) *propnet.Net {
	t.Helper()
	d, err := g.Description()
	if err != nil {
		t.Fatal(err)
	}
	net, err := propnet.Build(context.Background(), d, propnet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return net
}
