package factored

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"gdlab/engine/game"
	"gdlab/engine/propnet/propnettest"
	"gdlab/engine/search"
	"gdlab/engine/search/mcts"
)

// corpusGame returns the path of a game of the shared corpus, or skips.
func corpusGame(t testing.TB, key string) string {
	t.Helper()
	dir := filepath.Join("..", "..", "..", "..", "shared")
	if d := os.Getenv("GDLAB_SHARED"); d != "" {
		dir = d
	}
	path := filepath.Join(dir, "games", key, key+".kif")
	if _, err := os.Stat(path); err != nil {
		t.Skip("shared corpus not found (set GDLAB_SHARED): skipping")
	}
	return path
}

// TestCorpusGames: on games of the public corpus the player searches the
// factors the analysis finds (none where it finds none) and plays a few
// legal moves of every role.
func TestCorpusGames(t *testing.T) {
	for _, c := range []struct {
		key      string
		factored bool
	}{
		{"lightsOnParallel", true},
		{"dualConnect4", true},
		{"factoringEasyTurtleBrain", true},
		{"double_tictactoe_dengji", true},
		{"ticTacToeParallel", false},
		{"hodgepodge", true},
		{"asteroidsParallel", false}, // every move steers both ships: joint moves only
		{"factoringMutuallyAssuredDestruction", true},
		{"factoringMediumTurtleBrain", true},
		{"snakeParallel", true},
	} {
		if testing.Short() && c.key == "snakeParallel" {
			continue // its network has 1,785 base propositions
		}
		t.Run(c.key, func(t *testing.T) {
			net := propnettest.Load(t, corpusGame(t, c.key))
			players := make([]*Player, len(net.Roles()))
			for r := range players {
				players[r] = New(Options{MCTS: mcts.Options{Iterations: 100}})
				start(t, players[r], net, r, uint64(r+1))
				t.Logf("%s: %s", net.Roles()[r], players[r].Prepared())
				if players[r].Factored() != c.factored {
					t.Fatalf("role %d: Factored() = %v, want %v", r, players[r].Factored(), c.factored)
				}
			}
			playSteps(t, net, players, 6, search.Budget{})
		})
	}
}

// playSteps plays up to n joint moves, each within b, checking each move
// is legal.
func playSteps(t *testing.T, m game.Machine, players []*Player, n int, b search.Budget) {
	t.Helper()
	s := m.Initial()
	for step := 0; step < n; step++ {
		if term, _ := m.Terminal(s); term {
			return
		}
		joint := make([]game.Move, len(players))
		for r, p := range players {
			mv, _, err := p.Play(context.Background(), s, b)
			if err != nil {
				t.Fatal(err)
			}
			if legal, _ := m.Legal(s, r, nil); !contains(legal, mv) {
				t.Fatalf("step %d: role %d played %s, not legal", step, r, m.MoveText(r, mv))
			}
			joint[r] = mv
		}
		var err error
		if s, err = m.Next(s, joint); err != nil {
			t.Fatal(err)
		}
	}
}
