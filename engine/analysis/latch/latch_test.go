package latch

import (
	"context"
	"strings"
	"testing"

	"gdlab/datasets"
	"gdlab/engine/game"
	"gdlab/engine/propnet/propnettest"
)

func latchMap(a *Analysis) map[string]Latch {
	m := map[string]Latch{}
	for _, l := range a.Latches {
		m[l.Fact] = l
	}
	return m
}

func TestLatches(t *testing.T) {
	net := propnettest.Load(t, "testdata/latches.kif")
	a, err := Analyze(context.Background(), net, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range a.Explain() {
		t.Log(line)
	}
	m := latchMap(a)
	want := []struct {
		fact       string
		pos        bool
		structural bool
	}{{"spoiled", true, true}, {"alive", false, true}, {"z", true, false}}
	for _, w := range want {
		l, ok := m[w.fact]
		if !ok {
			t.Errorf("%s: no latch found", w.fact)
			continue
		}
		if l.Positive != w.pos || l.Structural != w.structural {
			t.Errorf("%s: got positive=%v structural=%v, want %v %v", w.fact, l.Positive, l.Structural, w.pos, w.structural)
		}
	}
	for _, f := range []string{"toggle", "u", "v"} {
		if _, ok := m[f]; ok {
			t.Errorf("%s reported as a latch", f)
		}
	}
	// Ranges along a line of play.
	s := net.Initial()
	if lo, hi := a.Range(s, 0); lo != 0 || hi != 100 {
		t.Errorf("initial range [%d,%d], want [0,100]", lo, hi)
	}
	c, _ := net.ParseMove(0, "c")
	s, _ = net.Next(s, []game.Move{c}) // spoiled: 100 gone
	if lo, hi := a.Range(s, 0); lo != 0 || hi != 50 {
		t.Errorf("after c: range [%d,%d], want [0,50]", lo, hi)
	}
	b, _ := net.ParseMove(0, "b")
	s, _ = net.Next(s, []game.Move{b}) // dead: only 0 is left
	if lo, hi := a.Range(s, 0); lo != 0 || hi != 0 {
		t.Errorf("after c b: range [%d,%d], want [0,0]", lo, hi)
	}
}

func TestCorridorAndEscort(t *testing.T) {
	g, _ := datasets.Corridor(6, true)
	net := propnettest.Of(t, g)
	a, err := Analyze(context.Background(), net, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := latchMap(a)["lost"]; !ok {
		t.Fatal("corridor: lost is not a latch")
	}
	wrong, _ := net.ParseMove(0, "a") // the right first move is d
	s, _ := net.Next(net.Initial(), []game.Move{wrong})
	if lo, hi := a.Range(s, 0); lo != 0 || hi != 0 {
		t.Errorf("corridor after a wrong move: [%d,%d], want [0,0]", lo, hi)
	}

	net = propnettest.Curated(t, "escortLatchBreakthrough")
	a, err = Analyze(context.Background(), net, Options{})
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(a.Explain(), "\n")
	t.Log(text)
	for _, f := range []string{"whiteKingCaptured", "blackKingCaptured"} {
		if l, ok := latchMap(a)[f]; !ok || !l.Positive {
			t.Errorf("escort: %s is not a positive latch", f)
		}
	}
	if lo, hi := a.Range(net.Initial(), 0); lo != 0 || hi != 100 {
		t.Errorf("escort initial range [%d,%d]", lo, hi)
	}
}
