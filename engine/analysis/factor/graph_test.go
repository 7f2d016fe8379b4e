package factor

import (
	"context"
	"path/filepath"
	"slices"
	"testing"

	"gdlab/engine/analysis/internal/circuit"
	"gdlab/engine/propnet/propnettest"
)

// effectsOf reads the move graph of the rulesheet at path.
func effectsOf(t *testing.T, path string) (*graph, [][]int) {
	t.Helper()
	net := propnettest.Load(t, path)
	c, err := circuit.Read(context.Background(), net)
	if err != nil {
		t.Fatal(err)
	}
	var moves [][]string
	for r := range net.Roles() {
		moves = append(moves, net.InputProps(r))
	}
	g, err := readGraph(context.Background(), c, moves, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return g, g.effects
}

// jointGames are the games the joint-move test is checked on: the
// testdata games and, when the shared corpus is beside the repository,
// games of several roles that factor.
func jointGames(t *testing.T) []string {
	paths, err := filepath.Glob("testdata/*.kif")
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"nim3", "smallest_4player", "double_tictactoe_dengji", "gt_prisoner", "point_grab"} {
		if p := corpusPath(key); p != "" {
			paths = append(paths, p)
		}
	}
	return paths
}

// TestJointShortcutsExact: the joint-move test's shortcuts (moves that
// already change b, unread moves already added) find the effects the
// test of every pair finds, computed here from its definition.
func TestJointShortcutsExact(t *testing.T) {
	for _, path := range jointGames(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			g, got := effectsOf(t, path)
			want := everyPair(g)
			for i := range want {
				if !slices.Equal(got[i], want[i]) {
					t.Errorf("move %d changes %v, every pair says %v", i, got[i], want[i])
				}
			}
		})
	}
}

// TestJointBudgetSafe: out of budget, the joint-move test takes the safe
// side: every effect it finds with its budget is found without, and the
// colliding robots stay coupled.
func TestJointBudgetSafe(t *testing.T) {
	defer func(b int) { jointBudget = b }(jointBudget)
	for _, path := range jointGames(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			_, full := effectsOf(t, path)
			jointBudget = 0
			defer func(b int) { jointBudget = b }(1 << 29)
			_, none := effectsOf(t, path)
			for i := range full {
				for _, b := range full[i] {
					if _, ok := slices.BinarySearch(none[i], b); !ok {
						t.Errorf("move %d changes base %d with the budget, not without", i, b)
					}
				}
			}
		})
	}
	jointBudget = 0
	if _, a := analyze(t, "collide", Options{}); a.Factored() {
		t.Errorf("collide factors with no budget for the joint-move test")
	}
}

// everyPair recomputes each move's effects from their definition, with
// the joint-move test run on every pair of roles and every move.
func everyPair(g *graph) [][]int {
	ev := circuit.NewEvaluator(g.c)
	ev.Inputs = make([]circuit.Value, g.off[len(g.off)-1])
	out := make([][]int, len(ev.Inputs))
	for b, ins := range g.nextMoves {
		add := func(i int) { out[i] = append(out[i], b) }
		unread := func(r int) {
			for i := g.off[r]; i < g.off[r+1]; i++ {
				if _, read := slices.BinarySearch(ins, i); !read {
					add(i)
				}
			}
		}
		byRole := make([][]int, len(g.off)-1)
		keptBy := make([]bool, len(byRole)) // per role: a read move keeps b
		for _, i := range ins {
			r, _ := g.move(i)
			byRole[r] = append(byRole[r], i)
			if g.keeps(ev, i, b) {
				keptBy[r] = true
			} else {
				add(i)
			}
		}
		for r, k := range keptBy {
			if k && !g.keeps(ev, -1, b) {
				unread(r)
			}
		}
		for r, mine := range byRole {
			for q, theirs := range byRole {
				if q == r || len(mine) == 0 || len(theirs) == 0 {
					continue
				}
				if (len(mine)+1)*len(theirs) > jointLimit {
					for _, i := range mine {
						add(i)
					}
					unread(r)
					continue
				}
				for _, j := range theirs {
					ev.Inputs[j] = circuit.True
					none := g.outcome(ev, -1, b)
					someKeeps := false
					for _, i := range mine {
						o := g.outcome(ev, i, b)
						if o != none && o != kept {
							add(i)
						}
						someKeeps = someKeeps || o == kept
					}
					if none != kept && someKeeps {
						unread(r)
					}
					ev.Inputs[j] = circuit.False
				}
			}
		}
	}
	for i := range out {
		slices.Sort(out[i])
		out[i] = slices.Compact(out[i])
	}
	return out
}
