package bitboard

import (
	"math/bits"

	"gdlab/engine/propnet/internal/draw"
)

// Connect Four as the corpus plays it: 8 columns of 6 cells, red first, a
// line of four in a row, column or diagonal wins, a full board draws.
// Cells are bits col*7+row: each column has a spare top bit, so that shifts
// by 1 (vertical), 7 (horizontal), 6 and 8 (diagonals) never wrap.
const (
	c4Cols = 8
	c4Rows = 6
)

// ConnectFour is a Connect Four position.
type ConnectFour struct {
	stones [2]uint64 // red, black
	height [c4Cols]int
	turn   int
	count  int // stones on the board
}

// Reset sets up the empty board with red to move.
func (g *ConnectFour) Reset() { *g = ConnectFour{} }

// won reports whether stones hold four in a line.
func won(b uint64) bool {
	for _, s := range [4]uint{1, 7, 6, 8} {
		m := b & (b >> s)
		if m&(m>>(2*s)) != 0 {
			return true
		}
	}
	return false
}

// Playout plays random moves, drawn from src, to the end and returns the
// goals of red and black.
func (g *ConnectFour) Playout(src *draw.Source) (int, int) {
	var open [c4Cols]int
	for {
		n := 0
		for c := 0; c < c4Cols; c++ {
			if g.height[c] < c4Rows {
				open[n] = c
				n++
			}
		}
		if n == 0 {
			return 50, 50
		}
		c := open[0]
		if n > 1 {
			c = open[src.Below(uint32(n))]
		}
		if r, b, over := g.Drop(c); over {
			return r, b
		}
	}
}

// Drop drops a stone of the side to move into column c (0-based, not full)
// and reports the goals if the game is over.
func (g *ConnectFour) Drop(c int) (int, int, bool) {
	g.stones[g.turn] |= 1 << uint(c*7+g.height[c])
	g.height[c]++
	if won(g.stones[g.turn]) {
		if g.turn == 0 {
			return 100, 0, true
		}
		return 0, 100, true
	}
	g.turn ^= 1
	if g.count++; g.count == c4Cols*c4Rows {
		return 50, 50, true
	}
	return 0, 0, false
}

// Open appends the columns that are not full to dst.
func (g *ConnectFour) Open(dst []int) []int {
	for c := 0; c < c4Cols; c++ {
		if g.height[c] < c4Rows {
			dst = append(dst, c)
		}
	}
	return dst
}

// Turn returns 0 when red is to move, 1 when black is.
func (g *ConnectFour) Turn() int { return g.turn }

// Stones returns how many stones are on the board.
func (g *ConnectFour) Stones() int {
	return bits.OnesCount64(g.stones[0]) + bits.OnesCount64(g.stones[1])
}
