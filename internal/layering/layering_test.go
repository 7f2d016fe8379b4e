package layering

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
)

// pkg is what `go list -json` says of one package.
type pkg struct {
	ImportPath string
	Imports    []string
	Deps       []string
}

// list runs `go list -json` on the patterns, skipping the test when the go
// command is not available.
func list(t *testing.T, args ...string) []pkg {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not on PATH: the import graph cannot be read")
	}
	out, err := exec.Command("go", append([]string{"list", "-json"}, args...)...).Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []pkg
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p pkg
		if err := dec.Decode(&p); err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// TestRules checks the layering rules on the packages' own imports (tests
// may reach further, to compare against other reasoners): nothing under
// engine/ imports the kernel, and the searchers reach games only through
// the engine/game contract, never through the propositional network.
func TestRules(t *testing.T) {
	for _, p := range list(t, "gdlab/engine/...") {
		for _, imp := range p.Imports {
			if strings.HasPrefix(imp, "gdlab/kernel") {
				t.Errorf("%s imports %s: the engine must not depend on the kernel", p.ImportPath, imp)
			}
			if strings.HasPrefix(p.ImportPath, "gdlab/engine/search") && strings.HasPrefix(imp, "gdlab/engine/propnet") {
				t.Errorf("%s imports %s: searchers use the engine/game contract", p.ImportPath, imp)
			}
		}
	}
}

// TestBinaryHasNoTesting: no gdlab package in the gdlab binary, the
// kernel included, imports package testing. (The binary links testing all
// the same, through yaegi's standard-library table, which lets cells import
// it; that is the interpreter's, not test code of gdlab's.)
func TestBinaryHasNoTesting(t *testing.T) {
	for _, p := range list(t, "-deps", "gdlab/cmd/gdlab") {
		if !strings.HasPrefix(p.ImportPath, "gdlab/") {
			continue
		}
		for _, imp := range p.Imports {
			if imp == "testing" {
				t.Errorf("%s, linked into gdlab/cmd/gdlab, imports package testing", p.ImportPath)
			}
		}
	}
}
