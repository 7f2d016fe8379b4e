package mcts_test

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"gdlab/datasets"
	"gdlab/engine/experiment/tarpit"
	"gdlab/engine/game"
	"gdlab/engine/search/mcts"
)

// The regression set (datasets/positions, datasets.PositionSets): positions
// of two-role constant-sum games with their best moves and exact values,
// one file a game. Each position is the moves from the game's initial
// state, the role whose move is asked for, every legal move's value and the
// set of best moves.
//
// A move's value is what the role secures by committing to it: the minimum
// over the other role's replies of the pure maximin value of the state
// reached (solve_test.go). In a turn-taking position that is the minimax
// value. In a simultaneous position (both roles choose) the other role is
// assumed to answer knowing the move; the set keeps only positions whose
// pure maximin value equals the pure minimax value (the other role
// committing first), so the position's value in mixed strategies is that
// value too, and a best move secures it against every strategy: a pure best
// move exists. The generator keeps positions where at most half the moves are best and
// no best move ends the game at once (hardEnough).
//
// The tests here verify every entry by exhaustive search with the package's
// solver (solve_test.go, reached through export_test.go); they are in the
// external test package because they load the set through
// engine/experiment/tarpit, which imports mcts.

var (
	updatePositions = flag.Bool("update-positions", false, "regenerate datasets/positions by exhaustive search")
	positionsOnly   = flag.String("update-positions-only", "", "with -update-positions, the games to regenerate (comma-separated; all when empty)")
)

// position is one entry of the regression set.
type position = datasets.Position

// positionFile is one game's positions.
type positionFile = datasets.PositionSet

// solveBudget bounds each exhaustive solve (nodes expanded).
const solveBudget = 200_000

// positionsDir is the set's folder, from this package's.
const positionsDir = "../../../datasets/positions"

// readPositionFiles reads every file of the regression set.
func readPositionFiles(t testing.TB) []positionFile {
	t.Helper()
	sets, err := datasets.PositionSets()
	if err != nil || len(sets) == 0 {
		t.Fatalf("no regression positions (%v)", err)
	}
	return sets
}

// positionMachine returns the network of a file's game, or nil and a reason
// to skip when a corpus game's folder is absent.
func positionMachine(t testing.TB, f positionFile) (game.Machine, string) {
	t.Helper()
	m, err := tarpit.Machine(context.Background(), f, tarpit.SharedDir())
	if errors.Is(err, tarpit.ErrNoCorpus) {
		return nil, err.Error()
	}
	if err != nil {
		t.Fatal(err)
	}
	return m, ""
}

// solvePosition computes a position's entry from its moves and role by
// exhaustive search: every move's secured value, the value and best moves,
// and whether both roles choose. It fails when the pure maximin and minimax
// values differ (no pure best move).
func solvePosition(ctx context.Context, m game.Machine, moves [][]string, roleName string) (position, error) {
	p := position{Moves: moves, Role: roleName}
	s, err := tarpit.Reach(m, moves)
	if err != nil {
		return p, err
	}
	if term, err := m.Terminal(s); err != nil || term {
		return p, fmt.Errorf("terminal position (%v)", err)
	}
	me, err := tarpit.RoleIndex(m, roleName)
	if err != nil {
		return p, err
	}
	legal, err := game.LegalAll(m, s)
	if err != nil {
		return p, err
	}
	p.Simultaneous = len(legal[0]) > 1 && len(legal[1]) > 1
	mvs, vals, err := mcts.RootValues(ctx, m, s, me, solveBudget)
	if err != nil {
		return p, err
	}
	p.Value = slices.Max(vals)
	p.MoveValues = map[string]float64{}
	for i, mv := range mvs {
		txt := m.MoveText(me, mv)
		p.MoveValues[txt] = vals[i]
		if vals[i] == p.Value {
			p.Best = append(p.Best, txt)
		}
	}
	sort.Strings(p.Best)
	if p.Simultaneous {
		up, err := mcts.UpperValue(ctx, m, s, me, solveBudget)
		if err != nil {
			return p, err
		}
		if up != p.Value {
			return p, fmt.Errorf("no pure value: maximin %g, minimax %g", p.Value, up)
		}
	}
	return p, nil
}

