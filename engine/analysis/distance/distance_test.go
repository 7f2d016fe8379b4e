package distance

import (
	"context"
	"math"
	"testing"

	"gdlab/engine/game"
	"gdlab/engine/propnet"
	"gdlab/engine/propnet/propnettest"
)

func distances(t *testing.T, net *propnet.Net) *Metric {
	t.Helper()
	d, err := Of(context.Background(), net)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func move(t *testing.T, net *propnet.Net, role int, text string) int {
	t.Helper()
	m, err := net.ParseMove(role, text)
	if err != nil {
		t.Fatal(err)
	}
	return int(m)
}

// TestTracksDistances checks the metric on a hand-made game whose
// distances follow from its rules: a step and the next step on the same
// track share a square (1); a step two squares on is 2; red's steps and
// blue's steps never meet except through blockers, which red drops on
// blue's track (a block at square m is read by blue's step into m).
func TestTracksDistances(t *testing.T) {
	net := propnettest.Load(t, "testdata/tracks.kif")
	d := distances(t, net)
	red, blue := 0, 1
	cases := []struct {
		r1   int
		m1   string
		r2   int
		m2   string
		want int
	}{
		{red, "(step 1)", red, "(step 1)", 0},
		{red, "(step 1)", red, "(step 2)", 1},
		{red, "(step 1)", red, "(step 3)", 2},
		{red, "(block 3)", blue, "(step 2)", 1}, // blue's step into 3 reads the blocker
		{red, "(block 3)", blue, "(step 1)", 1}, // blocking 3 reads (at blue 2), which step 1 makes true
		{red, "(block 4)", blue, "(step 1)", 2}, // through blue's step 2
	}
	for _, c := range cases {
		got := d.Between(c.r1, gm(t, net, c.r1, c.m1), c.r2, gm(t, net, c.r2, c.m2))
		if got != c.want {
			t.Errorf("distance %s %s — %s %s = %d, want %d", net.Roles()[c.r1], c.m1, net.Roles()[c.r2], c.m2, got, c.want)
		}
		back := d.Between(c.r2, gm(t, net, c.r2, c.m2), c.r1, gm(t, net, c.r1, c.m1))
		if back != got {
			t.Errorf("distance not symmetric: %d and %d", got, back)
		}
	}
	if got := d.Between(red, gm(t, net, red, "noop"), red, gm(t, net, red, "(step 1)")); got != Far {
		t.Errorf("noop distance %d, want Far", got)
	}
	if d.GoalDistance(red, gm(t, net, red, "(step 3)")) != 0 || d.GoalDistance(red, gm(t, net, red, "(step 1)")) != 2 {
		t.Errorf("goal distances of steps 3 and 1: %d, %d; want 0, 2",
			d.GoalDistance(red, gm(t, net, red, "(step 3)")), d.GoalDistance(red, gm(t, net, red, "(step 1)")))
	}
	if c := d.Coupling(); c.Coupled {
		t.Errorf("tracks coupled: %s", c.Why)
	}
}

// gm parses a move.
func gm(t *testing.T, net *propnet.Net, role int, text string) game.Move {
	t.Helper()
	return game.Move(move(t, net, role, text))
}

// TestBreakthroughDistances checks the metric where Sancho used it: a
// pawn's successive steps are one apart, and its goal distance is the
// rows it has left to go.
func TestBreakthroughDistances(t *testing.T) {
	net := propnettest.Curated(t, "breakthroughSmall")
	d := distances(t, net)
	from := gm(t, net, 0, "(move 3 2 3 3)")
	for i, text := range []string{"(move 3 3 3 4)", "(move 3 4 3 5)", "(move 3 5 3 6)"} {
		if got := d.Between(0, from, 0, gm(t, net, 0, text)); got != i+1 {
			t.Errorf("distance to %s = %d, want %d", text, got, i+1)
		}
	}
	if got := d.GoalDistance(0, from); got != 3 {
		t.Errorf("goal distance %d, want 3", got)
	}
	if len(d.Eliminations(0)) != 1 {
		t.Errorf("eliminations %v, want one (capture every black pawn)", d.Eliminations(0))
	}
	if c := d.Coupling(); c.Coupled || math.IsNaN(d.Average()) || d.Average() < 2 {
		t.Errorf("coupling %+v, average %.2f", c, d.Average())
	}
}

// TestCoupledGames checks that lines of three or four are coupled.
func TestCoupledGames(t *testing.T) {
	for _, name := range []string{"ticTacToe", "connectFour"} {
		d := distances(t, propnettest.Curated(t, name))
		if !d.Coupling().Coupled {
			t.Errorf("%s not coupled", name)
		}
		if ok, why := Enabled(d); ok {
			t.Errorf("%s: local search enabled: %s", name, why)
		}
	}
	if ok, why := Enabled(distances(t, propnettest.Curated(t, "breakthrough"))); !ok {
		t.Errorf("breakthrough: local search disabled: %s", why)
	}
}
