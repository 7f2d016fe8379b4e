package search_test

import (
	"context"
	"fmt"
	"testing"

	"gdlab/engine/game"
	"gdlab/engine/heuristic"
	"gdlab/engine/search"
	"gdlab/engine/search/playertest"
	"gdlab/engine/search/searchtest"
)

// TestAlphaBetaEqualsMinimax is the property test of alpha-beta: on random
// positions of several games, for every role, several evaluators and depths
// 1..4, alpha-beta with each combination of its options returns exactly the
// value of plain minimax. Values are compared with == because both compute
// the same maxima and minima of the same leaf values.
func TestAlphaBetaEqualsMinimax(t *testing.T) {
	perGame := 300
	if quick() {
		perGame = 40
	}
	games := map[string]game.Machine{}
	for _, name := range []string{"nim", "nim3", "rps", "summit", "ttt"} {
		m, err := searchtest.Game(name)
		if err != nil {
			t.Fatal(err)
		}
		games[name] = m
	}
	if dir := searchtest.SharedDir(); dir != "" && !quick() {
		for _, key := range []string{"ticTacToe", "connectFour", "nim1"} {
			games[key] = playertest.Shared(t, key)
		}
	}
	total := 0
	for name, m := range games {
		total += checkGame(t, name, m, perGame)
	}
	t.Logf("%d positions agree", total)
}

// evaluators are deterministic evaluators with different shapes of values.
var evaluators = []heuristic.Evaluator{
	heuristic.IntermediateGoal{Missing: 50},
	heuristic.Mobility{},
	heuristic.DepthCharges{Count: 2, Seed: 5},
	heuristic.NewLinear([]heuristic.Evaluator{heuristic.IntermediateGoal{}, heuristic.Focus{}}, []float64{2, 1}),
}

// abVariants are alpha-beta's option combinations.
var abVariants = []search.AlphaBeta{{}, {NoTable: true}, {NoOrdering: true}, {TableSize: 4}}

func checkGame(t *testing.T, name string, m game.Machine, n int) int {
	ctx := context.Background()
	states, err := searchtest.RandomStates(ctx, m, n, 99)
	if err != nil {
		t.Fatal(err)
	}
	maxDepth := 4
	if len(m.Roles()) == 2 && (name == "connectFour" || name == "ticTacToe" || name == "ttt") {
		maxDepth = 3 // keep the full-width minimax affordable
	}
	if name == "connectFour" {
		states, maxDepth = states[:n/10], 2
	}
	for i, s := range states {
		role := i % len(m.Roles())
		depth := 1 + i%maxDepth
		ev := evaluators[i%len(evaluators)]
		want, _, err := search.MinimaxValue(ctx, m, s, role, depth, ev, search.Budget{})
		if err != nil {
			t.Fatalf("%s: minimax: %v", name, err)
		}
		ab := abVariants[i%len(abVariants)]
		ab.Eval = ev
		got, _, err := ab.Value(ctx, m, s, role, depth, search.Budget{})
		if err != nil || got != want {
			t.Fatalf("%s position %d role %d depth %d %s %+v: alpha-beta %v (%v), minimax %v\n%s",
				name, i, role, depth, heuristic.Name(ev), ab, got, err, want, game.StateText(s))
		}
	}
	return len(states)
}

// TestAlphaBetaPlayerValue: through iterative deepening and a table kept
// across moves, the player's reported value is still the minimax value of
// the depth it completed.
func TestAlphaBetaPlayerValue(t *testing.T) {
	ctx := context.Background()
	for _, name := range []string{"ttt", "nim3", "rps"} {
		m, _ := searchtest.Game(name)
		for role := range m.Roles() {
			p := &search.AlphaBeta{MaxDepth: 3, Eval: heuristic.Mobility{}}
			if err := p.Start(ctx, search.Setup{Machine: m, Role: role, Seed: 2}); err != nil {
				t.Fatal(err)
			}
			states, _ := searchtest.RandomStates(ctx, m, 15, uint64(role))
			for i, s := range states {
				_, rep, err := p.Play(ctx, s, search.Budget{})
				if err != nil {
					t.Fatal(err)
				}
				if rep.Depth == 0 {
					continue // a lone legal move is played unsearched
				}
				want, _, _ := search.MinimaxValue(ctx, m, s, role, rep.Depth, heuristic.Mobility{}, search.Budget{})
				if rep.Value != want {
					t.Errorf("%s role %d state %d depth %d: player value %v, minimax %v", name, role, i, rep.Depth, rep.Value, want)
				}
			}
		}
	}
}

func ExampleAlphaBeta() {
	ctx := context.Background()
	m, _ := searchtest.TicTacToe("xox/.../o..") // x to move: only (mark 3 3) forks
	p := &search.AlphaBeta{Eval: heuristic.Pessimism{}}
	_ = p.Start(ctx, search.Setup{Machine: m, Role: 0, Seed: 1})
	mv, rep, _ := p.Play(ctx, m.Initial(), search.Budget{})
	fmt.Println(m.MoveText(0, mv), rep.Value, rep.Depth)
	// Output: (mark 3 3) 100 3
}

func ExampleMinimax_falseSummit() {
	ctx := context.Background()
	m, _ := searchtest.Game("summit")
	for _, depth := range []int{2, 5} {
		p := &search.Minimax{Depth: depth, Eval: heuristic.IntermediateGoal{}}
		_ = p.Start(ctx, search.Setup{Machine: m, Role: 0})
		mv, rep, _ := p.Play(ctx, m.Initial(), search.Budget{})
		fmt.Printf("depth %d: %s valued %v\n", depth, m.MoveText(0, mv), rep.Value)
	}
	// Output:
	// depth 2: (take ridge) valued 70
	// depth 5: (take valley) valued 100
}