// verifyPosition re-solves a recorded position and returns an error naming
// every field that differs from the recorded one.
func verifyPosition(ctx context.Context, m game.Machine, rec position) error {
	got, err := solvePosition(ctx, m, rec.Moves, rec.Role)
	if err != nil {
		return fmt.Errorf("%s: %w", rec.Name, err)
	}
	var diffs []string
	if got.Value != rec.Value {
		diffs = append(diffs, fmt.Sprintf("value %g, recorded %g", got.Value, rec.Value))
	}
	if !slices.Equal(got.Best, rec.Best) {
		diffs = append(diffs, fmt.Sprintf("best %v, recorded %v", got.Best, rec.Best))
	}
	if got.Simultaneous != rec.Simultaneous {
		diffs = append(diffs, fmt.Sprintf("simultaneous %v, recorded %v", got.Simultaneous, rec.Simultaneous))
	}
	if len(got.MoveValues) != len(rec.MoveValues) {
		diffs = append(diffs, fmt.Sprintf("%d legal moves, recorded %d", len(got.MoveValues), len(rec.MoveValues)))
	}
	for mv, v := range got.MoveValues {
		if rv, ok := rec.MoveValues[mv]; !ok || rv != v {
			diffs = append(diffs, fmt.Sprintf("move %s value %g, recorded %g (present %v)", mv, v, rv, ok))
		}
	}
	if len(rec.Best) == len(rec.MoveValues) {
		diffs = append(diffs, "every move is best")
	}
	if len(diffs) > 0 {
		return fmt.Errorf("%s: %s", rec.Name, strings.Join(diffs, "; "))
	}
	return nil
}

// TestRegressionSet verifies every recorded position by exhaustive search:
// its value, best moves and every move's value. It also requires the
// set's size and mix: at least 30 positions, simultaneous ones among them.
func TestRegressionSet(t *testing.T) {
	if *updatePositions {
		generatePositions(t)
	}
	total, simul := 0, 0
	for _, f := range readPositionFiles(t) {
		m, skip := positionMachine(t, f)
		if m == nil {
			t.Logf("%s: skipped: %s", f.Game, skip)
			continue
		}
		for _, p := range f.Positions {
			if err := verifyPosition(context.Background(), m, p); err != nil {
				t.Errorf("%s: %v", f.Game, err)
			}
			total++
			if p.Simultaneous {
				simul++
			}
		}
	}
	t.Logf("%d positions verified, %d simultaneous", total, simul)
	if total < 30 || simul == 0 {
		t.Errorf("%d positions verified, %d simultaneous; the set should hold at least 30, some simultaneous", total, simul)
	}
}

// TestRegressionSetCatchesBrokenEntry: a recorded entry with a wrong best
// move, a wrong value or a wrong move value fails verification.
func TestRegressionSetCatchesBrokenEntry(t *testing.T) {
	f := readPositionFiles(t)[0]
	for _, g := range readPositionFiles(t) {
		if g.Game == "ticTacToe" {
			f = g
		}
	}
	m, skip := positionMachine(t, f)
	if m == nil {
		t.Skip(skip)
	}
	rec := f.Positions[0]
	if err := verifyPosition(context.Background(), m, rec); err != nil {
		t.Fatalf("the unbroken entry fails: %v", err)
	}
	var notBest string
	for mv := range rec.MoveValues {
		if !slices.Contains(rec.Best, mv) {
			notBest = mv
		}
	}
	breaks := map[string]func(p *position){
		"a worse move recorded as best": func(p *position) { p.Best = append(slices.Clone(p.Best), notBest); sort.Strings(p.Best) },
		"a best move left out":          func(p *position) { p.Best = p.Best[1:] },
		"the value off by one":          func(p *position) { p.Value++ },
		"a move's value changed": func(p *position) {
			p.MoveValues = map[string]float64{}
			for k, v := range rec.MoveValues {
				p.MoveValues[k] = v
			}
			p.MoveValues[notBest] = rec.Value
		},
	}
	for what, brk := range breaks {
		p := rec
		brk(&p)
		err := verifyPosition(context.Background(), m, p)
		if err == nil {
			t.Errorf("%s: verification passed", what)
			continue
		}
		t.Logf("%s: %v", what, err)
	}
}

// positionSpec says how to draw a game's positions: random lines from the
// initial state, cut back from their end by back[0]..back[1] joint moves
// (endgames) or, when back is zero, after plies[0]..plies[1] joint moves.
type positionSpec struct {
	game, source string
	want         int
	plies, back  [2]int
	seed         uint64
	careful      bool // lines take wins at once and avoid losses at once (carefulLine)
}

