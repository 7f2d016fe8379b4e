package experiment

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"gdlab/engine/ledger"
	"gdlab/engine/match"
)

// run makes a record of version with one result per value, all of game g.
func run(version string, quick bool, g string, values ...float64) ledger.Record {
	rec := ledger.Record{Experiment: "e", Version: version, Quick: quick}
	for _, v := range values {
		rec.Results = append(rec.Results, ledger.Result{Game: g, Value: v})
	}
	return rec
}

func TestPoolOfPoolsFullRunsOfTheCurrentVersion(t *testing.T) {
	recs := []ledger.Record{
		run("old", false, "a", 0, 0),
		run("new", false, "a", 100, 0),
		run("new", true, "a", 100, 100, 100), // quick: never pooled
		run("new", false, "a", 100, 100),
		run("new", false, "b", 0),
	}
	p := PoolOf("e", "a", "new", recs)
	if !p.Current || len(p.Runs) != 2 || p.N != 4 || p.Mean != 75 {
		t.Fatalf("pool of a: %+v", p)
	}
	if all := PoolOf("e", "", "new", recs); all.N != 5 || len(all.Runs) != 3 || all.Mean != 60 {
		t.Fatalf("pool of every game: %+v", all)
	}
	// t interval of {100, 0, 100, 100}: 75 ± 3.182446 · 50/2.
	if half := 3.182446 * 25; math.Abs(p.Low-(75-half)) > 1e-4 || math.Abs(p.High-(75+half)) > 1e-4 {
		t.Errorf("interval [%g, %g], want 75 ± %g", p.Low, p.High, half)
	}
	if m, lo, hi := p.RunInterval(0); m != 50 || lo >= 0 || hi <= 100 {
		t.Errorf("first run: %g [%g, %g]", m, lo, hi)
	}
}

// TestPoolClipsMatchScores: a pool of match scores (results with an
// outcome) near 100 has its interval clipped to 100, as match tables clip
// theirs; a pool of other values keeps its interval whole.
func TestPoolClipsMatchScores(t *testing.T) {
	scores := ledger.Record{Experiment: "e", Version: "v"}
	for i := range 50 {
		res := ledger.Result{Game: "a", Value: 100, Outcome: ledger.Win}
		if i%25 == 0 {
			res.Value, res.Outcome = 0, ledger.Loss
		}
		scores.Results = append(scores.Results, res)
	}
	p := PoolOf("e", "a", "v", []ledger.Record{scores})
	if p.Mean != 96 || p.High != 100 || p.Low <= 0 || p.Low >= 96 {
		t.Errorf("pool of scores: %g [%g, %g], want 96 with its interval clipped at 100", p.Mean, p.Low, p.High)
	}
	if _, _, hi := p.RunInterval(0); hi != 100 {
		t.Errorf("the run's interval reaches %g", hi)
	}
	plain := run("v", false, "a", 100, 100, 100, 100, 0)
	if q := PoolOf("e", "a", "v", []ledger.Record{plain}); q.High <= 100 {
		t.Errorf("a pool of plain values was clipped: [%g, %g]", q.Low, q.High)
	}
}

func TestPoolOfFallsBackToTheLatestVersionWithAFullRun(t *testing.T) {
	recs := []ledger.Record{run("v1", false, "a", 10), run("v2", false, "a", 20, 30), run("v3", true, "a", 90)}
	p := PoolOf("e", "a", "v3", recs)
	if p.Current || p.Version != "v2" || p.N != 2 || p.Mean != 25 {
		t.Fatalf("fallback pool: %+v", p)
	}
	if !strings.Contains(p.String(), "not the code running now") {
		t.Errorf("a stale pool does not say so: %s", p)
	}
	if none := PoolOf("e", "a", "v1", nil); none.N != 0 || !strings.Contains(none.String(), "no full run") {
		t.Errorf("empty pool: %+v %s", none, none)
	}
}

