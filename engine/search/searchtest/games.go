// Package searchtest provides fixtures for testing and measuring players
// and evaluators: tiny GDL games embedded in the package (so tests run on a
// bare checkout), tic-tac-toe from any position, random positions of a
// game, and the shared corpus's location. It links no test code, so
// notebooks may use it; playertest holds what needs a *testing.T.
package searchtest

import (
	"context"
	"embed"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gdlab/datasets"
	"gdlab/engine/game"
	"gdlab/engine/gdl"
	"gdlab/engine/prover"
)

//go:embed games/*.kif
var games embed.FS

// Names lists the embedded games:
//
//	nim      two heaps (3, 2), take 1 or 2, last take wins; goals only at the end
//	nim3     three-player nim on one heap of 5
//	rps      two simultaneous rounds of rock-paper-scissors; goals in every state
//	summit   a one-player false summit: intermediate goals rise towards a fall
//	ttt      tic-tac-toe (see also TicTacToe)
func Names() []string {
	ents, _ := games.ReadDir("games")
	var out []string
	for _, e := range ents {
		out = append(out, strings.TrimSuffix(e.Name(), ".kif"))
	}
	sort.Strings(out)
	return out
}

// Rules returns the GDL text of an embedded game.
func Rules(name string) (string, error) {
	b, err := games.ReadFile("games/" + name + ".kif")
	if err != nil {
		return "", fmt.Errorf("searchtest: no embedded game %q (have %v)", name, Names())
	}
	return string(b), nil
}

// Game returns the prover for an embedded game; "ttt" starts from the empty
// board.
func Game(name string) (game.Machine, error) {
	if name == "ttt" {
		return TicTacToe(".........")
	}
	src, err := Rules(name)
	if err != nil {
		return nil, err
	}
	return Compile(name+".kif", src)
}

// Compile parses GDL text and returns its prover.
func Compile(filename, src string) (game.Machine, error) {
	d, err := gdl.Parse(filename, []byte(src))
	if err != nil {
		return nil, err
	}
	return prover.New(d)
}

// TicTacToe returns tic-tac-toe (roles x and o, x moving first) started from
// a given board: nine cells row by row, each 'x', 'o' or '.', spaces and
// slashes ignored, such as "x.o/.x./o..". The role to move is x when both
// have as many marks, o otherwise.
func TicTacToe(board string) (game.Machine, error) {
	cells := strings.NewReplacer(" ", "", "/", "").Replace(board)
	if len(cells) != 9 || strings.Trim(cells, "xo.") != "" {
		return nil, fmt.Errorf("searchtest: board %q is not nine cells of x, o and .", board)
	}
	src, err := Rules("ttt")
	if err != nil {
		return nil, err
	}
	return Compile("ttt.kif", src+tttInit(cells))
}

// tttInit writes the init facts of a board.
func tttInit(cells string) string {
	var b strings.Builder
	names := map[byte]string{'x': "x", 'o': "o", '.': "b"}
	for i := 0; i < 9; i++ {
		fmt.Fprintf(&b, "(init (cell %d %d %s))\n", i/3+1, i%3+1, names[cells[i]])
	}
	control := "x"
	if strings.Count(cells, "x") > strings.Count(cells, "o") {
		control = "o"
	}
	fmt.Fprintf(&b, "(init (control %s))\n", control)
	return b.String()
}

// SharedDir returns the shared corpus directory, or "" when it is absent.
func SharedDir() string {
	cands := []string{os.Getenv("GDLAB_SHARED"), filepath.Join("..", "..", "..", "shared"), filepath.Join("..", "..", "..", "..", "shared")}
	for _, d := range cands {
		if d == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(d, "games")); err == nil {
			return d
		}
	}
	return ""
}

// RandomStates returns n non-terminal states of m reached by random play
// from the initial state, each after a random number of joint moves (up to
// the end of its playout), seeded by seed.
func RandomStates(ctx context.Context, m game.Machine, n int, seed uint64) ([]game.State, error) {
	rng := game.NewRand(seed)
	var out []game.State
	for len(out) < n {
		r, err := game.Playout(ctx, m, m.Initial(), rng, 0)
		if err != nil {
			return nil, err
		}
		if r.Steps == 0 {
			return nil, fmt.Errorf("searchtest: the initial state is terminal")
		}
		cut := rng.IntN(r.Steps)
		s, err := replayRandom(ctx, m, rng, cut)
		if err != nil {
			return nil, err
		}
		if s != nil {
			out = append(out, s)
		}
	}
	return out, nil
}

// replayRandom plays steps random joint moves from the initial state and
// returns the state reached, or nil when the game ended first.
func replayRandom(ctx context.Context, m game.Machine, rng *rand.Rand, steps int) (game.State, error) {
	s := m.Initial()
	for i := 0; i < steps; i++ {
		legal, err := game.LegalAll(m, s)
		if err != nil {
			return nil, err
		}
		joint := make([]game.Move, len(legal))
		for r, ms := range legal {
			if len(ms) == 0 {
				return nil, nil
			}
			joint[r] = ms[rng.IntN(len(ms))]
		}
		if s, err = m.Next(s, joint); err != nil {
			return nil, err
		}
	}
	if term, err := m.Terminal(s); err != nil || term {
		return nil, err
	}
	return s, nil
}

// Curated returns the reference prover of a curated game of package
// datasets.
func Curated(name string) (*prover.Prover, error) {
	g, err := datasets.Game(name)
	if err != nil {
		return nil, err
	}
	d, err := g.Description()
	if err != nil {
		return nil, err
	}
	return prover.New(d)
}
