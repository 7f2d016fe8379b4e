package ledger

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeTree writes files (path relative to root: contents) under root.
func writeTree(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for rel, text := range files {
		path := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// scopedRepo is a repository of three packages: a imports b, c stands
// alone, and the kernel package k imports b.
func scopedRepo(t *testing.T) string {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"go.mod":                     "module gdlab\n",
		"go.sum":                     "",
		"engine/a/a.go":              "package a\n\nimport (\n\t\"fmt\"\n\n\t\"gdlab/engine/b\"\n)\n\nfunc A() string { return fmt.Sprint(b.B()) }\n",
		"engine/a/a_test.go":         "package a\n\nimport _ \"gdlab/engine/c\"\n",
		"engine/a/testdata/p.kif":    "(role a)\n",
		"engine/b/b.go":              "package b\n\nfunc B() int { return 1 }\n",
		"engine/c/c.go":              "package c\n\nfunc C() int { return 1 }\n",
		"engine/c/testdata/q.kif":    "(role c)\n",
		"engine/c/testdata/src/y.go": "package y\n",
		"engine/a/games/e.kif":       "(role e)\n",
		"engine/a/README.md":         "a\n",
		"kernel/k/k.go":              "package k\n\nimport \"gdlab/engine/b\"\n\nvar K = b.B\n",
		"datasets/games/g/g.kif":     "(role g)\n",
		"datasets/results/t.json":    "[]\n",
		"datasets/ledger/e.jsonl":    "\n",
	})
	return root
}

func TestClosureFollowsTheModulesImports(t *testing.T) {
	root := scopedRepo(t)
	for _, c := range []struct {
		scope []string
		want  []string
	}{
		{[]string{"gdlab/engine/a"}, []string{"engine/a", "engine/b"}},
		{[]string{"gdlab/engine/c", "fmt"}, []string{"engine/c"}},
		{[]string{"gdlab/kernel/k"}, []string{"engine/b", "kernel/k"}},
	} {
		got, err := Closure(root, c.scope)
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("Closure(%v) = %v, %v; want %v", c.scope, got, err, c.want)
		}
	}
	if _, err := Closure(root, []string{"gdlab/engine/missing"}); err == nil || !strings.Contains(err.Error(), "engine/missing") {
		t.Errorf("a missing package: %v", err)
	}
}

