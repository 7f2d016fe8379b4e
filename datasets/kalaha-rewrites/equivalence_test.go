// Package kalaharewrites holds rewritten versions of the public kalaha_2009
// rulesheet (the .kif files in this folder, see README.md) and the tests
// that check each one is the same game as the original, move by move. It has
// only test files: the rulesheets are data that notebooks and tests read.
package kalaharewrites

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"gdlab/engine/game"
	"gdlab/engine/gdl"
	"gdlab/engine/propnet"
	"gdlab/engine/prover"
)

// sharedDir returns the shared corpus ($GDLAB_SHARED, or ../../../shared
// from this package), or skips the test when it is absent.
func sharedDir(t testing.TB) string {
	dir := os.Getenv("GDLAB_SHARED")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared")
	}
	if _, err := os.Stat(filepath.Join(dir, "games", "kalaha_2009")); err != nil {
		t.Skipf("shared corpus not found at %s (set GDLAB_SHARED): skipping", dir)
	}
	return dir
}

// originalPath is the public rulesheet the rewrites start from.
func originalPath(t testing.TB) string {
	return filepath.Join(sharedDir(t), "games", "kalaha_2009", "kalaha_2009.kif")
}

// rewriteFiles lists every rulesheet in this folder: each must be the game
// of the original, so a broken copy dropped here makes the test fail.
func rewriteFiles(t testing.TB) []string {
	files, err := filepath.Glob("*.kif")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no rewrite files")
	}
	return files
}

func loadProver(t testing.TB, path string) *prover.Prover {
	t.Helper()
	d, err := gdl.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	p, err := prover.New(d)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return p
}

func loadNet(t testing.TB, path string) *propnet.Net {
	t.Helper()
	n, err := propnet.Load(context.Background(), path, propnet.Options{})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return n
}

// view is everything observable in a state: its facts, each role's legal
// moves by text, terminality and each role's goal (-1 when undefined).
type view struct {
	facts    []string
	legal    [][]string
	terminal bool
	goals    []int
}

func observe(t testing.TB, m game.Machine, s game.State) view {
	t.Helper()
	v := view{facts: slices.Sorted(slices.Values(s.Facts()))}
	for r := range m.Roles() {
		ms, err := m.Legal(s, r, nil)
		if err != nil {
			t.Fatal(err)
		}
		txt := game.MovesText(m, r, ms)
		slices.Sort(txt)
		v.legal = append(v.legal, txt)
	}
	term, err := m.Terminal(s)
	if err != nil {
		t.Fatal(err)
	}
	v.terminal = term
	v.goals = game.Goals(m, s)
	return v
}

// diff describes the first difference between two views, or "".
func diff(a, b view) string {
	switch {
	case !slices.Equal(a.facts, b.facts):
		return fmt.Sprintf("state\n %v\nvs\n %v", a.facts, b.facts)
	case a.terminal != b.terminal:
		return fmt.Sprintf("terminal %v vs %v", a.terminal, b.terminal)
	case !slices.Equal(a.goals, b.goals):
		return fmt.Sprintf("goals %v vs %v", a.goals, b.goals)
	}
	for r := range a.legal {
		if !slices.Equal(a.legal[r], b.legal[r]) {
			return fmt.Sprintf("legal moves of role %d: %v vs %v", r, a.legal[r], b.legal[r])
		}
	}
	return ""
}

// play applies a joint move given by text.
func play(t testing.TB, m game.Machine, s game.State, joint []string) game.State {
	t.Helper()
	mv := make([]game.Move, len(joint))
	for r, text := range joint {
		x, err := m.ParseMove(r, text)
		if err != nil {
			t.Fatalf("%s: %v", text, err)
		}
		mv[r] = x
	}
	ns, err := m.Next(s, mv)
	if err != nil {
		t.Fatal(err)
	}
	return ns
}

// comparePlayouts plays seeded random games on the original, choosing each
// role's move among the original's legal moves, plays the same moves by text
// on every candidate, and requires equal views at every step. It returns the
// number of steps checked.
func comparePlayouts(t *testing.T, orig game.Machine, cands map[string]game.Machine, games int, kinds map[string]int) int {
	steps := 0
	for i := 0; i < games; i++ {
		seed := uint64(i + 1)
		rng := game.NewRand(seed)
		s := orig.Initial()
		cs := map[string]game.State{}
		for name, m := range cands {
			if !slices.Equal(m.Roles(), orig.Roles()) {
				t.Fatalf("%s: roles %v, original %v", name, m.Roles(), orig.Roles())
			}
			cs[name] = m.Initial()
		}
		for n := 0; ; n++ {
			want := observe(t, orig, s)
			for name, m := range cands {
				if d := diff(observe(t, m, cs[name]), want); d != "" {
					t.Fatalf("%s, seed %d, step %d: %s", name, seed, n, d)
				}
			}
			steps++
			if want.terminal {
				if slices.Contains(want.facts, "(step s90)") {
					kinds["ended by the move limit"]++
				} else {
					kinds["ended with both sides empty"]++
				}
				break
			}
			joint := make([]string, len(want.legal))
			for r, l := range want.legal {
				joint[r] = l[rng.IntN(len(l))]
				kinds[functor(joint[r])]++
				if isCapture(orig.Roles()[r], joint[r], want.facts) {
					kinds["capture"]++
				}
			}
			if !slices.ContainsFunc(joint, func(m string) bool { return m != "noop" }) {
				kinds["both noop"]++
			}
			s = play(t, orig, s, joint)
			for name, m := range cands {
				cs[name] = play(t, m, cs[name], joint)
			}
		}
	}
	return steps
}

