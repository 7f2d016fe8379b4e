package ledger

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func record(exp string, version string, values ...float64) Record {
	rec := Record{Experiment: exp, Version: version, Settings: map[string]string{"p": "10"}}
	for i, v := range values {
		rec.Results = append(rec.Results, Result{Game: "g", Seed: uint64(i), Value: v})
	}
	return rec
}

func TestAppendAndRuns(t *testing.T) {
	l, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if runs, err := l.Runs("absent"); err != nil || runs != nil {
		t.Fatalf("an experiment without runs: %v, %v", runs, err)
	}
	for i := 0; i < 3; i++ {
		if err := l.Append(record("exp-1", "v1", float64(i), 100)); err != nil {
			t.Fatal(err)
		}
	}
	runs, err := l.Runs("exp-1")
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 3 || runs[2].Results[0].Value != 2 || runs[0].Time.IsZero() || runs[1].Settings["p"] != "10" {
		t.Fatalf("runs read back: %+v", runs)
	}
}

// TestReplicas: a run that repeats an earlier one exactly is written as a
// reference and read back whole; a reference to no record is an error.
func TestReplicas(t *testing.T) {
	dir := t.TempDir()
	l, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range []Record{record("det", "v1", 1, 2), record("det", "v2", 1, 2), record("det", "v2", 1, 3)} {
		if err := l.Append(rec); err != nil {
			t.Fatal(err)
		}
	}
	data, _ := os.ReadFile(filepath.Join(dir, "det.jsonl"))
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 3 || !strings.Contains(lines[1], `"replica_of":`) || !strings.Contains(lines[1], `"results":null`) || strings.Contains(lines[2], "replica_of") {
		t.Fatalf("file:\n%s", data)
	}
	runs, err := l.Runs("det")
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 3 || runs[1].Version != "v2" || len(runs[1].Results) != 2 || runs[1].Results[1].Value != 2 || ReplicaKey(runs[0]) != ReplicaKey(runs[1]) {
		t.Fatalf("runs read back: %+v", runs)
	}
	broken := strings.Replace(lines[1], `"replica_of":"`, `"replica_of":"1999`, 1)
	os.WriteFile(filepath.Join(dir, "det.jsonl"), []byte(lines[0]+"\n"+broken+"\n"), 0o644)
	if _, err := l.Runs("det"); err == nil || !strings.Contains(err.Error(), "det.jsonl:2: replica_of") {
		t.Errorf("a dangling reference: %v", err)
	}
}

// TestConcurrentAppends: writers appending at once lose no record.
func TestConcurrentAppends(t *testing.T) {
	l, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for i := 0; i < 20; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := l.Append(record("busy", "v", float64(i))); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	runs, err := l.Runs("busy")
	if err != nil || len(runs) != 20 {
		t.Fatalf("%d runs after 20 appends (%v)", len(runs), err)
	}
}

func TestRefusals(t *testing.T) {
	l, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, rec := range []Record{record("../escape", "v", 1), record("Upper", "v", 1), record("empty", "v")} {
		if err := l.Append(rec); err == nil {
			t.Errorf("%q with %d results was accepted", rec.Experiment, len(rec.Results))
		}
	}
	path := filepath.Join(l.Dir(), "broken.jsonl")
	if err := os.WriteFile(path, []byte("{\"experiment\":\"broken\",\"results\":[]}\n{oops\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Runs("broken"); err == nil || !strings.Contains(err.Error(), "broken.jsonl:2:") {
		t.Errorf("a malformed line: %v, want an error at broken.jsonl:2", err)
	}
}

func TestSelect(t *testing.T) {
	quick := record("e", "v2", 1)
	quick.Quick = true
	got := Select([]Record{record("e", "v1", 1), record("e", "v2", 2), quick, record("e", "v2", 3)}, "v2")
	if len(got) != 2 || got[0].Results[0].Value != 2 || got[1].Results[0].Value != 3 {
		t.Errorf("selected %+v", got)
	}
}

// TestCodeVersion: the version ignores comments, layout, tests and results
// tables, and changes with the code and the rules.
func TestCodeVersion(t *testing.T) {
	root := t.TempDir()
	write := func(rel, text string) {
		t.Helper()
		path := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module gdlab\n")
	write("go.sum", "")
	write("engine/x/x.go", "package x\n\n// F is one.\nfunc F() int { return 1 }\n")
	write("datasets/games/g/g.kif", "(role a)\n")
	base := version(t, root)
	for _, same := range []func(){
		func() {
			write("engine/x/x.go", "package x\n\n// F returns one, said otherwise.\nfunc F() int {\n\treturn 1\n}\n")
		},
		func() { write("engine/x/x_test.go", "package x\n") },
		func() { write("datasets/results/table.json", "[]\n") },
	} {
		same()
		if v := version(t, root); v != base {
			t.Errorf("version changed from %s to %s without a code change", base, v)
		}
	}
	write("engine/x/x.go", "package x\n\nfunc F() int { return 2 }\n")
	changed := version(t, root)
	if changed == base {
		t.Error("the version ignored a code change")
	}
	write("datasets/games/g/g.kif", "(role b)\n")
	if version(t, root) == changed {
		t.Error("the version ignored a rules change")
	}
}

func version(t *testing.T, root string) string {
	t.Helper()
	v, err := CodeVersion(root)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestRepositoryVersion: the repository's own version can be computed.
func TestRepositoryVersion(t *testing.T) {
	root, err := Root()
	if err != nil {
		t.Fatal(err)
	}
	if v := version(t, root); len(v) != 12 {
		t.Errorf("version %q", v)
	}
}
