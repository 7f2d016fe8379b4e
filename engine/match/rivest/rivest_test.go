package rivest

import (
	"bytes"
	"context"
	"math"
	"strings"
	"testing"

	"gdlab/engine/search"
)

func TestWilson(t *testing.T) {
	p, lo, hi := Wilson(249+51.0/2, 490)
	if math.Abs(p-0.5602) > 1e-3 || lo > p || hi < p || hi-lo > 0.1 {
		t.Errorf("Wilson: %g [%g, %g]", p, lo, hi)
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
	var md bytes.Buffer
	rp := &Report{Title: "t", Blocks: []Block{{Title: "b", Results: append(rs, Total("total", rs), PaperTotal("moves"))}}}
	if err := rp.WriteMarkdown(&md); err != nil || !strings.Contains(md.String(), "| Rivest 1987, total |  |  | 490 | 249 | 190 | 51 |") {
		t.Errorf("markdown %v:\n%s", err, md.String())
	}
}
