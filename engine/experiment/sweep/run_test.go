package sweep

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gdlab/engine/propnet"
)

// TestResumeRefusesOtherCode: units kept by other code are not resumed.
func TestResumeRefusesOtherCode(t *testing.T) {
	defer func(v func() string) { codeVersion = v }(codeVersion)
	ctx := context.Background()
	dir := t.TempDir()
	s := &Spec{Name: "v", Games: []string{"ticTacToe"}, Seeds: 1, Players: []PlayerSpec{{Kind: "random"}, {Kind: "legal"}}}
	codeVersion = func() string { return "old" }
	if _, err := Run(ctx, s, Options{Runner: RunnerLocal, Dir: dir}); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(ctx, s, Options{Runner: RunnerLocal, Dir: dir}); err != nil {
		t.Fatalf("the same code: %v", err)
	}
	codeVersion = func() string { return "new" }
	_, err := Run(ctx, s, Options{Runner: RunnerLocal, Dir: dir})
	if err == nil || !strings.Contains(err.Error(), "other code (version old, this is new)") || !strings.Contains(err.Error(), "fresh --out") {
		t.Errorf("a rerun by other code: %v", err)
	}
}

// TestLocalTakesCores: the local runner's units take the process's cores
// as Beam's do, whatever its number of workers.
func TestLocalTakesCores(t *testing.T) {
	defer func(c *slots) { cores = c }(cores)
	cores = &slots{}
	s := &Spec{Name: "c", Games: []string{"ticTacToe"}, Seeds: 3, Players: []PlayerSpec{{Kind: "random"}, {Kind: "legal"}}}
	if _, err := Run(context.Background(), s, Options{Runner: RunnerLocal, Workers: 64}); err != nil {
		t.Fatal(err)
	}
	if n := cores.taken.Load(); n != 3 {
		t.Errorf("the local runner took a core %d times for 3 units", n)
	}
}

// TestMachineCancelNotCached: a machine whose building was cancelled is
// built afresh for the next unit.
func TestMachineCancelNotCached(t *testing.T) {
	ms := &machines{}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ms.get(ctx, "connectFour"); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled build: error %v", err)
	}
	m, err := ms.get(context.Background(), "connectFour")
	if _, ok := m.(*propnet.Net); err != nil || !ok {
		t.Errorf("after a cancelled build: %T, %v; want the network", m, err)
	}
}

// TestStaleTempsRemoved: a run removes the temporaries a crashed one left
// (saveAtomic's names only) in the output and unit directories.
func TestStaleTempsRemoved(t *testing.T) {
	dir := t.TempDir()
	s := &Spec{Name: "t", Games: []string{"ticTacToe"}, Seeds: 1, Players: []PlayerSpec{{Kind: "random"}, {Kind: "legal"}}}
	ud := unitDir(s, dir)
	os.MkdirAll(ud, 0o755)
	stale := []string{filepath.Join(dir, ".t.csv.tmp123"), filepath.Join(ud, ".0_ticTacToe_0.json.tmp99")}
	kept := []string{filepath.Join(dir, "notes.tmp1"), filepath.Join(dir, ".hidden")}
	for _, p := range append(append([]string{}, stale...), kept...) {
		os.WriteFile(p, []byte("x"), 0o644)
	}
	if _, err := Run(context.Background(), s, Options{Runner: RunnerLocal, Dir: dir}); err != nil {
		t.Fatal(err)
	}
	for _, p := range stale {
		if _, err := os.Stat(p); err == nil {
			t.Errorf("%s was left", p)
		}
	}
	for _, p := range kept {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
}

// TestFailedUnitSameOnEveryRunner: a unit that fails is reported with its
// key and the others are kept, on Beam as on the local runner. One player
// cannot fill ticTacToe's two roles; it plays the corridor alone.
func TestFailedUnitSameOnEveryRunner(t *testing.T) {
	s := &Spec{Name: "f", Games: []string{"untwistyCorridor6", "ticTacToe"}, Seeds: 2, Players: []PlayerSpec{{Kind: "random"}}}
	var tables []string
	for _, runner := range []string{RunnerLocal, RunnerPrism} {
		dir := t.TempDir()
		tab, err := Run(context.Background(), s, Options{Runner: runner, Dir: dir})
		if err == nil || !strings.Contains(err.Error(), "unit 0/ticTacToe/0") || !strings.Contains(err.Error(), "unit 0/ticTacToe/1") {
			t.Errorf("%s: error %v, want both ticTacToe units reported", runner, err)
		}
		if tab == nil || len(tab.Results) != 2 {
			t.Fatalf("%s: table %v, want the 2 corridor units", runner, tab)
		}
		if _, err := os.Stat(filepath.Join(dir, "f.csv")); err != nil {
			t.Errorf("%s: %v", runner, err)
		}
		tables = append(tables, csvOf(t, tab, false))
	}
	if tables[0] != tables[1] {
		t.Errorf("the tables differ:\nlocal:\n%s\nprism:\n%s", tables[0], tables[1])
	}
}

// TestAnalysisCancelNotCached: a latch analysis the context cut short is
// run afresh for the next unit.
func TestAnalysisCancelNotCached(t *testing.T) {
	ms := &machines{}
	m, err := ms.get(context.Background(), "ticTacToe")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ms.analysis(ctx, "ticTacToe", m); err == nil {
		t.Skip("the analysis does not look at its context")
	}
	if an, err := ms.analysis(context.Background(), "ticTacToe", m); err != nil || an == nil {
		t.Errorf("after a cancelled analysis: %v", err)
	}
}
