package mcts

import (
	"fmt"
	"math"
)

// The polynomial exploration term (Options.PolyExplore) replaces UCT's
// c·√(ln N / n) in selection by
//
//	C · N^(e/4) / √n
//
// for role r's move i at a node visited N times, the move visited n times,
// e = PolyExplore and C = PolyExploreC (Options.C's value when 0), on the
// 0..1 value scale as UCT's term is; e = 1 gives C·N^(1/4)/√n. Bonuses
// that grow polynomially in the parent's visits and shrink as 1/√n are
// what the convergence analyses of MCTS by polynomial concentration use
// (Shah, Xie and Xu's fixed-depth MCTS, and the power-mean backup of
// Power-UCT: Dam, Klink, D'Eramo, Peters and Pajarinen, "Generalized Mean
// Estimation in Monte-Carlo Tree Search", IJCAI 2020, and its stochastic
// sequel); e and C are parameters because which exponent a given
// statement of that analysis fixes, and with what constant, is not
// settled here.
//
// e is refused outside (0, 2): at e ≥ 2 the bonus of a move that takes a
// fixed share of the visits, C·N^(e/4)/√(share·N), no longer shrinks as N
// grows, so selection never settles on the best move.
//
// The term changes only which move selection tries; every backup (the
// plain mean, the power mean, solved values) is the same as with UCT's
// term, so at PowerMean 1 the search is the polynomial term with plain
// backups, bit for bit.

// polyOn reports whether selection uses the polynomial term.
func (o Options) polyOn() bool { return o.PolyExplore > 0 }

// polyC is the polynomial term's constant.
func (o Options) polyC() float64 {
	if o.PolyExploreC == 0 {
		return o.c()
	}
	return o.PolyExploreC
}

// checkExplore returns an error when the exploration settings cannot be
// used: e outside (0, 2) or not finite, a constant that is negative or not
// finite, or a constant given without the term.
func (o Options) checkExplore() error {
	e, c := o.PolyExplore, o.PolyExploreC
	if e != 0 && !(e > 0 && e < 2) {
		return fmt.Errorf("mcts: PolyExplore %g: the exponent e of C·N^(e/4)/√n must be 0 (off) or in (0, 2)", e)
	}
	if c != 0 && !(c > 0 && !math.IsInf(c, 1)) {
		return fmt.Errorf("mcts: PolyExploreC %g: the constant must be 0 (Options.C's value) or a finite number above 0", c)
	}
	if c != 0 && e == 0 {
		return fmt.Errorf("mcts: PolyExploreC %g is set but PolyExplore is 0 (the term is off)", c)
	}
	return nil
}

// polyScale is C·N^(e/4) for a node visited n times: the part of the term
// shared by all of a node's moves.
func (o Options) polyScale(visits int64) float64 {
	return o.polyC() * math.Pow(float64(visits), o.PolyExplore/4)
}

// polyBonus is the polynomial term of a move visited n times, given its
// node's polyScale.
func polyBonus(scale, n float64) float64 { return scale / math.Sqrt(n) }
