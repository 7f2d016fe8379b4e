package game_test

import (
	"bytes"
	"context"
	"slices"
	"testing"

	"gdlab/engine/game"
	"gdlab/engine/game/gametest"
	"gdlab/engine/prover"
)

func nim(t testing.TB) game.Machine {
	m, err := prover.Load("testdata/nim.kif")
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestProverConformsOnNim(t *testing.T) {
	gametest.Conform(t, nim(t), 20, 50)
}

// Nim with heaps 3 and 2, taking one or two stones: counted by hand, the
// first mover has 4 moves (a1 a2 b1 b2) and the game lasts 3 to 5 moves.
func TestPerftNim(t *testing.T) {
	m := nim(t)
	levels, err := game.Perft(context.Background(), m, m.Initial(), 5)
	if err != nil {
		t.Fatal(err)
	}
	if levels[0].Sequences != 4 || levels[0].States != 4 || levels[0].Terminals != 0 {
		t.Errorf("depth 1: %+v", levels[0])
	}
	var complete int64
	for _, l := range levels {
		complete += l.Terminals
	}
	// complete games = orderings of removals: heap a (3) in 1+1+1, 1+2, 2+1
	// and heap b (2) in 1+1, 2, interleaved: sum over pairs of C(i+j, i).
	want := int64(0)
	for _, i := range []int{3, 2, 2} {
		for _, j := range []int{2, 1} {
			want += binom(i+j, i)
		}
	}
	if complete != want {
		t.Errorf("complete games = %d, want %d", complete, want)
	}
	if levels[4].Sequences != levels[4].Terminals {
		t.Errorf("every game ends by depth 5: %+v", levels[4])
	}
}

func binom(n, k int) int64 {
	r := int64(1)
	for i := 1; i <= k; i++ {
		r = r * int64(n-k+i) / int64(i)
	}
	return r
}

func TestTraceRoundTrip(t *testing.T) {
	m := nim(t)
	tr, err := game.Record(context.Background(), m, "nim", 5, game.RecordOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !tr.Complete {
		t.Fatal("nim match did not finish")
	}
	var buf bytes.Buffer
	if err := game.WriteTrace(&buf, tr); err != nil {
		t.Fatal(err)
	}
	back, err := game.ReadTraces(bytes.NewReader(buf.Bytes()))
	if err != nil || len(back) != 1 {
		t.Fatalf("read back: %v, %d traces", err, len(back))
	}
	var again bytes.Buffer
	game.WriteTrace(&again, back[0])
	if again.String() != buf.String() {
		t.Errorf("round trip changed the trace:\n%s\n%s", buf.String(), again.String())
	}
	if d, err := game.Replay(context.Background(), m, back[0]); d != nil || err != nil {
		t.Errorf("replay of own trace: %v %v", d, err)
	}
}

func TestReplayReportsFirstDisagreement(t *testing.T) {
	m := nim(t)
	tr, _ := game.Record(context.Background(), m, "nim", 1, game.RecordOptions{})
	tr.Steps[2].Legal[0] = append(tr.Steps[2].Legal[0], "(take z 9)")
	d, err := game.Replay(context.Background(), m, tr)
	if err != nil || d == nil {
		t.Fatalf("want a disagreement, got %v, %v", d, err)
	}
	if d.Step != 2 || d.Field != "legal" || d.Role != "first" {
		t.Errorf("disagreement = %+v", d)
	}
}

func TestPlayoutIsSeeded(t *testing.T) {
	m := nim(t)
	run := func(seed uint64) []string {
		res, err := game.Playout(context.Background(), m, m.Initial(), game.NewRand(seed), 0)
		if err != nil || !res.Terminal {
			t.Fatalf("playout: %v %+v", err, res)
		}
		return res.Final.Facts()
	}
	if a, b := run(9), run(9); !slices.Equal(a, b) {
		t.Errorf("same seed, different playouts: %v and %v", a, b)
	}
}
