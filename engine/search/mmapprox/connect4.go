package mmapprox

import (
	"context"
	"fmt"
	"strings"

	"gdlab/engine/game"
	"gdlab/engine/heuristic"
)

// Connect4 is the static evaluator of Rivest's Connect Four experiment, read
// from the state facts of datasets' connectFour (7×6; (cell c r z) with z
// one of x, o, b, and white plays x). It scores the 69 segments of four
// cells in a row (24 horizontal, 21 vertical, 24 diagonal): a segment
// holding discs of both colours is dead and scores 0; one holding k discs of
// a single colour and no other scores ±Weights[k−1], positive for x:
//
//	S = Σ_{segments} sign · Weights[k−1]
//	eval = 50 + 49 · S / (|S| + Scale)      for white (x); 100 − that for black
//
// so the result stays inside 1..99, below every win and above every loss.
// The paper's exact constants were not available to us; the defaults
// (weights 1, 10, 50 for one, two and three discs, Scale 100) follow its
// description: open segments count, and more discs in one count much more.
//
// On a propositional network (a machine with BaseProps and states with Has,
// possibly under wrappers with Unwrap) it reads the state's bits directly; on any other machine it parses Facts.
type Connect4 struct {
	Weights [3]float64 // segment scores for 1, 2, 3 discs; zero means {1, 10, 50}
	Scale   float64    // the S at which the evaluation is halfway to its bound; 0 means 100
	bits    *c4bits
}

// c4bits maps board cells to the base propositions of one network.
type c4bits struct {
	x, o [c4Cols * c4Rows]int
}

const (
	c4Cols = 7
	c4Rows = 6
)

// segments lists the 69 segments as cell indices c + 7r (c, r from 0).
var segments = func() [][4]int {
	var out [][4]int
	dirs := [][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}}
	for _, d := range dirs {
		for c := 0; c < c4Cols; c++ {
			for r := 0; r < c4Rows; r++ {
				ec, er := c+3*d[0], r+3*d[1]
				if ec < 0 || ec >= c4Cols || er < 0 || er >= c4Rows {
					continue
				}
				var seg [4]int
				for k := range seg {
					seg[k] = (c + k*d[0]) + c4Cols*(r+k*d[1])
				}
				out = append(out, seg)
			}
		}
	}
	return out
}()

// Segments returns the number of four-in-a-row segments the evaluator
// scores: 69 on the 7×6 board.
func Segments() int { return len(segments) }

// String names the evaluator.
func (e Connect4) String() string { return "rivest-c4" }

// Prepare finds the board's propositions when m is a propositional
// network; otherwise it returns e unchanged (Evaluate parses facts).
func (e Connect4) Prepare(ctx context.Context, m game.Machine) (heuristic.Evaluator, error) {
	bp, ok := network(m)
	if !ok {
		return e, nil
	}
	b := &c4bits{}
	for i := range b.x {
		b.x[i], b.o[i] = -1, -1
	}
	for i, f := range bp.BaseProps() {
		c, r, z, ok := parseCell(f)
		if !ok {
			continue
		}
		switch z {
		case "x":
			b.x[c+c4Cols*r] = i
		case "o":
			b.o[c+c4Cols*r] = i
		}
	}
	for i := range b.x {
		if b.x[i] < 0 || b.o[i] < 0 {
			return e, nil // not our board: fall back to facts
		}
	}
	e.bits = b
	return e, nil
}

// network finds the propositional network under metering wrappers (any
// machine with an Unwrap method, as search.Counter has).
func network(m game.Machine) (interface{ BaseProps() []string }, bool) {
	for m != nil {
		if bp, ok := m.(interface{ BaseProps() []string }); ok {
			return bp, true
		}
		u, ok := m.(interface{ Unwrap() game.Machine })
		if !ok {
			break
		}
		m = u.Unwrap()
	}
	return nil, false
}

// parseCell reads "(cell c r z)" with 1-based c and r into 0-based ones.
func parseCell(f string) (c, r int, z string, ok bool) {
	if !strings.HasPrefix(f, "(cell ") {
		return 0, 0, "", false
	}
	var cs, rs int
	if n, err := fmt.Sscanf(f, "(cell %d %d %s", &cs, &rs, &z); n != 3 || err != nil {
		return 0, 0, "", false
	}
	z = strings.TrimSuffix(z, ")")
	if cs < 1 || cs > c4Cols || rs < 1 || rs > c4Rows {
		return 0, 0, "", false
	}
	return cs - 1, rs - 1, z, true
}

// Evaluate scores s for role (0: white, x; 1: black, o).
func (e Connect4) Evaluate(m game.Machine, s game.State, role int) (float64, error) {
	var board [c4Cols * c4Rows]int8 // +1 x, -1 o
	if hs, ok := s.(interface{ Has(int) bool }); ok && e.bits != nil {
		for i := range board {
			switch {
			case hs.Has(e.bits.x[i]):
				board[i] = 1
			case hs.Has(e.bits.o[i]):
				board[i] = -1
			}
		}
	} else {
		for _, f := range s.Facts() {
			c, r, z, ok := parseCell(f)
			if !ok {
				continue
			}
			switch z {
			case "x":
				board[c+c4Cols*r] = 1
			case "o":
				board[c+c4Cols*r] = -1
			}
		}
	}
	v := e.score(&board)
	if role == 1 {
		v = 100 - v
	}
	return v, nil
}

// score returns white's evaluation of a board.
func (e Connect4) score(board *[c4Cols * c4Rows]int8) float64 {
	w := e.Weights
	if w == ([3]float64{}) {
		w = [3]float64{1, 10, 50}
	}
	scale := e.Scale
	if scale <= 0 {
		scale = 100
	}
	sum := 0.0
	for _, seg := range segments {
		xs, os := 0, 0
		for _, i := range seg {
			switch board[i] {
			case 1:
				xs++
			case -1:
				os++
			}
		}
		switch {
		case xs > 0 && os > 0:
		case xs > 0 && xs < 4:
			sum += w[xs-1]
		case os > 0 && os < 4:
			sum -= w[os-1]
		}
	}
	abs := sum
	if abs < 0 {
		abs = -abs
	}
	return 50 + 49*sum/(abs+scale)
}
