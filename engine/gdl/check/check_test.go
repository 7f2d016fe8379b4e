package check_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gdlab/engine/gdl"
	"gdlab/engine/gdl/check"
)

var update = flag.Bool("update", false, "rewrite the testdata/*.golden files from the current output")

// TestGolden checks every testdata/*.kif file and compares the errors with
// testdata/*.golden; valid_*.kif files must have none.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.kif"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".kif"), func(t *testing.T) {
			got := checkFile(t, file)
			if strings.HasPrefix(filepath.Base(file), "valid_") && got != "" {
				t.Errorf("valid description has errors:\n%s", got)
			}
			if !strings.HasPrefix(filepath.Base(file), "valid_") && got == "" {
				t.Errorf("invalid description has no errors")
			}
			golden := strings.TrimSuffix(file, ".kif") + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("errors differ from %s\ngot:\n%s\nwant:\n%s", golden, got, want)
			}
		})
	}
}

// checkFile parses and checks one file, returning the errors one per line.
func checkFile(t *testing.T, file string) string {
	t.Helper()
	d, err := gdl.ParseFile(filepath.ToSlash(file))
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	return check.Check(d).Detail()
}

// TestCheckTable covers single rules, each with the one message it must give.
func TestCheckTable(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string // substrings, one per expected error, in order
	}{
		{"valid", "(role r) (p 1) (<= (q ?x) (p ?x))", nil},
		{"head var", "(role r) (p 1) (<= (q ?x ?y) (p ?x))",
			[]string{"1:26: variable ?y in head of rule for q/2 is unsafe: it occurs in no positive body literal"}},
		{"fact var", "(role r) (p ?x)", []string{"variable ?x in head of fact p/1 is unsafe: a fact must be ground"}},
		{"negated var", "(role r) (p 1) (<= (q ?x) (p ?x) (not (p ?y)))",
			[]string{"variable ?y in (not (p ?y)) of rule for q/1 is unsafe"}},
		{"distinct var", "(role r) (p 1) (<= (q ?x) (p ?x) (distinct ?x ?y))",
			[]string{"variable ?y in (distinct ?x ?y) of rule for q/1 is unsafe"}},
		{"or partial", "(role r) (p 1) (<= (q ?x) (or (p ?x) (p 2)))",
			[]string{"not every alternative of its or binds it"}},
		{"or total", "(role r) (p 1) (<= (q ?x) (or (p ?x) (q ?x)))", nil},
		{"nested or", "(role r) (p 1) (<= (q ?x) (or (p ?x) (or (p ?x) (q ?x))))", nil},
		{"nested or partial", "(role r) (p 1) (<= (q ?x) (or (p ?x) (or (p 1) (q ?x))))",
			[]string{"variable ?x in head of rule for q/1 is unsafe"}},
		{"empty or", "(role r) (p 1) (<= (q ?x) (p ?x) (or))", nil},
		{"negated or", "(role r) (p 1) (<= (q ?x) (p ?x) (not (or (p ?x))))",
			[]string{"not may only negate an atom, not (or (p ?x))"}},
		{"relation arity", "(role r) (p 1) (p 1 2)",
			[]string{"1:16: relation p is used with 2 arguments here and with 1 argument at 1:10"}},
		{"function arity", "(role r) (p (f 1)) (p (f))",
			[]string{"function f is used with no arguments here and with 1 argument at 1:13"}},
		{"keyword arity", "(role r) (<= terminal (true 1 2))", []string{"true takes 1 argument, not 2"}},
		{"relation also function", "(role r) (p (p 1)) (p (q p))", nil},
		{"negative cycle", "(role r) (p 1) (<= (q ?x) (p ?x) (not (q ?x)))",
			[]string{"negation in a cycle of the dependency graph: q/1 -> not q/1 -> q/1"}},
		{"recursion", "(role r) (p 1) (<= (q ?x) (p ?x)) (<= (q (s ?x)) (q ?x))",
			[]string{"recursion restriction violated in rule for q/1: argument ?x of recursive literal (q ?x)"}},
		{"true head", "(role r) (<= (true (p 1)) (q 1)) (q 1)", []string{"true cannot be the head of a rule or fact"}},
		{"does head", "(role r) (does r go)", []string{"does cannot be the head of a rule or fact"}},
		{"next body", "(role r) (<= (p 1) (next (q 1)))", []string{"next cannot appear in a rule body"}},
		{"init body", "(role r) (<= (p 1) (not (init (q 1))))", []string{"init cannot appear in a rule body"}},
		{"init on true", "(role r) (<= (init (q 1)) (true (q 2)))",
			[]string{"init/1 depends on true/1 (init/1 -> true/1)"}},
		{"goal on does", "(role r) (<= (goal r 1) (m r)) (<= (m ?r) (does ?r go))",
			[]string{"goal/2 depends on does/2 (goal/2 -> m/1 -> does/2), but legal, goal and terminal may not depend on does"}},
		{"legal on does negatively", "(role r) (<= (legal r go) (not (does r stop)))",
			[]string{"legal/2 depends on does/2"}},
		{"next on does", "(role r) (<= (next (q 1)) (does r go))", nil},
		{"no role", "(p 1)", []string{"1:1: no role declared"}},
		{"duplicate role", "(role r) (role r)", []string{"1:16: duplicate role r (first declared at 1:7)"}},
		{"role rule", "(role r) (<= (role s) (p 1)) (p 1)", []string{"role must be declared by facts"}},
		{"role function", "(role (f r))", []string{"role (f r) is not a constant"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := gdl.Parse("t.kif", []byte(tt.src))
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			errs := check.Check(d)
			if len(errs) != len(tt.want) {
				t.Fatalf("got %d errors, want %d:\n%s", len(errs), len(tt.want), errs.Detail())
			}
			for i, w := range tt.want {
				if !strings.Contains(errs[i].Error(), w) {
					t.Errorf("error %d = %q, want it to contain %q", i, errs[i], w)
				}
			}
		})
	}
}

// TestCheckNil checks that a nil description gives an error, not a panic.
func TestCheckNil(t *testing.T) {
	if errs := check.Check(nil); len(errs) != 1 {
		t.Errorf("Check(nil) = %v, want one error", errs)
	}
}

// TestSorted checks that errors come back in position order.
func TestSorted(t *testing.T) {
	d, err := gdl.ParseFile(filepath.Join("testdata", "keywords.kif"))
	if err != nil {
		t.Fatal(err)
	}
	errs := check.Check(d)
	for i := 1; i < len(errs); i++ {
		if errs.Less(i, i-1) {
			t.Errorf("error %d (%v) sorts before error %d (%v)", i, errs[i], i-1, errs[i-1])
		}
	}
}

// TestGraphOrder checks the documented order of components and strata on
// every testdata file.
func TestGraphOrder(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.kif"))
	for _, file := range files {
		d, err := gdl.ParseFile(file)
		if err != nil {
			t.Fatal(err)
		}
		checkGraphOrder(t, file, check.NewGraph(d))
	}
}