func TestScoreRule(t *testing.T) {
	t.Setenv("GDLAB_QUICK", "")
	rule := ScoreRule{Target: 60, Floor: 50}
	scores := func(version string, wins, games int) Pool {
		vs := make([]float64, games)
		for i := 0; i < wins; i++ {
			vs[i] = 100
		}
		return PoolOf("e", "", version, []ledger.Record{run("v", false, "g", vs...)})
	}
	for _, c := range []struct {
		name               string
		p                  Pool
		supported, refuted bool
	}{
		{"clear win", scores("v", 70, 100), true, false},
		{"short of the target", scores("v", 40, 100), false, true},
		{"undecided", scores("v", 12, 20), false, false},
		{"stale code: the older runs' verdict", scores("other", 90, 100), true, false},
		{"no run decides nothing", PoolOf("e", "", "v", nil), false, false},
	} {
		v := rule.Decide(c.p, "")
		if v.Supported != c.supported || v.Refuted != c.refuted || v.Stale == c.p.Current {
			t.Errorf("%s: %+v", c.name, v)
		}
		if !strings.Contains(v.Text, "The rule:") {
			t.Errorf("%s: the verdict does not state its rule: %s", c.name, v.Text)
		}
	}
	if !strings.HasPrefix((Verdict{Refuted: true}).Markdown(), "**Refuted.**") {
		t.Error("a refuted verdict does not say so")
	}
	stale := rule.Decide(scores("other", 90, 100), "")
	if md := stale.Markdown(); !strings.HasPrefix(md, "**Not decided for this code**") || !strings.Contains(md, "make it supported") {
		t.Errorf("a stale verdict reads as this code's: %s", md)
	}
}

func TestVerdictMarksItsClaim(t *testing.T) {
	t.Setenv("GDLAB_QUICK", "1")
	md := Verdict{Claim: "depth", Refuted: true, Quick: Quick()}.Markdown()
	if !strings.HasSuffix(md, "<!-- claim depth: refuted -->") || !strings.Contains(md, "decided from the ledger's full runs") {
		t.Errorf("marked verdict: %q", md)
	}
	if md := (Verdict{Refuted: true, Quick: true}).Markdown(); !strings.Contains(md, "not a verdict") {
		t.Errorf("a quick verdict on this run's data: %q", md)
	}
	if md := (Verdict{Supported: true}).Markdown(); strings.Contains(md, "<!--") {
		t.Errorf("an unnamed verdict is marked: %q", md)
	}
}

func TestPoolRebuildsMatchTables(t *testing.T) {
	tab := &match.Table{Rows: []match.Row{
		{Game: "g", Seed: 1, Roles: []string{"white", "black"}, Players: []string{"a", "b"}, Scores: []int{100, 0}},
		{Game: "g", Seed: 2, Roles: []string{"white", "black"}, Players: []string{"b", "a"}, Scores: []int{50, 50}},
	}}
	rec := ledger.Record{Experiment: "e", Version: "v", Results: TableResults(tab)}
	again := rec
	again.Seeds = []uint64{2}
	p := PoolOf("e", "", "v", []ledger.Record{rec, again})
	got := p.Table()
	if len(got.Rows) != 4 {
		t.Fatalf("%d matches rebuilt from two runs of two, want 4", len(got.Rows))
	}
	for i, r := range got.Rows {
		want := tab.Rows[i%2]
		if r.Index != i || r.Seed != want.Seed || !reflect.DeepEqual(r.Players, want.Players) ||
			!reflect.DeepEqual(r.Roles, want.Roles) || !reflect.DeepEqual(r.Scores, want.Scores) {
			t.Errorf("match %d: %+v, want %+v", i, r, want)
		}
	}
	if st := match.Standings(got); st[0].Player != "a" || st[0].Mean != 75 || st[0].Wins != 2 || st[0].Draws != 2 {
		t.Errorf("pooled standing of a: %+v", st[0])
	}
	if s := p.TableString(); !strings.HasPrefix(s, "4 matches pooled over 2 full runs") {
		t.Errorf("table pool: %s", s)
	}
}

