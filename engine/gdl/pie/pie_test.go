package pie_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"gdlab/datasets"
	"gdlab/engine/game"
	"gdlab/engine/game/gametest"
	"gdlab/engine/gdl"
	"gdlab/engine/gdl/pie"
	"gdlab/engine/propnet"
)

// TestTicTacToeSwap plays the swap in tic-tac-toe's variant: xplayer opens
// in the centre, oplayer swaps, and xplayer goes on with o, the centre x
// now oplayer's; the swap is offered once only, and a line of x wins for
// oplayer.
func TestTicTacToeSwap(t *testing.T) {
	m := newProver(t, variant(t, parseFile(t, "testdata/ticTacToe.kif")))
	s := gametest.Play(t, m, m.Initial(), []string{"(mark 2 2)", "noop"})
	wantLegal(t, m, s, 1, 9, "swap")
	s = gametest.Play(t, m, s, []string{"noop", "swap"})
	for _, f := range []string{"(cell 2 2 x)", "(control oplayer)", "(pie_plays oplayer xplayer)", "(pie_plays xplayer oplayer)"} {
		if !slices.Contains(s.Facts(), f) {
			t.Errorf("after the swap %s does not hold: %v", f, s.Facts())
		}
	}
	wantLegal(t, m, s, 0, 8, "(mark 1 1)")
	wantLegal(t, m, s, 1, 1, "noop")
	s = gametest.Play(t, m, s, []string{"(mark 1 1)", "noop"})
	if !slices.Contains(s.Facts(), "(cell 1 1 o)") {
		t.Errorf("xplayer's mark after the swap is not o: %v", s.Facts())
	}
	wantLegal(t, m, s, 1, 7, "(mark 1 3)")
	s = gametest.Play(t, m, s, []string{"noop", "(mark 1 3)"}, []string{"(mark 1 2)", "noop"}, []string{"noop", "(mark 3 1)"})
	if over, _ := m.Terminal(s); !over || !slices.Equal(game.Goals(m, s), []int{0, 100}) {
		t.Errorf("after x's diagonal: terminal %v, goals %v, want true [0 100]", over, game.Goals(m, s))
	}
}

// wantLegal checks the number of role's legal moves and that one is among them.
func wantLegal(t *testing.T, m game.Machine, s game.State, role, n int, one string) {
	t.Helper()
	got, err := legalTexts(m, s, role)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != n || !slices.Contains(got, one) {
		t.Errorf("role %d: legal %v, want %d moves including %s", role, got, n, one)
	}
}

// refusedCurated lists the curated games that CheckOpening or Transform
// refuse, with a word of the reason.
var refusedCurated = map[string]string{
	"blocker":                "not turn-taking: in the initial state crosser has 16 legal moves and blocker has 16",
	"kalaha":                 "not turn-taking: after north's opening (sow p9), north has 5 legal moves", // a sowing into the store moves again
	"hexPie7":                "swap already occurs",
	"nineBoardTicTacToePie":  "swap already occurs",
	"threePlayerConnectFour": "exactly two roles; the game has 3",
	"eightPuzzle":            "exactly two roles; the game has 1",
	"falseSummit":            "exactly two roles; the game has 1",
}

// TestFollowBase plays every curated game that the pie rule fits against
// its variant, with and without a swap (see followBase), and checks which
// curated games CheckOpening or Transform refuse, and why.
func TestFollowBase(t *testing.T) {
	for _, name := range datasets.List() {
		t.Run(name, func(t *testing.T) {
			d := curated(t, name)
			g := newProver(t, d)
			want, ok := refusedCurated[name]
			if strings.Contains(name, "Corridor") {
				want, ok = "exactly two roles; the game has 1", true
			}
			msg := refusal(d, g)
			if ok || msg != "" {
				if !ok || !strings.Contains(msg, want) {
					t.Fatalf("refused with %q, want %q", msg, want)
				}
				return
			}
			v := newProver(t, variant(t, d))
			for seed := uint64(1); seed <= 4; seed++ {
				for _, swap := range []bool{false, true} {
					if err := followBase(v, g, seed, swap); err != nil {
						t.Fatalf("seed %d, swap %v: %v", seed, swap, err)
					}
				}
			}
		})
	}
}

func curated(t testing.TB, name string) *gdl.Description {
	t.Helper()
	rs, err := datasets.Game(name)
	if err != nil {
		t.Fatal(err)
	}
	d, err := rs.Description()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// refusal returns the first error of Transform or CheckOpening on d, or "".
func refusal(d *gdl.Description, m game.Machine) string {
	err := pie.CheckOpening(context.Background(), d, m)
	if err == nil {
		_, err = pie.Transform(d, pie.Options{})
	}
	var list gdl.ErrorList
	if errors.As(err, &list) {
		return strings.TrimSpace(list.Detail())
	}
	if err != nil {
		return "unexpected " + err.Error()
	}
	return ""
}

// TestReasonersAgree builds variants with both reasoners: the propnet
// keeps the machine contract on them and agrees with the prover.
func TestReasonersAgree(t *testing.T) {
	for _, name := range []string{"ticTacToe", "hex7", "nineBoardTicTacToe", "breakthroughSmall"} {
		t.Run(name, func(t *testing.T) {
			v := variant(t, curated(t, name))
			net, err := propnet.Build(context.Background(), v, propnet.Options{})
			if err != nil {
				t.Fatal(err)
			}
			gametest.Conform(t, net, 5, maxSteps)
			gametest.Compare(t, newProver(t, v), net, []int64{1, 2, 3, 4, 5, 6, 7, 8}, maxSteps)
		})
	}
}