// TestCodeVersionOfCoversWhatTheScopeReaches: a scope's version changes
// with the code and testdata of the packages it reaches and with the
// data, and with nothing else.
func TestCodeVersionOfCoversWhatTheScopeReaches(t *testing.T) {
	root := scopedRepo(t)
	scope := []string{"gdlab/engine/a"}
	of := func() string {
		t.Helper()
		v, err := CodeVersionOf(root, scope)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	if whole, err := CodeVersionOf(root, nil); err != nil || whole != version(t, root) {
		t.Errorf("the empty scope's version %s (%v) is not CodeVersion's", whole, err)
	}
	base := of()
	for name, edit := range map[string]map[string]string{
		"an unreached package":          {"engine/c/c.go": "package c\n\nfunc C() int { return 2 }\n"},
		"an unreached package's data":   {"engine/c/testdata/q.kif": "(role d)\n"},
		"Go code in unreached testdata": {"engine/c/testdata/src/y.go": "package y\n\nvar Y = 1\n"},
		"documentation":                 {"engine/a/README.md": "b\n"},
		"a test's code":                 {"engine/a/a_test.go": "package a\n"},
		"a comment":                     {"engine/b/b.go": "package b\n\n// B is one.\nfunc B() int { return 1 }\n"},
		"a results table":               {"datasets/results/t.json": "[1]\n"},
		"the ledger":                    {"datasets/ledger/e.jsonl": "{}\n"},
		"a kernel package":              {"kernel/k/k.go": "package k\n"},
	} {
		wholeBefore := version(t, root)
		writeTree(t, root, edit)
		if v := of(); v != base {
			t.Errorf("%s changed the scope's version", name)
		}
		if (strings.HasPrefix(name, "an unreached") || strings.HasPrefix(name, "Go code")) && version(t, root) == wholeBefore {
			t.Errorf("%s did not change the whole engine's version", name)
		}
	}
	for _, c := range []struct {
		name string
		edit map[string]string
	}{
		{"a reached package's code", map[string]string{"engine/b/b.go": "package b\n\nfunc B() int { return 2 }\n"}},
		{"the scope's testdata", map[string]string{"engine/a/testdata/p.kif": "(role b)\n"}},
		{"a file the scope embeds", map[string]string{"engine/a/games/e.kif": "(role f)\n"}},
		{"a game's rules", map[string]string{"datasets/games/g/g.kif": "(role h)\n"}},
		{"a new import", map[string]string{"engine/b/b.go": "package b\n\nimport _ \"gdlab/engine/c\"\n\nfunc B() int { return 2 }\n"}},
	} {
		writeTree(t, root, c.edit)
		if v := of(); v == base {
			t.Errorf("%s kept the scope's version", c.name)
		} else {
			base = v
		}
	}
	// b now imports c, so c's code is reached.
	writeTree(t, root, map[string]string{"engine/c/c.go": "package c\n\nfunc C() int { return 3 }\n"})
	if of() == base {
		t.Error("a package reached through a new import is not covered")
	}
}

func TestScopeKeepsTheModulesPackages(t *testing.T) {
	defer SetScope(Scope())
	SetScope(nil)
	AddScope("gdlab/engine/b", "fmt", "gdlab/engine/a")
	AddScope("gdlab/engine/a", "github.com/x/y")
	if got := Scope(); !slices.Equal(got, []string{"gdlab/engine/a", "gdlab/engine/b"}) {
		t.Errorf("scope %v", got)
	}
	SetScope(nil)
	if got := Scope(); got != nil {
		t.Errorf("scope after SetScope(nil): %v", got)
	}
}

func TestVersionsCurrent(t *testing.T) {
	root := scopedRepo(t)
	scope := []string{"gdlab/engine/a"}
	v, err := CodeVersionOf(root, scope)
	if err != nil {
		t.Fatal(err)
	}
	vs := NewVersions(root)
	rec := Record{Experiment: "e", Version: v, Scope: scope}
	if ok, err := vs.Current(rec); !ok || err != nil {
		t.Errorf("a record of the scope's version is not current: %v", err)
	}
	if ok, _ := vs.Current(Record{Experiment: "e", Version: v}); ok {
		t.Error("the same version without the scope is current")
	}
	if ok, err := vs.Current(Record{Experiment: "e", Version: v, Scope: []string{"gdlab/engine/gone"}}); ok || err != nil {
		t.Errorf("a record of a package that is gone: current %v, %v", ok, err)
	}
}

// TestClosureAgreesWithGoList: the closure of every engine package holds
// the module's part of the dependencies `go list` gives (and today equals
// it: more would come from files a build constraint leaves out).
func TestClosureAgreesWithGoList(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go tool")
	}
	root, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(goTool, "list", "-f", `{{.ImportPath}} {{join .Deps " "}}`, "./engine/...", "./datasets/...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		fields := strings.Fields(line)
		want := []string{packageDir(fields[0])}
		for _, d := range fields[1:] {
			if inModule(d) {
				want = append(want, packageDir(d))
			}
		}
		slices.Sort(want)
		got, err := Closure(root, fields[:1])
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range want {
			if !slices.Contains(got, d) {
				t.Errorf("Closure(%s) = %v lacks %s, which go list gives", fields[0], got, d)
			}
		}
		if !slices.Equal(got, want) {
			// Files a build constraint leaves out still count.
			t.Logf("Closure(%s) = %v, more than go list's %v", fields[0], got, want)
		}
	}
}

// TestCheckPinned: once pinned, a change to the sources is an error; a
// root never pinned is not checked.
func TestCheckPinned(t *testing.T) {
	root := scopedRepo(t)
	if err := CheckPinned(root); err != nil {
		t.Fatalf("an unpinned root: %v", err)
	}
	PinSources(root)
	writeTree(t, root, map[string]string{"engine/b/b.go": "package b\n\n// B is one.\nfunc B() int { return 1 }\n"})
	if err := CheckPinned(root); err != nil {
		t.Errorf("after a comment: %v", err)
	}
	writeTree(t, root, map[string]string{"engine/c/c.go": "package c\n\nfunc C() int { return 9 }\n"})
	if err := CheckPinned(root); err == nil || !strings.Contains(err.Error(), "changed while this process ran") {
		t.Errorf("after a code change: %v", err)
	}
}
