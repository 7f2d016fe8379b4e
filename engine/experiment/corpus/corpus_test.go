package corpus

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"gdlab/engine/analysis/emulate"
	"gdlab/engine/experiment"
	"gdlab/engine/ledger"
)

var update = flag.Bool("update", false, "recompute every row of the corpus tables and rewrite them in datasets/results")

// sharedDir returns the shared corpus, or "" when it is absent.
func sharedDir() string {
	for _, d := range []string{os.Getenv("GDLAB_SHARED"), filepath.Join("..", "..", "..", "..", "shared")} {
		if d == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(d, "games")); err == nil {
			return d
		}
	}
	return ""
}

// table is one corpus table as its test checks and rewrites it.
type table struct {
	file       string // under datasets/results
	experiment string // the ledger's experiment id
	settings   map[string]string
	row        func(ctx context.Context, dir string) any
	value      func(row any) float64 // the ledger Result's value of a row
	// every is the sampling step of a quick run (GDLAB_QUICK): the
	// games compared are every every-th, by name, of those whose committed
	// row is not a timeout, starting with the first. It is chosen so that
	// a quick check takes well under a minute on two slow shared cores.
	every int
	// timing lists the fields that measure time or speed: never compared.
	timing []string
	// sensitive, when set, returns the fields of a row that may differ
	// because the row's work came close to Timeout; they are not compared
	// for that row.
	sensitive func(committed, computed map[string]any) []string
}

// isTimeout reports whether a row's Error is the timeout of Timeout.
func isTimeout(row map[string]any) bool {
	e, _ := row["Error"].(string)
	return e == "over 20 s" || e == "over 20s"
}

// runTable recomputes tab's rows over the shared corpus. Without -update it
// compares them with the committed table and fails on any difference
// (game, field, committed and computed value); with -update it rewrites
// the table through a temporary file and a rename, and logs the rows that
// changed. Either way it appends one record to the ledger in
// datasets/ledger, with one Result per game computed.
//
// Rows whose committed Error is the timeout are not recomputed in a check:
// whether a game finishes within 20 s is a property of the machine and its
// load, not of the code, so there is nothing to compare. For the same
// reason a row that times out now, and not in the committed table, is
// logged and not compared. With -update such a game is tried a second
// time before its row is written as a timeout.
func runTable(t *testing.T, tab table) {
	shared := sharedDir()
	if shared == "" {
		t.Skip("shared corpus not found (set GDLAB_SHARED, or put it at ../shared beside the repository): skipping the check of datasets/results/" + tab.file)
	}
	root, err := ledger.Root()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(root, "datasets", "results", tab.file)
	committed, order, err := readRows(path)
	if err != nil && !(*update && errors.Is(err, os.ErrNotExist)) {
		t.Fatal(err)
	}
	dirs, err := Games(shared)
	if err != nil {
		t.Fatal(err)
	}
	quick := (experiment.Quick() || testing.Short()) && !*update
	if !*update {
		var names []string
		for _, d := range dirs {
			names = append(names, key(d))
		}
		if !slices.Equal(names, order) {
			t.Errorf("%s lists other games than the corpus %s (committed %d, corpus %d): %s", tab.file, shared, len(order), len(names), setDiff(order, names))
		}
	}

	// The games to compute: all with -update; otherwise those whose
	// committed row is not a timeout, every tab.every-th of them in a quick
	// run.
	var todo []string
	for _, d := range dirs {
		c, ok := committed[key(d)]
		if *update || ok && !isTimeout(c) {
			todo = append(todo, d)
		}
	}
	if quick {
		var sample []string
		for i := 0; i < len(todo); i += tab.every {
			sample = append(sample, todo[i])
		}
		todo = sample
	}

	start := time.Now()
	var rows []any
	var results []ledger.Result
	diffs, compared, skipped := 0, 0, 0
	for _, d := range todo {
		t0 := time.Now()
		row := tab.row(context.Background(), d)
		took := time.Since(t0)
		m := asMap(t, row)
		if c, ok := committed[key(d)]; *update && isTimeout(m) && ok && !isTimeout(c) {
			// A table is rewritten rarely and kept: a game that made the
			// limit before gets a second try, so that a moment of load on
			// a shared machine does not replace its row by a timeout.
			t.Logf("%s: over 20 s, trying again", key(d))
			t0 = time.Now()
			row = tab.row(context.Background(), d)
			took = time.Since(t0)
			m = asMap(t, row)
		}
		rows = append(rows, row)
		detail, _ := json.Marshal(row)
		results = append(results, ledger.Result{Game: key(d), Value: tab.value(row), Detail: string(detail)})
		c, ok := committed[key(d)]
		switch {
		case !ok:
			t.Logf("%s: new row (%v)", key(d), took.Round(time.Millisecond))
			continue
		case isTimeout(c):
			t.Logf("%s: was over 20 s, now %s (%v)", key(d), errText(m), took.Round(time.Millisecond))
			continue
		case isTimeout(m):
			skipped++
			t.Logf("%s: over 20 s on this machine now, not compared", key(d))
			continue
		}
		compared++
		skip := slices.Clone(tab.timing)
		if tab.sensitive != nil {
			if s := tab.sensitive(c, m); len(s) > 0 {
				t.Logf("%s: near the time limit: %v not compared", key(d), s)
				skip = append(skip, s...)
			}
		}
		lines := compareRows(c, m, skip)
		for _, l := range lines {
			if *update {
				t.Logf("%s: %s", key(d), l)
			} else {
				t.Errorf("%s: %s", key(d), l)
			}
		}
		if len(lines) > 0 {
			diffs++
		}
		t.Logf("%s: %v", key(d), took.Round(time.Millisecond))
	}
	t.Logf("%d games computed in %v (%d compared, %d differ, %d over 20 s now; quick %v)", len(todo), time.Since(start).Round(time.Second), compared, diffs, skipped, quick)

	if *update {
		if err := WriteTable(path, rows); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s (%d rows, %d changed)", path, len(rows), diffs)
	}
	appendRecord(t, root, tab, quick, len(dirs), results, diffs)
}