func TestRecordWritesFullRunsToTheLedgerAndQuickRunsAside(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"go.mod", "go.sum"} {
		if err := os.WriteFile(filepath.Join(root, f), []byte("module gdlab\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, d := range []string{"engine", "datasets"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("GDLAB_ROOT", root)
	res := []ledger.Result{{Game: "g", Value: 100}}
	t.Setenv("GDLAB_QUICK", "1")
	if _, err := Record(Run{Experiment: "e", Results: res}); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GDLAB_QUICK", "")
	rec, err := Record(Run{Experiment: "e", Settings: map[string]string{"games": "1"}, Results: res})
	if err != nil {
		t.Fatal(err)
	}
	p, err := Pooled("e", "g")
	if err != nil {
		t.Fatal(err)
	}
	if !p.Current || len(p.Runs) != 1 || p.Runs[0].Version != rec.Version || p.Runs[0].Settings["games"] != "1" {
		t.Fatalf("pooled after one full and one quick run: %+v", p)
	}
	scratch, err := ledger.Open(filepath.Join(root, ScratchLedgerDir))
	if err != nil {
		t.Fatal(err)
	}
	if quick, err := scratch.Runs("e"); err != nil || len(quick) != 1 || !quick[0].Quick {
		t.Fatalf("the quick run is not in the scratch ledger: %+v, %v", quick, err)
	}
}

func TestMatchResults(t *testing.T) {
	tab := &match.Table{Rows: []match.Row{
		{Game: "g", Seed: 1, Roles: []string{"white", "black"}, Players: []string{"a", "b"}, Scores: []int{100, 0}},
		{Game: "g", Seed: 2, Roles: []string{"white", "black"}, Players: []string{"b", "a"}, Scores: []int{50, 50}},
		{Game: "g", Seed: 3, Roles: []string{"white", "black"}, Players: []string{"b", "a"}, Scores: []int{100, -1}},
	}}
	got := MatchResults(tab, "a")
	want := []ledger.Result{
		{Game: "g", Seed: 1, Value: 100, Outcome: ledger.Win, Detail: "as white", Player: "a", Match: 1},
		{Game: "g", Seed: 2, Value: 50, Outcome: ledger.Draw, Detail: "as black", Player: "a", Match: 2},
		{Game: "g", Seed: 3, Value: 0, Outcome: ledger.Loss, Detail: "as black", Player: "a", Match: 3},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("results of a:\n got %+v\nwant %+v", got, want)
	}
}

func TestChartData(t *testing.T) {
	p := PoolOf("e", "", "v", []ledger.Record{run("v", false, "g", 100), run("v", false, "g", 0, 100)})
	cats, xs, means, lows, highs := p.ChartData(0, 100)
	if !reflect.DeepEqual(cats, []string{"run 1", "run 2", "pooled"}) || !reflect.DeepEqual(xs, []float64{0, 1, 2}) {
		t.Fatalf("categories %v at %v", cats, xs)
	}
	if means[0] != 100 || lows[0] != 0 || highs[0] != 100 || means[2] != p.Mean || lows[1] != 0 || highs[1] != 100 {
		t.Errorf("means %v lows %v highs %v", means, lows, highs)
	}
}

func TestPoolOfCountsExactReplicasOnce(t *testing.T) {
	a := run("v", false, "g", 100, 0)
	a.Seeds = []uint64{1}
	again := a
	other := run("v", false, "g", 100, 100)
	other.Seeds = []uint64{1} // same seeds, other results: a time-bound run
	p := PoolOf("e", "", "v", []ledger.Record{a, again, other})
	if len(p.Runs) != 2 || p.Replicas != 1 || p.N != 4 || p.Mean != 75 {
		t.Fatalf("pool with a replica: %+v", p)
	}
	if !strings.Contains(p.String(), "1 more run reproduced a pooled run exactly: counted once") || !strings.Contains(p.String(), "of 2 full runs") {
		t.Errorf("the pool does not say it left a replica out: %s", p)
	}
}

// TestPooledKeepsRunsWhoseScopeIsUnchanged: a run recorded with a scope
// stays current while only code outside the scope changes, and goes stale
// when code inside it does.
func TestPooledKeepsRunsWhoseScopeIsUnchanged(t *testing.T) {
	root := t.TempDir()
	write := func(rel, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, rel), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module gdlab\n")
	write("go.sum", "")
	write("engine/a/a.go", "package a\n\nfunc A() int { return 1 }\n")
	write("engine/b/b.go", "package b\n\nfunc B() int { return 1 }\n")
	write("datasets/games/g/g.kif", "(role r)\n")
	t.Setenv("GDLAB_ROOT", root)
	t.Setenv("GDLAB_QUICK", "")
	defer ledger.SetScope(ledger.Scope())
	ledger.SetScope([]string{"gdlab/engine/a"})
	rec, err := Record(Run{Experiment: "e", Results: []ledger.Result{{Game: "g", Value: 100}}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(rec.Scope, []string{"gdlab/engine/a"}) {
		t.Fatalf("the record's scope is %v", rec.Scope)
	}
	ledger.SetScope(nil) // a reader with another scope, or none, pools by the record's
	pooled := func() Pool {
		t.Helper()
		p, err := Pooled("e", "g")
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("engine/b/b.go", "package b\n\nfunc B() int { return 2 }\n")
	if p := pooled(); !p.Current || p.N != 1 || p.Version != rec.Version {
		t.Fatalf("after a change outside the scope: %+v", p)
	}
	write("engine/a/a.go", "package a\n\nfunc A() int { return 2 }\n")
	if p := pooled(); p.Current || p.N != 1 {
		t.Fatalf("after a change inside the scope: %+v", p)
	}
}
