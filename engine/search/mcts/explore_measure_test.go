package mcts

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"gdlab/engine/match"
	"gdlab/engine/propnet/propnettest"
	"gdlab/engine/search"
)

// TestMeasurePolyExplore is a measurement, not a check: Power-UCT with the
// polynomial exploration term against plain UCT on Connect Four at equal
// iterations (500 a move, one thread each, as notebook 08's sweep), 20
// seeded games a seating (40 with seats swapped) for each setting, scores
// with their 95% t intervals (match.Standings, engine/stats). Beside the
// two settings the issue asks for (p = 1.25, the best p of notebook 08's
// Connect Four sweep, and p = 2, both with e = 1) it plays the term alone
// (p = 1) and the same p with UCT's term, on the same seeds. It runs only
// with GDLAB_MEASURE=1 (a few minutes on two cores):
//
//	GDLAB_MEASURE=1 go test ./engine/search/mcts -run TestMeasurePolyExplore -v -count=1
//
// GDLAB_MEASURE_GAMES sets the games a seating (default 20),
// GDLAB_MEASURE_SEED the tournaments' seed (default 2025), and
// GDLAB_MEASURE_SWEEP=1 plays other exponents and a smaller constant
// instead (at p = 1.25, and the term alone at C = 0.2).
func TestMeasurePolyExplore(t *testing.T) {
	if os.Getenv("GDLAB_MEASURE") == "" {
		t.Skip("a measurement; set GDLAB_MEASURE=1 to run it")
	}
	games := 20
	if g := os.Getenv("GDLAB_MEASURE_GAMES"); g != "" {
		if _, err := fmt.Sscan(g, &games); err != nil || games < 1 {
			t.Fatalf("GDLAB_MEASURE_GAMES %q: want a positive number", g)
		}
	}
	seed := uint64(2025)
	if v := os.Getenv("GDLAB_MEASURE_SEED"); v != "" {
		if _, err := fmt.Sscan(v, &seed); err != nil {
			t.Fatalf("GDLAB_MEASURE_SEED %q: want a number", v)
		}
	}
	net := propnettest.Curated(t, "connectFour")
	settings := []measureSetting{
		{"p=1.25 poly e=1", Options{PowerMean: 1.25, PolyExplore: 1}},
		{"p=2 poly e=1", Options{PowerMean: 2, PolyExplore: 1}},
		{"p=1 poly e=1 (term alone)", Options{PolyExplore: 1}},
		{"p=1.25 UCT term", Options{PowerMean: 1.25}},
		{"p=2 UCT term", Options{PowerMean: 2}},
	}
	if os.Getenv("GDLAB_MEASURE_SWEEP") != "" {
		settings = []measureSetting{
			{"p=1.25 poly e=0.5", Options{PowerMean: 1.25, PolyExplore: 0.5}},
			{"p=1.25 poly e=1.5", Options{PowerMean: 1.25, PolyExplore: 1.5}},
			{"p=1.25 poly e=1 C=0.2", Options{PowerMean: 1.25, PolyExplore: 1, PolyExploreC: 0.2}},
			{"p=1 poly e=1 C=0.2", Options{PolyExplore: 1, PolyExploreC: 0.2}},
		}
	}
	var rows []string
	for _, s := range settings {
		opt := s.opt
		opt.Iterations = 500
		tour := match.Tournament{Game: "connectFour", Machine: net, Games: games, Seed: seed, Workers: 2,
			Entrants: []match.Entrant{
				{Name: "power", New: func() search.Player { return New(opt) }},
				{Name: "uct", New: func() search.Player { return New(Options{Iterations: 500}) }},
			}}
		tab, err := tour.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		st := match.Standings(tab)[0]
		rows = append(rows, fmt.Sprintf("%-28s %3d games  score %5.1f [%5.1f, %5.1f]  +%d =%d -%d",
			s.name, st.Games, st.Mean, st.Low, st.High, st.Wins, st.Draws, st.Losses))
		t.Log(rows[len(rows)-1])
	}
	t.Logf("Power-UCT's score against plain UCT, connectFour, 500 iterations a move:\n%s", strings.Join(rows, "\n"))
}

// measureSetting names one player setting of the measurement.
type measureSetting struct {
	name string
	opt  Options
}