// compareTree walks every state reachable within depth joint moves on the
// original and on a candidate together (each distinct state once) and
// requires equal views in all of them; it returns the states compared.
func compareTree(t *testing.T, orig, cand game.Machine, depth int) int {
	type pair struct{ a, b game.State }
	level := []pair{{orig.Initial(), cand.Initial()}}
	seen := map[string]bool{}
	count := 0
	for d := 0; d <= depth && len(level) > 0; d++ {
		var next []pair
		for _, p := range level {
			va, vb := observe(t, orig, p.a), observe(t, cand, p.b)
			if x := diff(vb, va); x != "" {
				t.Fatalf("depth %d: %s", d, x)
			}
			count++
			if va.terminal || d == depth {
				continue
			}
			err := forEachJoint(va.legal, func(joint []string) {
				na := play(t, orig, p.a, joint)
				key := strings.Join(slices.Sorted(slices.Values(na.Facts())), " ")
				if seen[key] {
					return
				}
				seen[key] = true
				next = append(next, pair{na, play(t, cand, p.b, joint)})
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		level = next
	}
	return count
}

// isCapture tells whether role's move in a state with these facts puts
// its last seed into an empty pit of its own (kalaha_2009's owners: south
// p1..p5, north p6..p10), which captures.
func isCapture(role, move string, facts []string) bool {
	pit, ok := strings.CutPrefix(move, "(put ")
	if !ok {
		return false
	}
	pit = strings.TrimSuffix(pit, ")")
	n, err := strconv.Atoi(strings.TrimPrefix(pit, "p"))
	if err != nil {
		return false
	}
	own := (role == "south" && n <= 5) || (role == "north" && n >= 6)
	return own && slices.Contains(facts, "(hand "+role+" s1)") && slices.Contains(facts, "(pit "+pit+" s0)")
}

func forEachJoint(legal [][]string, fn func([]string)) error {
	joint := make([]string, len(legal))
	var rec func(r int)
	rec = func(r int) {
		if r == len(legal) {
			fn(slices.Clone(joint))
			return
		}
		for _, m := range legal[r] {
			joint[r] = m
			rec(r + 1)
		}
	}
	rec(0)
	return nil
}

// TestRewritesPreserveGame checks every rulesheet in this folder against the
// public kalaha_2009: with the reference prover and with the propositional
// network of the rewrite, along seeded random games (states, legal moves by
// text, terminal and goals at every step), over every state within a few
// moves, by perft counts, and against the ggp-base traces of the original.
func TestRewritesPreserveGame(t *testing.T) {
	orig := loadProver(t, originalPath(t))
	games, depth, perftDepth := 40, 20, 16
	if testing.Short() {
		games, depth, perftDepth = 8, 8, 8
	}
	if s := os.Getenv("KALAHA_GAMES"); s != "" { // more seeded games, for a one-off deeper check
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatal(err)
		}
		games = n
	}
	origPerft, err := game.Perft(context.Background(), orig, orig.Initial(), perftDepth)
	if err != nil {
		t.Fatal(err)
	}
	traces := readTraces(t)
	for _, file := range rewriteFiles(t) {
		t.Run(file, func(t *testing.T) {
			pr, net := loadProver(t, file), loadNet(t, file)
			kinds := map[string]int{}
			steps := comparePlayouts(t, orig, map[string]game.Machine{"prover": pr, "propnet": net}, games, kinds)
			states := compareTree(t, orig, net, depth)
			p, err := game.Perft(context.Background(), pr, pr.Initial(), perftDepth)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(p, origPerft) {
				t.Fatalf("perft differs:\n rewrite  %v\n original %v", p, origPerft)
			}
			for _, tr := range traces {
				for name, m := range map[string]game.Machine{"prover": pr, "propnet": net} {
					d, err := game.Replay(context.Background(), m, tr)
					if err != nil {
						t.Fatalf("%s, trace seed %d: %v", name, tr.Seed, err)
					}
					if d != nil {
						t.Fatalf("%s, trace seed %d: %v", name, tr.Seed, d)
					}
				}
			}
			t.Logf("%d seeded games (%d steps; moves and endings %v) agree on prover and propnet; %d states within %d moves agree; perft to %d agrees (%v); %d ggp-base traces replay",
				games, steps, kinds, states, depth, perftDepth, p[len(p)-1], len(traces))
		})
	}
}

func readTraces(t *testing.T) []*game.Trace {
	f, err := os.Open(filepath.Join(sharedDir(t), "traces", "kalaha_2009.jsonl"))
	if err != nil {
		t.Logf("no traces: %v", err)
		return nil
	}
	defer f.Close()
	trs, err := game.ReadTraces(f)
	if err != nil {
		t.Fatal(err)
	}
	return trs
}
