package logic

import (
	"slices"

	"gdlab/engine/gdl"
)

// Pattern is a compiled term of a rule: ground, a variable slot, or a
// function term with at least one variable inside.
type Pattern struct {
	Kind PatKind
	ID   Term      // PatGround
	Slot int       // PatVar: the variable's slot in its rule
	Sym  int32     // PatFunc: the function symbol
	Args []Pattern // PatFunc
}

// PatKind is the kind of a Pattern.
type PatKind uint8

// The kinds of patterns.
const (
	PatGround PatKind = iota // a ground term, interned
	PatVar                   // a variable
	PatFunc                  // a function term with a variable inside
)

// MarkSlots adds the variable slots of p to set.
func (p Pattern) MarkSlots(set map[int]bool) {
	switch p.Kind {
	case PatVar:
		set[p.Slot] = true
	case PatFunc:
		for _, a := range p.Args {
			a.MarkSlots(set)
		}
	}
}

// GroundUnder reports whether every variable of p is in bound.
func (p Pattern) GroundUnder(bound map[int]bool) bool {
	switch p.Kind {
	case PatVar:
		return bound[p.Slot]
	case PatFunc:
		for _, a := range p.Args {
			if !a.GroundUnder(bound) {
				return false
			}
		}
	}
	return true
}

// LitKind is the kind of a flattened body literal.
type LitKind uint8

// The kinds of literals. Compile makes the first four; a reasoner may turn
// positive literals into LitAsk.
const (
	LitPos      LitKind = iota // a positive atom
	LitNeg                     // a negated atom
	LitDistinct                // (distinct a b)
	LitEqual                   // (not (distinct a b))
	// LitAsk is a positive atom that is tested once its variables are bound,
	// or asked as a question, rather than enumerated: the prover's reading of
	// a relation it evaluates on demand.
	LitAsk
)

// Literal is a flattened body literal: no `or`, negation only of atoms.
type Literal struct {
	Kind    LitKind
	Rel     int       // LitPos, LitNeg, LitAsk: the relation's number
	Args    []Pattern // the atom's arguments; the two terms for LitDistinct, LitEqual
	Vars    []int     // the variable slots the literal mentions, in order of first mention
	ArgVars [][]int   // the slots each argument mentions
	Src     gdl.Literal
}

// Pos returns the position of the source literal, or gdl.NoPos for a
// literal a reasoner made.
func (l *Literal) Pos() gdl.Pos {
	if l.Src == nil {
		return gdl.NoPos
	}
	return l.Src.Pos()
}

// SetVars computes Vars and ArgVars from Args. Compile sets them; a reasoner
// that makes a literal calls it.
func (l *Literal) SetVars() {
	l.Vars, l.ArgVars = nil, make([][]int, len(l.Args))
	for i, a := range l.Args {
		l.ArgVars[i] = a.appendSlots(nil)
		for _, v := range l.ArgVars[i] {
			if !slices.Contains(l.Vars, v) {
				l.Vars = append(l.Vars, v)
			}
		}
	}
}

// appendSlots appends the variable slots of p that dst lacks, in order of
// first occurrence.
func (p Pattern) appendSlots(dst []int) []int {
	switch p.Kind {
	case PatVar:
		if !slices.Contains(dst, p.Slot) {
			dst = append(dst, p.Slot)
		}
	case PatFunc:
		for _, a := range p.Args {
			dst = a.appendSlots(dst)
		}
	}
	return dst
}

// Rule is one disjunct of a source rule, compiled for bottom-up evaluation:
// Head(Args) holds under any binding of its variable slots that satisfies
// every literal of Body.
type Rule struct {
	Head  int // the relation's number
	Args  []Pattern
	Body  []Literal
	Slots int // number of variable slots
	Src   *gdl.Rule
}