// appendRecord appends the run's record to the ledger: datasets/ledger for
// a full run with -update, which rewrites the committed table too;
// out/ledger for a quick run or a check, so that running the tests leaves
// the committed files alone.
func appendRecord(t *testing.T, root string, tab table, quick bool, games int, results []ledger.Result, diffs int) {
	if len(results) == 0 {
		return
	}
	version, err := ledger.CodeVersion(root)
	if err != nil {
		t.Fatal(err)
	}
	settings := map[string]string{"mode": "check", "timeout": Timeout.String(), "table": "datasets/results/" + tab.file,
		"games": fmt.Sprint(games), "computed": fmt.Sprint(len(results)), "differing": fmt.Sprint(diffs)}
	if *update {
		settings["mode"] = "update"
	}
	if quick {
		settings["sample"] = fmt.Sprintf("every %d-th game compared, by name", tab.every)
	}
	for k, v := range tab.settings {
		settings[k] = v
	}
	dir := experiment.LedgerDir
	if quick || !*update {
		dir = experiment.ScratchLedgerDir
	}
	l, err := ledger.Open(filepath.Join(root, dir))
	if err != nil {
		t.Fatal(err)
	}
	rec := ledger.Record{Experiment: tab.experiment, Version: version, Quick: quick, Settings: settings,
		Load: ledger.Load(), Source: "go test ./engine/experiment/corpus", Results: results}
	if err := l.Append(rec); err != nil {
		t.Fatal(err)
	}
}

// readRows reads a committed table as generic rows by game, and the games
// in the table's order.
func readRows(path string) (map[string]map[string]any, []string, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	var rows []map[string]any
	if err := json.Unmarshal(raw, &rows); err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	out := map[string]map[string]any{}
	var order []string
	for _, r := range rows {
		g, _ := r["Game"].(string)
		out[g] = r
		order = append(order, g)
	}
	return out, order, nil
}

