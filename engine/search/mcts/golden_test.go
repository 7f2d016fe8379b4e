package mcts

import (
	"context"
	"encoding/json"
	"flag"
	"os"
	"reflect"
	"testing"

	"gdlab/engine/game"
	"gdlab/engine/propnet/propnettest"
	"gdlab/engine/search"
)

var updateGolden = flag.Bool("update-golden", false, "rewrite the golden files in testdata from the current search")

// goldenSearch is what a seeded search leaves at its root: every role's
// visits and value sums per move, the counts of its statistics, the move
// chosen for role 0.
type goldenSearch struct {
	Game       string
	Iterations int64
	Expansions int64
	NextCalls  int64
	N          [][]int64
	W          [][]float64
	Move       string
}

// goldenCases are seeded searches on a turn-taking game, a simultaneous one
// and a game with a heuristic blended in, from the initial state and one
// move in.
func goldenCases(t *testing.T, opt Options) []goldenSearch {
	var out []goldenSearch
	for _, name := range []string{"ticTacToe", "blocker", "connectFourSmall"} {
		m := propnettest.Curated(t, name)
		o := opt
		if name == "connectFourSmall" {
			o.Heuristic, o.HeuristicWeight = factCount{}, 0.25
		}
		for _, deep := range []bool{false, true} {
			s := m.Initial()
			if deep {
				legal, _ := game.LegalAll(m, s)
				joint := make([]game.Move, len(legal))
				for r := range legal {
					joint[r] = legal[r][len(legal[r])/2]
				}
				s, _ = m.Next(s, joint)
			}
			o.Iterations = 3000
			p := started(t, m, 0, o, 11)
			if _, err := p.Search(context.Background(), s, search.Budget{}); err != nil {
				t.Fatal(err)
			}
			mv, _ := p.bestMoveAll(0)
			nd := &p.t.nodes[p.t.root]
			st := p.LastStats()
			out = append(out, goldenSearch{Game: name, Iterations: st.Iterations, Expansions: st.Expansions,
				NextCalls: st.NextCalls, N: nd.n, W: nd.w, Move: m.MoveText(0, mv)})
		}
	}
	return out
}

// factCount is a made-up evaluator, a deterministic function of the state's
// number of facts and the role: the golden test needs only that blending
// changes the values, not that they mean anything.
type factCount struct{}

func (factCount) Evaluate(m game.Machine, s game.State, role int) (float64, error) {
	facts := s.Facts()
	return float64((len(facts)*7 + role*31) % 101), nil
}

// TestZeroOptionsGolden: with the switches at their zero value, seeded
// searches reproduce bit for bit the root statistics recorded in
// testdata/golden-tree.json (rewritten with -update-golden only when a
// change to the default search is meant), so a new option cannot change
// the default search unnoticed.
func TestZeroOptionsGolden(t *testing.T) {
	got := goldenCases(t, Options{})
	const path = "testdata/golden-tree.json"
	if *updateGolden {
		b, _ := json.MarshalIndent(got, "", " ")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var want []goldenSearch
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		for i := range want {
			if i < len(got) && !reflect.DeepEqual(got[i], want[i]) {
				t.Errorf("case %d (%s): got %d iterations, %d expansions, %d Next calls, move %s, root visits %v; recorded %d, %d, %d, %s, %v",
					i, want[i].Game, got[i].Iterations, got[i].Expansions, got[i].NextCalls, got[i].Move, got[i].N,
					want[i].Iterations, want[i].Expansions, want[i].NextCalls, want[i].Move, want[i].N)
			}
		}
		t.Fatal("searches differ from the golden record")
	}
}
