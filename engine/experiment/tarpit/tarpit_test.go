package tarpit

import (
	"context"
	"math"
	"testing"

	"gdlab/engine/stats"
)

// loaded loads the set once per test binary.
var loaded []Position

func positions(t *testing.T) []Position {
	t.Helper()
	if loaded == nil {
		ps, skipped, err := Load(context.Background(), SharedDir())
		if err != nil {
			t.Fatal(err)
		}
		if len(skipped) > 0 {
			t.Logf("skipped (no corpus): %v", skipped)
		}
		loaded = ps
	}
	return loaded
}

// TestLoad: every position is reached, not terminal, with the role to
// answer among the game's and a best move among the role's legal moves.
func TestLoad(t *testing.T) {
	ps := positions(t)
	if len(ps) < 30 {
		t.Fatalf("%d positions loaded, want at least 30", len(ps))
	}
	for _, p := range ps {
		if term, err := p.Machine.Terminal(p.State); err != nil || term {
			t.Errorf("%s: terminal (%v)", p.Name(), err)
		}
		legal, err := p.Machine.Legal(p.State, p.Role, nil)
		if err != nil {
			t.Fatal(err)
		}
		best := 0
		for _, mv := range legal {
			if p.IsBest(mv) {
				best++
			}
		}
		if best != len(p.Entry.Best) || len(legal) != len(p.Entry.MoveValues) {
			t.Errorf("%s: %d of %d legal moves best, the set says %d of %d", p.Name(), best, len(legal), len(p.Entry.Best), len(p.Entry.MoveValues))
		}
	}
}

// TestReachRefusesBadMoves: a joint move of the wrong width or an unknown
// move is an error, not a panic.
func TestReachRefusesBadMoves(t *testing.T) {
	m := positions(t)[0].Machine
	if _, err := Reach(m, [][]string{{"x"}}); err == nil {
		t.Error("a one-move joint move in a two-role game was accepted")
	}
	if _, err := Reach(m, [][]string{{"(nonsense)", "(nonsense)"}}); err == nil {
		t.Error("an unknown move was accepted")
	}
	if _, err := RoleIndex(m, "nobody"); err == nil {
		t.Error("an unknown role was accepted")
	}
}

// TestCount: counts are reproducible for a seed, lie in [0, seeds], and a
// blending configuration skips a game without a heuristic.
func TestCount(t *testing.T) {
	ctx := context.Background()
	ps := positions(t)
	blend, err := ConfigNamed("joint+h0.25")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []Position{ps[0], firstWith(t, ps, func(p Position) bool { return p.Entry.Simultaneous })} {
		for _, cfg := range Configs()[:2] {
			a, err := Count(ctx, p, cfg, 50, 1, 3)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := Count(ctx, p, cfg, 50, 1, 3)
			if a != b || a < 0 || a > 3 {
				t.Errorf("%s %s: counts %d then %d of 3", p.Name(), cfg.Name, a, b)
			}
		}
		if k, _ := Count(ctx, p, blend, 50, 1, 3); p.Heuristic == nil && k != -1 {
			t.Errorf("%s: blending without a heuristic counted %d", p.Name(), k)
		}
	}
	h := firstWith(t, ps, func(p Position) bool { return p.Heuristic != nil })
	if k, err := Count(ctx, h, blend, 50, 1, 2); err != nil || k < 0 {
		t.Errorf("%s: blending count %d (%v)", h.Name(), k, err)
	}
}

// firstWith returns the first position with a property.
func firstWith(t *testing.T, ps []Position, ok func(Position) bool) Position {
	t.Helper()
	for _, p := range ps {
		if ok(p) {
			return p
		}
	}
	t.Fatal("no such position in the set")
	return Position{}
}

// TestMaterial: in the initial breakthroughSmall position white owns 13 of
// the 25 facts that end in a role's name (its 12 pieces and (control
// white)), and the shares of the two roles sum to 100.
func TestMaterial(t *testing.T) {
	p := firstWith(t, positions(t), func(p Position) bool { return p.Game == "breakthroughSmall" })
	v, err := Material{}.Evaluate(p.Machine, p.Machine.Initial(), 0)
	if err != nil || v != 52 {
		t.Errorf("initial material %g (%v), want 100·13/25 = 52", v, err)
	}
	a, _ := Material{}.Evaluate(p.Machine, p.State, 0)
	b, _ := Material{}.Evaluate(p.Machine, p.State, 1)
	if math.Abs(a+b-100) > 1e-9 {
		t.Errorf("%s: material %g + %g, want 100", p.Name(), a, b)
	}
}

// TestShareAndDiff: the share is the pooled proportion with the stats
// package's Wilson interval, the bootstrap interval contains it, and a
// paired difference of a run with itself is exactly zero.
func TestShareAndDiff(t *testing.T) {
	hits := []int{4, 0, 2, 4, 3}
	s := ShareOf(hits, 4, 500, 27)
	p, lo, hi := stats.Wilson(13, 20)
	if s.Hits != 13 || s.Searches != 20 || s.Share != p || s.WilsonLow != lo || s.WilsonHigh != hi {
		t.Errorf("share %+v, want 13/20 with Wilson [%g, %g]", s, lo, hi)
	}
	if !(s.BootLow <= s.Share && s.Share <= s.BootHigh) || s.BootLow == s.BootHigh {
		t.Errorf("bootstrap [%g, %g] around %g", s.BootLow, s.BootHigh, s.Share)
	}
	if d := DiffOf(hits, hits, 4, 500, 27); d.Diff != 0 || d.BootLow != 0 || d.BootHigh != 0 {
		t.Errorf("self difference %+v", d)
	}
	d := DiffOf([]int{4, 4, 4}, []int{0, 2, 4}, 4, 500, 27)
	if math.Abs(d.Diff-0.5) > 1e-12 || d.BootLow < 0 || d.BootHigh > 1 {
		t.Errorf("difference %+v, want 0.5 within [0, 1]", d)
	}
}

// TestResults: one ledger result a searched position, as percentages.
func TestResults(t *testing.T) {
	ps := positions(t)[:3]
	rs := Results(ps, []int{2, -1, 1}, 2, Key("joint", 100))
	if len(rs) != 2 || rs[0].Value != 100 || rs[1].Value != 50 || rs[0].Game != "joint 100" || rs[1].Detail != ps[2].Name() {
		t.Errorf("results %+v", rs)
	}
	ds := DiffResults(ps, []int{2, 0, 1}, []int{0, 0, -1}, 2, All, DiffKey("decision", "joint", 100, All))
	if len(ds) != 2 || ds[0].Value != 100 || ds[1].Value != 0 || ds[0].Game != "decision-joint 100 all" {
		t.Errorf("differences %+v", ds)
	}
}

// TestSetHash: the hash is stable within a process and twelve hex digits.
func TestSetHash(t *testing.T) {
	a, err := SetHash()
	if err != nil {
		t.Fatal(err)
	}
	b, _ := SetHash()
	if a != b || len(a) != 12 {
		t.Errorf("hashes %q, %q", a, b)
	}
}
