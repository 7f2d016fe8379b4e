package sweep

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// smallSpec is a sweep of MCTS's iterations against alpha-beta on
// tic-tac-toe and Connect Four under Next-call budgets: reproducible.
func smallSpec() *Spec {
	return &Spec{Name: "small", Games: []string{"ticTacToe", "connectFour"}, Seeds: 4, Seed: 7,
		Players: []PlayerSpec{
			{Kind: "mcts", Params: map[string]float64{"iterations": 20}},
			{Label: "ab", Kind: "alphabeta", Params: map[string]float64{"nextcalls": 200}},
		},
		Axes: []Axis{{Param: "mcts.iterations", Values: []float64{10, 80}}}}
}

func csvOf(t *testing.T, tab *Table, withTime bool) string {
	t.Helper()
	var b bytes.Buffer
	if err := tab.WriteCSV(&b, withTime); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestLocalAndPrismAgree(t *testing.T) {
	ctx := context.Background()
	local, err := Run(ctx, smallSpec(), Options{Runner: RunnerLocal, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(local.Results) != 16 {
		t.Fatalf("%d results, want 16", len(local.Results))
	}
	beam, err := Run(ctx, smallSpec(), Options{Runner: RunnerPrism})
	if err != nil {
		t.Fatal(err)
	}
	a, b := csvOf(t, local, false), csvOf(t, beam, false)
	if a != b {
		t.Errorf("the tables differ:\nlocal:\n%s\nprism:\n%s", a, b)
	}
	t.Logf("\n%s", a)
}

func TestSettingsAndSeeds(t *testing.T) {
	s := smallSpec()
	s.Axes = append(s.Axes, Axis{Param: "ab.noordering", Values: []float64{0, 1}})
	sets := s.Settings()
	if len(sets) != 4 || sets[1]["ab.noordering"] != 1 || sets[2]["mcts.iterations"] != 80 {
		t.Fatalf("settings %v", sets)
	}
	if got := len(s.Units()); got != 4*2*4 {
		t.Fatalf("%d units", got)
	}
	u0, u1 := Unit{Setting: 0, Game: "ticTacToe", Seed: 1}, Unit{Setting: 3, Game: "connectFour", Seed: 1}
	if s.MatchSeed(u0) != s.MatchSeed(u1) {
		t.Error("the same seed number should give the same match seed in every setting and game")
	}
	ps := s.Players[1].in(sets[3])
	if ps["noordering"] != 1 || ps["nextcalls"] != 200 {
		t.Errorf("alpha-beta's parameters in setting 3: %v", ps)
	}
}

func TestSpecErrors(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{`{"name": "x", "games": ["ticTacToe"], "players": [{"kind": "mcts"}], "seeds": 1,}`, "spec.json:1:"},
		{"{\"name\": \"x\",\n \"games\": 3}", "spec.json:2:"},
		{`{"name": "x", "games": ["ticTacToe"], "players": [{"kind": "mcst"}], "seeds": 1}`, `unknown kind "mcst"`},
		{`{"name": "x", "games": ["ticTacToe"], "players": [{"kind": "mcts", "params": {"p": 2}}], "seeds": 1}`, `takes no "p"`},
		{`{"name": "x", "games": ["ticTacToe"], "players": [{"kind": "random", "eval": "mobility"}], "seeds": 1}`, "takes no evaluator"},
		{`{"name": "x", "games": ["ticTacToe"], "players": [{"kind": "mm"}], "seeds": 1, "axes": [{"param": "ab.p", "values": [1]}]}`, "names no player"},
		{`{"name": "x", "games": ["ticTacToe"], "players": [{"kind": "mm"}], "seeds": 0}`, "seeds"},
		{`{"name": "x", "games": ["ticTacToe"], "players": [{"kind": "mm"}], "seeds": 1, "typo": 1}`, `unknown field "typo"`},
	} {
		_, err := Parse("spec.json", []byte(c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.text, err, c.want)
		}
	}
}

func TestResume(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := smallSpec()
	s.Seeds = 2
	first, err := Run(ctx, s, Options{Runner: RunnerLocal, Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	// Mark one kept result: a rerun must read it back, not replay it.
	path := unitPath(s, dir, first.Results[0].Unit)
	data, _ := os.ReadFile(path)
	os.WriteFile(path, bytes.Replace(data, []byte(`"moves":`), []byte(`"moves":1000`), 1), 0o644)
	s.Seeds = 4
	done := 0
	second, err := Run(ctx, s, Options{Runner: RunnerLocal, Dir: dir, Progress: func(d, total int) { done = d }})
	if err != nil {
		t.Fatal(err)
	}
	if len(second.Results) != 16 || done != 16 {
		t.Fatalf("%d results, progress %d, want 16", len(second.Results), done)
	}
	if second.Results[0].Moves < 1000 {
		t.Error("the rerun replayed a finished unit instead of reading it")
	}
	if _, err := os.Stat(filepath.Join(dir, "small.parquet")); err != nil {
		t.Error(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "small.csv")); err != nil {
		t.Error(err)
	}
	s.Axes[0].Values = []float64{10, 40}
	if _, err := Run(ctx, s, Options{Runner: RunnerLocal, Dir: dir}); err == nil || !strings.Contains(err.Error(), "another spec") {
		t.Errorf("a changed spec in the same directory: %v", err)
	}
}

func TestSummary(t *testing.T) {
	s := smallSpec()
	tab := &Table{Spec: s, Results: []Result{
		{Unit: Unit{Setting: 0, Game: "ticTacToe"}, Players: []string{"mcts", "ab"}, Scores: []int{100, 0}},
		{Unit: Unit{Setting: 0, Game: "ticTacToe", Seed: 1}, Players: []string{"ab", "mcts"}, Scores: []int{100, 0}},
		{Unit: Unit{Setting: 0, Game: "connectFour"}, Players: []string{"mcts", "ab"}, Scores: []int{50, 50}},
	}}
	lines := tab.Summary()
	if len(lines) != 6 {
		t.Fatalf("%d lines", len(lines))
	}
	if l := lines[0]; l.Game != "ticTacToe" || l.Matches != 2 || l.Mean != 50 {
		t.Errorf("first line %+v", l)
	}
	if l := lines[2]; l.Game != "" || l.Matches != 3 || l.Mean != 50 {
		t.Errorf("pooled line %+v", l)
	}
}
