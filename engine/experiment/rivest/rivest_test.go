package rivest

import (
	"bytes"
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"gdlab/engine/match"
	"gdlab/engine/search"
)

// TestSummarise counts from MM's side whichever seat it held, skips failed
// games and keeps each game's outcome at its index.
func TestSummarise(t *testing.T) {
	rows := []match.Row{
		{Players: []string{"mm", "ab"}, Scores: []int{100, 0}, Moves: 10, NextCalls: []int64{50, 100}, Seconds: []float64{1, 1}, MeanDepth: []float64{8, 4}},
		{Players: []string{"ab", "mm"}, Scores: []int{100, 0}, Moves: 20, NextCalls: []int64{100, 50}, Seconds: []float64{1, 1}, MeanDepth: []float64{4, 8}},
		{},
		{Players: []string{"ab", "mm"}, Scores: []int{50, 50}, Moves: 30, NextCalls: []int64{100, 50}, Seconds: []float64{1, 1}, MeanDepth: []float64{4, 8}},
		{Players: []string{"ab", "mm"}, Scores: []int{0, 100}, Moves: 40, NextCalls: []int64{100, 50}, Seconds: []float64{1, 1}, MeanDepth: []float64{4, 8}},
	}
	r := summarise(MoveBounds()[0], Config{P: 7}, "e", rows)
	if r.Games != 4 || r.MMWins != 2 || r.ABWins != 1 || r.Ties != 1 || r.Plies != 100 {
		t.Errorf("counts %+v", r)
	}
	if want := []float64{1, 0, -1, 0.5, 1}; !slices.Equal(r.Outcomes, want) {
		t.Errorf("outcomes %v, want %v", r.Outcomes, want)
	}
	if r.MMCalls != 200 || r.ABCalls != 400 || r.CallRatio != 2 || r.MMDepth != 8 || r.ABDepth != 4 || r.Score != 0.625 {
		t.Errorf("calls, ratio, depth or score: %+v", r)
	}
	tot := Total("total", []Result{r, r})
	if tot.Games != 8 || tot.MMWins != 4 || tot.CallRatio != 2 || tot.Score != 0.625 || tot.Low <= r.Low {
		t.Errorf("total %+v (one block %+v)", tot, r)
	}
}

// sweepBlock makes a sweep block whose p-th result has the given outcomes.
func sweepBlock(ps []float64, outcomes [][]float64) Block {
	b := Block{Title: "sweep"}
	for i, p := range ps {
		b.Results = append(b.Results, Result{P: p, Outcomes: outcomes[i]})
	}
	return b
}

// TestBestP: a p that wins every game is best in every resample with a
// positive interval; two identical p share the top; failed games (-1) do
// not count.
func TestBestP(t *testing.T) {
	n := 40
	all := func(v float64) []float64 {
		out := make([]float64, n)
		for i := range out {
			out[i] = v
		}
		return out
	}
	half := all(0)
	for i := 0; i < n; i += 2 {
		half[i] = 1
	}
	half[1] = -1
	v := BestP([]Block{sweepBlock([]float64{1, 10, 100}, [][]float64{half, all(1), all(0)})}, 500, 1)
	if v.Ps[0].P != 10 || v.Ps[0].Top != 1 || v.Ps[0].Games != n || v.Ps[1].P != 1 || v.Ps[1].Games != n-1 {
		t.Fatalf("clear winner: %+v", v.Ps)
	}
	if e := v.Ps[1]; math.Abs(e.Diff-(1-20.0/39)) > 1e-12 || e.Low <= 0.2 || e.High > 0.8 || e.Low > e.Diff || e.High < e.Diff {
		t.Errorf("difference to p=1: %+v", e)
	}
	if e := v.Ps[2]; e.Diff != 1 || e.Low != 1 || e.High != 1 || e.SimLow != 1 || e.SimHigh != 1 {
		t.Errorf("difference to p=100: %+v", e)
	}
	// Two comparisons: each simultaneous interval is a 97.5% one, wider.
	if e := v.Ps[1]; e.SimLow > e.Low || e.SimHigh < e.High || e.SimHigh-e.SimLow <= e.High-e.Low {
		t.Errorf("simultaneous interval [%g, %g] not wider than [%g, %g]", e.SimLow, e.SimHigh, e.Low, e.High)
	}
	if a := SimultaneousAlpha(7); math.Abs(a-0.05/6) > 1e-15 {
		t.Errorf("alpha for 7 values: %g", a)
	}
	// Pooled over two blocks, p=2 wins one and loses the other: even with 5.
	b1 := sweepBlock([]float64{2, 5}, [][]float64{all(1), half})
	b2 := sweepBlock([]float64{2, 5}, [][]float64{all(0), half})
	v = BestP([]Block{b1, b2}, 400, 2)
	top := v.Ps[0].Top + v.Ps[1].Top
	if math.Abs(top-1) > 1e-9 || v.Ps[1].P != 2 || v.Ps[1].Games != 2*n || v.Ps[1].Top < 0.2 {
		t.Errorf("top shares %+v do not add to 1", v.Ps)
	}
	if lines := v.Markdown(); len(lines) != 6 || !strings.Contains(lines[0], "best p = ") {
		t.Errorf("markdown %q", lines)
	}
}