var positionSpecs = []positionSpec{
	{game: "ticTacToe", source: "curated", want: 8, plies: [2]int{2, 5}, seed: 1},
	{game: "connectFour", source: "curated", want: 6, back: [2]int{2, 6}, seed: 2, careful: true},
	{game: "connectFourSmall", source: "curated", want: 8, plies: [2]int{3, 7}, seed: 7},
	{game: "breakthroughSmall", source: "curated", want: 16, back: [2]int{2, 6}, seed: 3, careful: true},
	{game: "blocker", source: "curated", want: 8, back: [2]int{1, 3}, seed: 4},
	{game: "ticTicToe", source: "corpus", want: 8, plies: [2]int{1, 3}, seed: 5},
	{game: "biddingTicTacToe", source: "corpus", want: 6, back: [2]int{2, 6}, seed: 6},
}

// generatePositions draws, solves and writes every game's positions
// (go test -run TestRegressionSet -update-positions).
func generatePositions(t *testing.T) {
	for _, sp := range positionSpecs {
		if *positionsOnly != "" && !slices.Contains(strings.Split(*positionsOnly, ","), sp.game) {
			continue
		}
		f := positionFile{Game: sp.game, Source: sp.source}
		m, skip := positionMachine(t, f)
		if m == nil {
			t.Fatalf("%s: %s", sp.game, skip)
		}
		f.Positions = drawPositions(t, m, sp)
		b, err := json.MarshalIndent(f, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		b = pairLine.ReplaceAll(b, []byte("[$1, $2]"))
		if err := os.WriteFile(filepath.Join(positionsDir, sp.game+".json"), append(b, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// pairLine matches an indented list of two strings (a joint move), which the
// files keep on one line.
var pairLine = regexp.MustCompile(`\[\s+("[^"]*"),\s+("[^"]*")\s+\]`)

// drawPositions returns sp.want solved positions of distinct states, each
// with a move that is not best, and in a simultaneous game preferring
// positions where both roles choose (at most half turn-taking ones).
func drawPositions(t *testing.T, m game.Machine, sp positionSpec) []position {
	rng := game.NewRand(sp.seed)
	seen := map[uint64]bool{}
	var out []position
	turns := 0
	for try := 0; len(out) < sp.want && try < 4000; try++ {
		line := mcts.RandomLine(t, m, rng)
		if sp.careful {
			line = carefulLine(t, m, rng)
		}
		cut := sp.plies[0] + rng.IntN(sp.plies[1]-sp.plies[0]+1)
		if sp.back != [2]int{} {
			cut = len(line) - (sp.back[0] + rng.IntN(sp.back[1]-sp.back[0]+1))
		}
		if cut < 0 || cut >= len(line) {
			continue
		}
		s, err := tarpit.Reach(m, line[:cut])
		if err != nil {
			t.Fatal(err)
		}
		if seen[s.Hash()] {
			continue
		}
		seen[s.Hash()] = true
		legal, err := game.LegalAll(m, s)
		if err != nil {
			t.Fatal(err)
		}
		me := 0 // where both choose, the roles take turns being asked
		if len(legal[1]) > 1 && (len(legal[0]) == 1 || try%2 == 1) {
			me = 1
		}
		p, err := solvePosition(context.Background(), m, line[:cut], m.Roles()[me])
		if err == nil && !hardEnough(t, m, s, me, p) {
			continue
		}
		if err != nil || len(p.Best) == len(p.MoveValues) {
			if testing.Verbose() && err != nil {
				t.Logf("%s: try %d, %d plies: %v", sp.game, try, cut, err)
			}
			continue
		}
		if !p.Simultaneous && sp.source != "" && simultaneousGame(sp.game) {
			if turns >= sp.want/2 {
				continue
			}
			turns++
		}
		p.Name = fmt.Sprintf("%s-%d", sp.game, len(out)+1)
		out = append(out, p)
		t.Logf("%s: %d plies, %s to move, value %g, best %v of %d", p.Name, cut, p.Role, p.Value, p.Best, len(p.MoveValues))
	}
	if len(out) < sp.want {
		t.Fatalf("%s: only %d positions found", sp.game, len(out))
	}
	return out
}

// hardEnough reports whether a solved position tests a search: at most half
// its moves are best, and in a turn-taking position no best move ends the
// game at once (a search finds such a move in a few iterations). Where both
// choose, a move that ends the game still has to be guessed against every
// reply (Blocker's last cells), and Blocker has no pure value earlier.
func hardEnough(t *testing.T, m game.Machine, s game.State, me int, p position) bool {
	if 2*len(p.Best) > len(p.MoveValues) {
		return false
	}
	if p.Simultaneous {
		return true
	}
	legal, err := game.LegalAll(m, s)
	if err != nil {
		t.Fatal(err)
	}
	joint := make([]game.Move, 2)
	for _, a := range legal[me] {
		if !slices.Contains(p.Best, m.MoveText(me, a)) {
			continue
		}
		joint[me] = a
		ends := true
		for _, b := range legal[1-me] {
			joint[1-me] = b
			next, err := m.Next(s, joint)
			if err != nil {
				t.Fatal(err)
			}
			if term, err := m.Terminal(next); err != nil || !term {
				ends = false
			}
		}
		if ends {
			return false
		}
	}
	return true
}

// simultaneousGame names the set's games where both roles choose at once.
func simultaneousGame(name string) bool {
	return name == "blocker" || name == "ticTicToe" || name == "biddingTicTacToe"
}

// carefulLine plays a match in which the role to move (one role chooses at
// a time) takes a move that wins at once when it has one, and otherwise
// draws uniformly among the moves after which the other role cannot win at
// once (among all moves when none is safe). Its late positions are fuller
// boards than uniform play reaches, so exhaustive search solves them.
func carefulLine(t *testing.T, m game.Machine, rng interface{ IntN(int) int }) [][]string {
	s := m.Initial()
	var line [][]string
	for steps := 0; steps < 1000; steps++ {
		if term, err := m.Terminal(s); err != nil || term {
			if err != nil {
				t.Fatal(err)
			}
			return line
		}
		joint, next := carefulJoint(t, m, s, rng)
		texts := make([]string, len(joint))
		for r, mv := range joint {
			texts[r] = m.MoveText(r, mv)
		}
		line = append(line, texts)
		s = next
	}
	return line
}

// carefulJoint is carefulLine's choice at s, with the state it reaches.
func carefulJoint(t *testing.T, m game.Machine, s game.State, rng interface{ IntN(int) int }) ([]game.Move, game.State) {
	legal, err := game.LegalAll(m, s)
	if err != nil {
		t.Fatal(err)
	}
	mover := 0
	if len(legal[1]) > 1 {
		mover = 1
	}
	joint := []game.Move{legal[0][0], legal[1][0]}
	var safe []game.Move
	for _, mv := range legal[mover] {
		joint[mover] = mv
		next, err := m.Next(s, joint)
		if err != nil {
			t.Fatal(err)
		}
		if winsAt(t, m, next, mover) {
			return joint, next
		}
		if !canWinAtOnce(t, m, next, 1-mover) {
			safe = append(safe, mv)
		}
	}
	if len(safe) == 0 {
		safe = legal[mover]
	}
	joint[mover] = safe[rng.IntN(len(safe))]
	next, err := m.Next(s, joint)
	if err != nil {
		t.Fatal(err)
	}
	return joint, next
}

// winsAt reports whether s is terminal with role's goal 100.
func winsAt(t *testing.T, m game.Machine, s game.State, role int) bool {
	term, err := m.Terminal(s)
	if err != nil {
		t.Fatal(err)
	}
	if !term {
		return false
	}
	g, err := m.Goal(s, role)
	return err == nil && g == 100
}

// canWinAtOnce reports whether role, moving at s, has a move that wins at
// once (the other role playing its only move).
func canWinAtOnce(t *testing.T, m game.Machine, s game.State, role int) bool {
	if term, err := m.Terminal(s); err != nil || term {
		return false
	}
	legal, err := game.LegalAll(m, s)
	if err != nil {
		t.Fatal(err)
	}
	joint := []game.Move{legal[0][0], legal[1][0]}
	for _, mv := range legal[role] {
		joint[role] = mv
		next, err := m.Next(s, joint)
		if err != nil {
			t.Fatal(err)
		}
		if winsAt(t, m, next, role) {
			return true
		}
	}
	return false
}