// asMap is a row as its JSON object.
func asMap(t *testing.T, row any) map[string]any {
	raw, err := json.Marshal(row)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func errText(row map[string]any) string {
	if e, _ := row["Error"].(string); e != "" {
		return "error " + e
	}
	return "computed"
}

// compareRows returns one line per field, in name order, where committed
// and computed differ, fields in skip left out. Numbers agree within a
// relative 1e-9 (a sum's last bits may depend on its order); everything
// else must be equal.
func compareRows(committed, computed map[string]any, skip []string) []string {
	var fields []string
	for f := range committed {
		fields = append(fields, f)
	}
	for f := range computed {
		if _, ok := committed[f]; !ok {
			fields = append(fields, f)
		}
	}
	slices.Sort(fields)
	var out []string
	for _, f := range fields {
		if slices.Contains(skip, f) {
			continue
		}
		a, b := committed[f], computed[f]
		if x, ok := a.(float64); ok {
			if y, ok := b.(float64); ok && math.Abs(x-y) <= 1e-9*math.Max(1, math.Max(math.Abs(x), math.Abs(y))) {
				continue
			}
		} else if fmt.Sprint(a) == fmt.Sprint(b) {
			continue
		}
		out = append(out, fmt.Sprintf("%s: committed %s, computed %s", f, show(a), show(b)))
	}
	return out
}

func show(v any) string {
	if v == nil {
		return "(none)"
	}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // "2.69 > 2.5", not "\u003e"
	enc.Encode(v)
	return strings.TrimSuffix(b.String(), "\n")
}

// setDiff names the games only in a and only in b.
func setDiff(a, b []string) string {
	var onlyA, onlyB []string
	for _, x := range a {
		if !slices.Contains(b, x) {
			onlyA = append(onlyA, x)
		}
	}
	for _, x := range b {
		if !slices.Contains(a, x) {
			onlyB = append(onlyB, x)
		}
	}
	return fmt.Sprintf("only in the table %s; only in the corpus %s", strings.Join(onlyA, " "), strings.Join(onlyB, " "))
}

func boolValue(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// TestCorpusTable recomputes datasets/results/latches-corpus.json (the
// latch analysis of every corpus game, notebook 04) and compares it with
// the committed table; with -update it rewrites the table.
func TestCorpusTable(t *testing.T) {
	runTable(t, table{
		file: LatchesFile, experiment: "corpus-latches", every: 7,
		row:   func(ctx context.Context, dir string) any { return LatchRow(ctx, dir) },
		value: func(row any) float64 { return float64(row.(LatchEntry).GoalLatches) },
	})
}

// TestEnablementCorpusTable recomputes datasets/results/local-enablement.json
// (the move distances and the local-search enablement rule of every corpus
// game, notebook 06) and compares it with the committed table; with
// -update it rewrites the table.
func TestEnablementCorpusTable(t *testing.T) {
	runTable(t, table{
		file: EnablementFile, experiment: "corpus-enablement", every: 7,
		row:   func(ctx context.Context, dir string) any { return EnablementRow(ctx, dir) },
		value: func(row any) float64 { return boolValue(row.(EnablementEntry).Enabled) },
	})
}

// TestEmulationCorpusTable recomputes datasets/results/emulation-corpus.json
// (goal-structure detection on every corpus game, notebook 05) and
// compares it with the committed table; with -update it rewrites the
// table. Full, Emulated and Speedup (playouts per second) and Seconds
// (the time detection took) are timings, never compared. The heuristic's
// test stops quietly at the time limit and then rejects the heuristic, so
// Heuristic is not compared for a game that took 15 s or more (committed
// or now).
func TestEmulationCorpusTable(t *testing.T) {
	opt := EmulationOptions()
	runTable(t, table{
		file: EmulationFile, experiment: "corpus-emulation", every: 9,
		settings: map[string]string{"speed": opt.Speed.String(), "verify seed": fmt.Sprint(opt.Emulation.Verify.Seed),
			"heuristic seed": fmt.Sprint(opt.Emulation.Heuristic.Seed)},
		row:    func(ctx context.Context, dir string) any { return EmulationRow(ctx, dir) },
		value:  func(row any) float64 { return boolValue(row.(emulate.DetectionRow).Goal != "") },
		timing: []string{"Full", "Emulated", "Speedup", "Seconds"},
		sensitive: func(committed, computed map[string]any) []string {
			a, _ := committed["Seconds"].(float64)
			b, _ := computed["Seconds"].(float64)
			if max(a, b) >= 0.75*Timeout.Seconds() {
				return []string{"Heuristic"}
			}
			return nil
		},
	})
}

// TestFactorsCorpusTable recomputes datasets/results/factors-corpus.json
// (the factoring of every corpus game, with its verification and its
// conditional factoring) and compares it with the committed table; with
// -update it rewrites the table. The conditional factoring has a time
// limit of its own: where it passed the limit, committed or now, its
// columns are not compared.
func TestFactorsCorpusTable(t *testing.T) {
	runTable(t, table{
		file: FactorsFile, experiment: "corpus-factors", every: 7,
		settings: map[string]string{"verify seed": "1", "conditional": "random match seed 1, checkpoints at 1/4, 1/2, 3/4"},
		row:      func(ctx context.Context, dir string) any { return FactorRow(ctx, dir) },
		value:    func(row any) float64 { return boolValue(row.(FactorEntry).Verified) },
		sensitive: func(committed, computed map[string]any) []string {
			if isTimeout(map[string]any{"Error": committed["GivenError"]}) || isTimeout(map[string]any{"Error": computed["GivenError"]}) {
				return []string{"Given", "GivenError"}
			}
			return nil
		},
	})
}
