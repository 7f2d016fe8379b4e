package datasets

import (
	"context"
	"slices"
	"strings"
	"testing"

	"gdlab/engine/game"
	"gdlab/engine/gdl/check"
)

// TestList checks that every embedded folder is a loadable game whose
// metadata names it and whose roles are the ones its rules declare.
func TestList(t *testing.T) {
	names := List()
	if len(names) == 0 {
		t.Fatal("no curated games embedded")
	}
	if !slices.IsSorted(names) {
		t.Errorf("List is not sorted: %v", names)
	}
	for _, name := range names {
		g := loadGame(t, name)
		m := g.Meta
		if m.Name != name {
			t.Errorf("%s: meta.json names the game %q", name, m.Name)
		}
		if m.Title == "" || len(m.Description) < 40 {
			t.Errorf("%s: meta.json needs a title and a description of the rules in prose", name)
		}
		if len(m.UsedBy) == 0 {
			t.Errorf("%s: meta.json should say which experiments use the game", name)
		}
		if got := newProver(t, g).Roles(); !slices.Equal(got, m.Roles) {
			t.Errorf("%s: rules declare roles %v, meta.json says %v", name, got, m.Roles)
		}
		if !strings.HasPrefix(g.Rules, ";") {
			t.Errorf("%s: the rulesheet should open with a comment describing the game", name)
		}
	}
}

// TestGameErrors checks that bad names give errors, not panics or files
// outside the games folder.
func TestGameErrors(t *testing.T) {
	for _, name := range []string{"", "noSuchGame", "../datasets", "nim/../nim", "games", "."} {
		if _, err := Game(name); err == nil {
			t.Errorf("Game(%q) succeeded", name)
		}
	}
	a, _ := Game("nim")
	a.Rules = ""
	if b, _ := Game("nim"); b.Rules == "" {
		t.Error("Game returned shared state: changing one copy changed another")
	}
}

// TestCheck validates every curated game with the semantic checks.
func TestCheck(t *testing.T) {
	for _, name := range List() {
		d, err := loadGame(t, name).Description()
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if errs := check.Check(d); len(errs) > 0 {
			t.Errorf("%s: %v", name, errs.Detail())
		}
	}
}

// TestPlayouts plays seeded random playouts of every game: each must reach a
// terminal state in which every role has exactly one goal value.
func TestPlayouts(t *testing.T) {
	for _, name := range List() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			g := loadGame(t, name)
			pr := newProver(t, g)
			n := playouts(name)
			outcomes := map[string]int{}
			for i := 0; i < n; i++ {
				res, err := game.Playout(context.Background(), pr, pr.Initial(), game.NewRand(seedOf(i)), maxPlayoutSteps)
				if err != nil {
					t.Fatalf("seed %d: %v", seedOf(i), err)
				}
				if !res.Terminal {
					t.Fatalf("seed %d: no terminal state after %d steps", seedOf(i), res.Steps)
				}
				if slices.Contains(res.Goals, -1) {
					t.Fatalf("seed %d: terminal state after %d steps lacks a single goal for some role: goals %v, state %v",
						seedOf(i), res.Steps, res.Goals, res.Final.Facts())
				}
				if fact := playoutFacts[name]; fact != nil {
					if err := fact(res); err != nil {
						t.Fatalf("seed %d: %v", seedOf(i), err)
					}
				}
				outcomes[goalsText(res.Goals)]++
			}
			t.Logf("%d playouts: %s", n, outcomeSummary(outcomes))
		})
	}
}

// TestPerft checks the perft counts recorded in each game's metadata.
func TestPerft(t *testing.T) {
	for _, name := range List() {
		g := loadGame(t, name)
		want := g.Meta.Perft
		if len(want) == 0 {
			t.Errorf("%s: meta.json records no perft", name)
			continue
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			pr := newProver(t, g)
			got, err := game.Perft(context.Background(), pr, pr.Initial(), want[len(want)-1].Depth)
			if err != nil {
				t.Fatal(err)
			}
			for i, w := range want {
				gl := got[i]
				if w != (Perft{gl.Depth, gl.Sequences, gl.States, gl.Terminals}) {
					t.Errorf("depth %d: got %d sequences, %d states, %d terminal; meta.json says %d, %d, %d",
						w.Depth, gl.Sequences, gl.States, gl.Terminals, w.Sequences, w.States, w.Terminals)
				}
			}
		})
	}
}

// TestCompleteGames walks the whole game tree of the games that record its
// size: the number of complete games, their outcomes, and a goal for every
// role in every terminal state.
func TestCompleteGames(t *testing.T) {
	for _, name := range List() {
		g := loadGame(t, name)
		if g.Meta.Complete == 0 {
			continue
		}
		t.Run(name, func(t *testing.T) {
			pr := newProver(t, g)
			tree, err := walkTree(context.Background(), pr)
			if err != nil {
				t.Fatal(err)
			}
			if tree.complete != g.Meta.Complete {
				t.Errorf("%d complete games, meta.json says %d", tree.complete, g.Meta.Complete)
			}
			if len(g.Meta.Outcomes) > 0 && !mapsEqual(tree.outcomes, g.Meta.Outcomes) {
				t.Errorf("complete games by outcome %v, meta.json says %v", tree.outcomes, g.Meta.Outcomes)
			}
			for _, bad := range tree.goalless {
				t.Errorf("terminal state without a single goal for every role: %v", bad)
			}
			t.Logf("%d complete games, %d states (distinct within each depth), outcomes %v", tree.complete, tree.states, tree.outcomes)
		})
	}
}

// gameTree is what walkTree finds.
type gameTree struct {
	complete int64            // complete games: move sequences that end in a terminal state
	states   int64            // states distinct within each depth, the initial one included
	outcomes map[string]int64 // complete games by goal vector
	goalless [][]string       // terminal states lacking a goal for some role
}

// walkTree expands the whole game tree level by level over distinct states,
// carrying how many move sequences reach each, as game.Perft does.
func walkTree(ctx context.Context, m game.Machine) (*gameTree, error) {
	tree := &gameTree{outcomes: map[string]int64{}, states: 1}
	type node struct {
		s     game.State
		count int64
	}
	level := []node{{m.Initial(), 1}}
	for len(level) > 0 {
		index := map[uint64][]int{}
		var next []node
		for _, n := range level {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			term, err := m.Terminal(n.s)
			if err != nil {
				return nil, err
			}
			if term {
				goals := game.Goals(m, n.s)
				if slices.Contains(goals, -1) {
					tree.goalless = append(tree.goalless, n.s.Facts())
				}
				tree.complete += n.count
				tree.outcomes[goalsText(goals)] += n.count
				continue
			}
			legal, err := game.LegalAll(m, n.s)
			if err != nil {
				return nil, err
			}
			err = game.ForEachJoint(legal, func(joint []game.Move) error {
				ns, err := m.Next(n.s, joint)
				if err != nil {
					return err
				}
				for _, i := range index[ns.Hash()] {
					if next[i].s.Equal(ns) {
						next[i].count += n.count
						return nil
					}
				}
				index[ns.Hash()] = append(index[ns.Hash()], len(next))
				next = append(next, node{ns, n.count})
				return nil
			})
			if err != nil {
				return nil, err
			}
		}
		tree.states += int64(len(next))
		level = next
	}
	return tree, nil
}

func mapsEqual(a, b map[string]int64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
