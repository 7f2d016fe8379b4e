package match_test

import (
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"gdlab/engine/game"
	"gdlab/engine/match"
	"gdlab/engine/search"
	"gdlab/engine/search/searchtest"
)

// handTable is A against B twenty times: per block of four, A wins two,
// draws one and loses one (scores 100/0, 50/50, 0/100).
func handTable() *match.Table {
	pattern := [][2]int{{100, 0}, {100, 0}, {50, 50}, {0, 100}}
	tab := &match.Table{}
	for i := 0; i < 20; i++ {
		s := pattern[i%4]
		tab.Rows = append(tab.Rows, match.Row{Index: i, Game: "hand", Roles: []string{"white", "black"},
			Players: []string{"A", "B"}, Scores: []int{s[0], s[1]}, Moves: 1, Finished: true})
	}
	return tab
}

// TestStandings checks the statistics against values worked out by hand.
func TestStandings(t *testing.T) {
	st := match.Standings(handTable())
	if len(st) != 2 || st[0].Player != "A" || st[1].Player != "B" {
		t.Fatalf("%v", st)
	}
	a := st[0]
	if a.Games != 20 || a.Wins != 10 || a.Draws != 5 || a.Losses != 5 {
		t.Errorf("A: %+v", a)
	}
	// Mean 62.5; sample variance 6875·5/19; t(0.975, 19) = 2.0930240544.
	half := 2.0930240544 * math.Sqrt(6875.0*5/19) / math.Sqrt(20)
	if math.Abs(a.Mean-62.5) > 1e-9 || math.Abs(a.Low-(62.5-half)) > 1e-6 || math.Abs(a.High-(62.5+half)) > 1e-6 {
		t.Errorf("A: mean %v [%v, %v], want 62.5 ± %v", a.Mean, a.Low, a.High, half)
	}
	// 12.5 points of 20 plus one virtual draw: p = 13/21, so the rating gap
	// is ln(13/8)·400/ln 10, split evenly; Var(R_A) = 1/(4·21·p·(1−p)).
	scale := 400 / math.Ln10
	gap := math.Log(13.0/8.0) * scale
	se := math.Sqrt(1/(4*21*(13.0/21)*(8.0/21))) * scale
	if math.Abs(a.Elo-gap/2) > 1e-6 || math.Abs(st[1].Elo+gap/2) > 1e-6 {
		t.Errorf("Elo %v and %v, want ±%v", a.Elo, st[1].Elo, gap/2)
	}
	if math.Abs(a.EloSE-se) > 1e-6 || math.Abs(a.EloHigh-a.Elo-1.96*se) > 1e-6 {
		t.Errorf("Elo SE %v, want %v", a.EloSE, se)
	}
}

// TestRatingsThree: with three players in a cycle of equal strength the
// ratings are 0; a player who always wins stays finite.
func TestRatingsThree(t *testing.T) {
	tab := &match.Table{}
	add := func(a, b string, sa, sb int) {
		tab.Rows = append(tab.Rows, match.Row{Players: []string{a, b}, Scores: []int{sa, sb}, Roles: []string{"r", "s"}})
	}
	for i := 0; i < 3; i++ {
		add("x", "y", 100, 0)
		add("y", "z", 100, 0)
		add("z", "x", 100, 0)
	}
	for _, r := range match.Ratings(tab) {
		if math.Abs(r.Elo) > 1e-6 || r.SE <= 0 {
			t.Errorf("cycle: %+v", r)
		}
	}
	tab.Rows = nil
	for i := 0; i < 5; i++ {
		add("champ", "y", 100, 0)
		add("champ", "z", 100, 0)
		add("y", "z", 50, 50)
	}
	r := match.Ratings(tab)
	if !(r[0].Elo > 100 && r[0].Elo < 1000) || math.Abs(r[1].Elo-r[2].Elo) > 1e-6 {
		t.Errorf("champion: %+v", r)
	}
}

func TestSaveLoad(t *testing.T) {
	tab := handTable()
	tab.Rows[3].Events = []match.Event{{Move: 2, Seat: 1, Kind: "late", Detail: "returned after 1.2s"}}
	tab.Rows[3].History = [][]string{{"(mark 1 1)", "noop"}, {"noop", "(mark 2 2)"}}
	dir := t.TempDir()
	jpath, cpath := filepath.Join(dir, "t.json"), filepath.Join(dir, "t.csv")
	if err := tab.SaveJSON(jpath); err != nil {
		t.Fatal(err)
	}
	if err := tab.SaveCSV(cpath); err != nil {
		t.Fatal(err)
	}
	back, err := match.LoadJSON(jpath)
	if err != nil || !reflect.DeepEqual(back, tab) {
		t.Errorf("JSON round trip: %v", err)
	}
	f, _ := os.Open(cpath)
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil || len(recs) != 21 {
		t.Fatalf("CSV: %v, %d records", err, len(recs))
	}
	head, row := recs[0], recs[4]
	col := func(name string) string {
		for i, h := range head {
			if h == name {
				return row[i]
			}
		}
		t.Fatalf("no column %s in %v", name, head)
		return ""
	}
	if col("player_2") != "B" || col("score_1") != "0" || col("events") != "2:2:late" || col("history") != "(mark 1 1) noop | noop (mark 2 2)" {
		t.Errorf("CSV row %v", row)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 2 {
		t.Errorf("temporary files left: %v", ents)
	}
}

// ExampleTournament plays a seeded round robin of nim. Without clocks, and
// with a fresh machine per match, the table is the same on every run. Nim is
// a first-player win, so alpha-beta loses only when random, moving first,
// happens to play perfectly.
func ExampleTournament() {
	tr := match.Tournament{
		Game:       "nim",
		NewMachine: func() (game.Machine, error) { return searchtest.Game("nim") },
		Entrants: []match.Entrant{
			{Name: "random", New: func() search.Player { return &search.Random{} }},
			{Name: "alphabeta", New: func() search.Player { return &search.AlphaBeta{} }, Budget: search.Budget{Nodes: 100}},
		},
		Games: 5,
		Seed:  1,
	}
	tab, err := tr.Run(context.Background())
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, s := range match.Standings(tab) {
		fmt.Printf("%s: %d games, +%d =%d -%d\n", s.Player, s.Games, s.Wins, s.Draws, s.Losses)
	}
	// Output:
	// random: 10 games, +2 =0 -8
	// alphabeta: 10 games, +8 =0 -2
}