func TestRun(t *testing.T) {
	ctx := context.Background()
	m, err := Machine(ctx)
	if err != nil {
		t.Fatal(err)
	}
	states, names, err := Openings(m)
	if err != nil || len(states) != 49 || names[0] != "(drop 1) (drop 1)" {
		t.Fatalf("%d openings, first %q, err %v", len(states), names[0], err)
	}
	b := Bound{Label: "300 calls", Kind: "moves", Budget: search.Budget{NextCalls: 300}}
	rs, table, err := Run(ctx, m, Config{P: 10, Openings: 2, Seed: 3, Workers: 2}, []Bound{b})
	if err != nil {
		t.Fatal(err)
	}
	r := rs[0]
	if r.Games != 4 || r.MMWins+r.ABWins+r.Ties != 4 || len(table.Rows) != 4 {
		t.Fatalf("result %+v", r)
	}
	for _, row := range table.Rows {
		for s, calls := range row.NextCalls {
			if moves := (row.Moves + 1) / 2; calls > int64(moves)*300 {
				t.Errorf("seat %d made %d calls in %d moves", s, calls, moves)
			}
		}
	}
	if len(r.Outcomes) != 4 {
		t.Errorf("outcomes %v", r.Outcomes)
	}
	// The same games again, p aside: the same seeds give the same games
	// under a move bound, whatever the workers' schedule.
	again, _, err := Run(ctx, m, Config{P: 10, Openings: 2, Seed: 3, Workers: 1}, []Bound{b})
	if err != nil || !slices.Equal(again[0].Outcomes, r.Outcomes) || again[0].MMCalls != r.MMCalls || again[0].ABCalls != r.ABCalls {
		t.Errorf("replay differs: %+v\nfirst %+v (err %v)", again[0], r, err)
	}
	var md bytes.Buffer
	rp := &Report{Title: "t", Blocks: []Block{{Title: "b", Results: append(rs, Total("total", rs), PaperTotal("moves"))}}, Summary: []string{"verdict"}}
	if err := rp.WriteMarkdown(&md); err != nil || !strings.Contains(md.String(), "| Rivest 1987, total |  |  | 490 | 249 | 190 | 51 | 0.560 | [0.516, 0.604] |") || !strings.Contains(md.String(), "## Summary\n\nverdict\n") {
		t.Errorf("markdown %v:\n%s", err, md.String())
	}
}

// TestGameSeed: the 98 games of a bound get 98 different seeds, and the
// seeds do not depend on anything but the base seed, opening and seat.
func TestGameSeed(t *testing.T) {
	seen := map[uint64]bool{}
	for o := range 49 {
		for c := range 2 {
			s := GameSeed(1, o, c)
			if seen[s] || s != GameSeed(1, o, c) || s == GameSeed(2, o, c) {
				t.Fatalf("opening %d seat %d: seed %d repeated or not a function of the base seed", o, c, s)
			}
			seen[s] = true
		}
	}
}

// TestABSwitches: the alpha-beta switches reach the games: without its
// transposition table and move ordering, alpha-beta searches less deep in
// the same move calls.
func TestABSwitches(t *testing.T) {
	ctx := context.Background()
	m, err := Machine(ctx)
	if err != nil {
		t.Fatal(err)
	}
	b := Bound{Label: "2000 calls", Kind: "moves", Budget: search.Budget{NextCalls: 2000}}
	full, _, err := Run(ctx, m, Config{P: 10, Openings: 3, Seed: 3}, []Bound{b})
	if err != nil {
		t.Fatal(err)
	}
	bare, _, err := Run(ctx, m, Config{P: 10, Openings: 3, Seed: 3, ABNoTable: true, ABNoOrdering: true}, []Bound{b})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("alpha-beta's mean depth: %.2f with table and ordering, %.2f without", full[0].ABDepth, bare[0].ABDepth)
	if bare[0].ABDepth >= full[0].ABDepth {
		t.Errorf("without table and ordering alpha-beta reached depth %.2f, with them %.2f", bare[0].ABDepth, full[0].ABDepth)
	}
}
