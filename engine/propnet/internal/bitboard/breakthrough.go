package bitboard

import (
	"math/bits"

	"gdlab/engine/propnet/internal/draw"
)

// Breakthrough as the corpus plays it: 8x8, white on rows 1-2 moving up,
// black on rows 7-8 moving down, white first. A piece moves one row forward
// straight onto an empty cell or diagonally onto a cell without a piece of
// its own (capturing). Reaching the far row or taking every enemy piece wins.
// Cell (x, y) is bit (y-1)*8 + (x-1).
const (
	fileA = 0x0101010101010101
	fileH = fileA << 7
	rank1 = 0xff
	rank8 = rank1 << 56
)

// Breakthrough is a Breakthrough position.
type Breakthrough struct {
	white, black uint64
	turn         int // 0 white, 1 black
}

// Reset sets up the initial position.
func (g *Breakthrough) Reset() {
	*g = Breakthrough{white: 0xffff, black: 0xffff << 48}
}

// targets returns the cells reachable by straight, left and right moves of
// the side to move; each target has exactly one source per direction.
func (g *Breakthrough) targets() (straight, left, right uint64) {
	empty := ^(g.white | g.black)
	if g.turn == 0 {
		w := g.white
		return (w << 8) & empty, ((w &^ fileA) << 7) &^ w, ((w &^ fileH) << 9) &^ w
	}
	b := g.black
	return (b >> 8) & empty, ((b &^ fileH) >> 7) &^ b, ((b &^ fileA) >> 9) &^ b
}

// Playout plays random moves, drawn from src, to the end and returns the
// goals of white and black; ok is false if the side to move has no move
// (never in practice).
func (g *Breakthrough) Playout(src *draw.Source) (int, int, bool) {
	for {
		s, l, r := g.targets()
		ns, nl, nr := bits.OnesCount64(s), bits.OnesCount64(l), bits.OnesCount64(r)
		n := ns + nl + nr
		if n == 0 {
			return 0, 0, false
		}
		k := int(src.Below(uint32(n)))
		var set uint64
		var shift int
		switch {
		case k < ns:
			set, shift = s, 8
		case k < ns+nl:
			set, shift, k = l, 7, k-ns
		default:
			set, shift, k = r, 9, k-ns-nl
		}
		to := selectBit(set, k)
		if w, b, over := g.move(to, shift); over {
			return w, b, true
		}
	}
}

// move moves the side to move's piece that reaches one-bit mask to by a
// move of the given shift (8 straight, 7 or 9 diagonal), and reports the
// goals if the game is over.
func (g *Breakthrough) move(to uint64, shift int) (int, int, bool) {
	if g.turn == 0 {
		g.white = g.white&^(to>>uint(shift)) | to
		g.black &^= to
		if g.white&rank8 != 0 || g.black == 0 {
			return 100, 0, true
		}
	} else {
		g.black = g.black&^(to<<uint(shift)) | to
		g.white &^= to
		if g.black&rank1 != 0 || g.white == 0 {
			return 0, 100, true
		}
	}
	g.turn ^= 1
	return 0, 0, false
}

// Move is a move from cell From to cell To (bit indices).
type Move struct{ From, To int }

// Moves appends the legal moves of the side to move to dst.
func (g *Breakthrough) Moves(dst []Move) []Move {
	s, l, r := g.targets()
	for _, d := range []struct {
		set   uint64
		shift int
	}{{s, 8}, {l, 7}, {r, 9}} {
		for x := d.set; x != 0; x &= x - 1 {
			to := bits.TrailingZeros64(x)
			from := to - d.shift
			if g.turn == 1 {
				from = to + d.shift
			}
			dst = append(dst, Move{from, to})
		}
	}
	return dst
}

// Play makes a move from Moves and reports the goals if the game is over.
func (g *Breakthrough) Play(m Move) (int, int, bool) {
	shift := m.To - m.From
	if shift < 0 {
		shift = -shift
	}
	return g.move(1<<uint(m.To), shift)
}

// Turn returns 0 when white is to move, 1 when black is.
func (g *Breakthrough) Turn() int { return g.turn }

// selectBit returns the k-th lowest set bit of x as a one-bit mask.
func selectBit(x uint64, k int) uint64 {
	for ; k > 0; k-- {
		x &= x - 1
	}
	return x & -x
}
