package stats

import (
	"math"
	"testing"
)

func TestEloExpected(t *testing.T) {
	for _, c := range []struct{ diff, want float64 }{
		{0, 0.5},
		{200, 0.759747},
		{-200, 0.240253},
		{400, 10.0 / 11},
	} {
		if got := EloExpected(c.diff); math.Abs(got-c.want) > 1e-6 {
			t.Errorf("EloExpected(%g) = %g, want %g", c.diff, got, c.want)
		}
	}
}

// TestEloFit: two players, one scoring 3 of 4 against the other, are
// rated so that the expected score is ¾: ±ln 3 natural units apart, about
// 190.8 Elo, split evenly around 0; the standard error of each is half of
// the difference's, 1/√(n·p(1−p)) = 1/√(4·¾·¼) natural units.
func TestEloFit(t *testing.T) {
	w := [][]float64{{0, 3}, {1, 0}}
	n := [][]float64{{0, 4}, {4, 0}}
	elo, se, ok := EloFit(w, n)
	if !ok {
		t.Fatal("fit failed")
	}
	diff := math.Log(3) * EloScale
	if math.Abs(elo[0]-diff/2) > 1e-6 || math.Abs(elo[1]+diff/2) > 1e-6 {
		t.Errorf("ratings %v, want ±%g", elo, diff/2)
	}
	if got := EloExpected(elo[0] - elo[1]); math.Abs(got-0.75) > 1e-9 {
		t.Errorf("expected score %g, want 0.75", got)
	}
	wantSE := 0.5 / math.Sqrt(4*0.75*0.25) * EloScale
	if math.Abs(se[0]-wantSE) > 1e-3 || math.Abs(se[1]-wantSE) > 1e-3 {
		t.Errorf("standard errors %v, want %g", se, wantSE)
	}
	elo, se, ok = EloFit([][]float64{{0}}, [][]float64{{0}})
	if !ok || len(elo) != 1 || elo[0] != 0 || se[0] != 0 {
		t.Errorf("one player: %v %v %v", elo, se, ok)
	}
}
