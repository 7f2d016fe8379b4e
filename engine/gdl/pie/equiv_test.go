package pie_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gdlab/engine/gdl"
)

// pairing names a base game, the pie game shipped for it, and what the
// comparison of the base game's variant with the shipped game must find.
type pairing struct {
	base, pie string
	decline   string // see shipped.decline
	depth     int    // of the perft comparison
	// raw is the shipped game's own perft (sequences, terminals) to depth
	// 2, the decline ply counted, when it has one.
	raw [][2]int64
}

// playouts is how many seeded random games each pairing plays.
func playouts() int {
	if testing.Short() {
		return 20
	}
	return 300
}

// TestShippedCurated compares the variants of hex7 and nineBoardTicTacToe
// with the curated pie games, which follow the generic rule: they agree
// on every playout and in perft.
func TestShippedCurated(t *testing.T) {
	for _, c := range []pairing{
		{base: "hex7", pie: "hexPie7", depth: 3},
		{base: "nineBoardTicTacToe", pie: "nineBoardTicTacToePie", depth: 3},
	} {
		t.Run(c.pie, func(t *testing.T) {
			compareShipped(t, c, curated(t, c.base), curated(t, c.pie))
		})
	}
}

// TestShippedCorpus compares the variants of the public repository's hex,
// nineBoardTicTacToe and copolymer_4 with its hexPie,
// nineBoardTicTacToePie and copolymer_4_pie. The first two follow the
// generic rule. copolymer_4_pie gives the swap a ply of its own: after the
// first move the second player may only swap or play doNotSwap, and moves
// only after doNotSwap; apart from that ply the games agree.
func TestShippedCorpus(t *testing.T) {
	dir := filepath.Join(sharedDir(t), "games")
	for _, c := range []pairing{
		{base: "hex/hex.kif", pie: "hexPie/hex.kif", depth: 2},
		{base: "nineBoardTicTacToe/nineBoardTicTacToe.kif", pie: "nineBoardTicTacToePie/nineBoardTicTacToe.kif", depth: 3},
		{base: "copolymer_4/copolymer_4.kif", pie: "copolymer_4_pie/copolymer_4_pie.kif", decline: "doNotSwap", depth: 3,
			raw: [][2]int64{{37, 0}, {74, 0}}}, // each opening answered by swap or doNotSwap
	} {
		t.Run(filepath.Dir(c.pie), func(t *testing.T) {
			compareShipped(t, c, parseFile(t, filepath.Join(dir, c.base)), parseFile(t, filepath.Join(dir, c.pie)))
		})
	}
}

// compareShipped builds the variant of base with the reference prover and
// compares it with the shipped pie game: seeded playouts, then perft.
func compareShipped(t *testing.T, c pairing, base, pieGame *gdl.Description) {
	p := shipped{gen: newProver(t, variant(t, base)), hand: newProver(t, pieGame), decline: c.decline}
	t.Logf("roles %v against %v", p.gen.Roles(), p.hand.Roles())
	steps := 0
	for i := range playouts() {
		// Every other game swaps: chance alone would swap in 1 game of 50.
		n, err := p.playout(uint64(i+1), i%2 == 1)
		if err != nil {
			t.Fatalf("seed %d, swap %v: %v", i+1, i%2 == 1, err)
		}
		steps += n
	}
	t.Logf("%d playouts agree, half of them with a swap (%d joint moves)", playouts(), steps)
	depth := c.depth
	if testing.Short() {
		depth = min(depth, 2)
	}
	gen := perftCounts(t, p.gen, depth)
	hand, err := p.perft(depth)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("perft (sequences, terminals) to depth %d: variant %v, shipped %v", depth, gen, hand)
	if !slices.Equal(gen, hand) {
		t.Errorf("perft differs: variant %v, shipped %v", gen, hand)
	}
	if c.decline != "" {
		declinePly(t, p, c.raw)
	}
}

// declinePly checks that the shipped game's decline ply is real: its own
// perft counts it, and without bridging it the first swap offer differs.
func declinePly(t *testing.T, p shipped, raw [][2]int64) {
	if got := perftCounts(t, p.hand, len(raw)); !slices.Equal(got, raw) {
		t.Errorf("shipped game's own perft %v, want %v", got, raw)
	}
	p.decline = ""
	_, err := p.playout(1, false)
	if err == nil || !strings.Contains(err.Error(), "step 1: role 1: legal") {
		t.Errorf("compared without the decline ply: %v, want a difference in the second role's moves at step 1", err)
	}
	t.Logf("compared without the decline ply: %v", err)
}
