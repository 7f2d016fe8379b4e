package factor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// corpusGame returns the path of a game of the shared corpus, or skips.
func corpusGame(t *testing.T, key string) string {
	t.Helper()
	path := corpusPath(key)
	if path == "" {
		t.Skip("shared corpus not found (set GDLAB_SHARED): skipping")
	}
	return path
}

// corpusPath returns the path of a game of the shared corpus, or "" when
// the corpus is not found (GDLAB_SHARED, or ../shared beside the
// repository).
func corpusPath(key string) string {
	dir := filepath.Join("..", "..", "..", "..", "shared")
	if d := os.Getenv("GDLAB_SHARED"); d != "" {
		dir = d
	}
	path := filepath.Join(dir, "games", key, key+".kif")
	if _, err := os.Stat(path); err != nil {
		return ""
	}
	return path
}

// TestCorpusGames holds the analysis to games of the public corpus whose
// structure is known from their rules: four quadrants of lights, two
// boards whose goals add up, two boards of moves made of one mark on each
// (factored only with ProductMoves), a counter that reads every light,
// and two blocks worlds whose product moves are not every combination
// (the factoring ProductMoves claims fails verification).
func TestCorpusGames(t *testing.T) {
	for _, c := range []struct {
		key      string
		opt      Options
		factors  int
		verified bool
		why      string
	}{
		{"lightsOnParallel", Options{}, 4, true, ""},
		{"double_tictactoe_dengji", Options{}, 2, true, ""},
		{"ticTacToeParallel", Options{}, 1, false, "(legal xplayer (mark "},
		{"ticTacToeParallel", Options{ProductMoves: true}, 2, true, ""},
		{"factoringGeorgeForman", Options{}, 1, false, "(next (round "},
		{"blocksWorldParallel", Options{ProductMoves: true}, 9, false, ""},
	} {
		name := c.key
		if c.opt.ProductMoves {
			name += "/product"
		}
		t.Run(name, func(t *testing.T) {
			net, a := analyzePath(t, corpusGame(t, c.key), c.opt)
			if moving(a) != c.factors {
				t.Fatalf("%d factors with moves, want %d", moving(a), c.factors)
			}
			if c.why != "" && (len(a.Couplings) == 0 || !strings.Contains(a.Couplings[0].Why, c.why)) {
				t.Errorf("couplings %v, want the first to name %q", a.Couplings, c.why)
			}
			if c.factors < 2 {
				return
			}
			if v := verified(t, net, a); v.Verified() != c.verified {
				t.Errorf("verified %v, want %v: %+v", v.Verified(), c.verified, v)
			}
		})
	}
}
