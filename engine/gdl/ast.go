package gdl

import "strings"

// Term is a GDL term: a constant, a variable or a function term. The set of
// implementations is closed: *Const, *Var and *Func.
type Term interface {
	Pos() Pos
	String() string // canonical KIF text, as the shared traces print it
	isTerm()
}

// Const is a constant symbol such as `x`, `1` or `cellHolds`. Symbols are
// case-sensitive; only GDL keywords are lowered by the scanner.
type Const struct {
	NamePos Pos
	Name    string
}

// Var is a variable such as `?x`; Name keeps the leading '?'.
type Var struct {
	NamePos Pos
	Name    string
}

// Func is a function term `(name arg...)`.
type Func struct {
	Lparen Pos
	Name   string
	Args   []Term
}

func (t *Const) Pos() Pos { return t.NamePos }
func (t *Var) Pos() Pos   { return t.NamePos }
func (t *Func) Pos() Pos  { return t.Lparen }

func (*Const) isTerm() {}
func (*Var) isTerm()   {}
func (*Func) isTerm()  {}

func (t *Const) String() string { return t.Name }
func (t *Var) String() string   { return t.Name }
func (t *Func) String() string  { return compoundString(t.Name, t.Args) }

// Literal is one conjunct of a rule body. The set of implementations is
// closed: *Atom, *Not, *Or and *Distinct.
type Literal interface {
	Pos() Pos
	String() string
	isLiteral()
}

// Atom is a relational sentence: a relation name applied to terms, such as
// `(true (cell 1 1 b))` or the 0-ary `terminal`. Atoms are rule heads and
// positive body literals.
type Atom struct {
	NamePos Pos // position of the opening parenthesis, or of the name when 0-ary
	Name    string
	Args    []Term
	// Parens is set on a 0-ary atom written in parentheses, as in
	// (terminal). gdlab reads it as terminal; ggp-base reads it as a
	// different relation, which package compat notes.
	Parens bool
}

// Not is a negated literal `(not L)`.
type Not struct {
	Lparen Pos
	Arg    Literal
}

// Or is a disjunction `(or L...)`.
type Or struct {
	Lparen Pos
	Args   []Literal
}

// Distinct is the inequality `(distinct A B)`.
type Distinct struct {
	Lparen Pos
	A, B   Term
}

func (l *Atom) Pos() Pos     { return l.NamePos }
func (l *Not) Pos() Pos      { return l.Lparen }
func (l *Or) Pos() Pos       { return l.Lparen }
func (l *Distinct) Pos() Pos { return l.Lparen }

func (*Atom) isLiteral()     {}
func (*Not) isLiteral()      {}
func (*Or) isLiteral()       {}
func (*Distinct) isLiteral() {}

func (l *Atom) String() string {
	if len(l.Args) == 0 {
		return l.Name
	}
	return compoundString(l.Name, l.Args)
}
func (l *Not) String() string { return "(not " + l.Arg.String() + ")" }
func (l *Or) String() string {
	var b strings.Builder
	b.WriteString("(or")
	for _, a := range l.Args {
		b.WriteByte(' ')
		b.WriteString(a.String())
	}
	b.WriteByte(')')
	return b.String()
}
func (l *Distinct) String() string { return "(distinct " + l.A.String() + " " + l.B.String() + ")" }

// Arity returns the number of arguments of the atom.
func (l *Atom) Arity() int { return len(l.Args) }

// Term returns the atom viewed as a term: a Const when 0-ary, a Func otherwise.
// The shared traces print state facts and moves this way.
func (l *Atom) Term() Term {
	if len(l.Args) == 0 {
		return &Const{NamePos: l.NamePos, Name: l.Name}
	}
	return &Func{Lparen: l.NamePos, Name: l.Name, Args: l.Args}
}

// Rule is `(<= Head Body...)`; a fact is a rule with an empty body.
type Rule struct {
	Lparen Pos
	Head   *Atom
	Body   []Literal
}

// Pos returns the position of the rule's opening parenthesis (or of its head
// when the rule is a bare fact).
func (r *Rule) Pos() Pos { return r.Lparen }

// String prints the rule canonically on one line.
func (r *Rule) String() string {
	if len(r.Body) == 0 {
		return r.Head.String()
	}
	var b strings.Builder
	b.WriteString("(<= ")
	b.WriteString(r.Head.String())
	for _, l := range r.Body {
		b.WriteByte(' ')
		b.WriteString(l.String())
	}
	b.WriteByte(')')
	return b.String()
}

// Description is a parsed GDL game description: its rules in source order.
type Description struct {
	File  *File
	Rules []*Rule
}

// Position expands a Pos of this description into file:line:col.
func (d *Description) Position(p Pos) Position { return d.File.Position(p) }

func compoundString(name string, args []Term) string {
	var b strings.Builder
	b.WriteByte('(')
	b.WriteString(name)
	for _, a := range args {
		b.WriteByte(' ')
		b.WriteString(a.String())
	}
	b.WriteByte(')')
	return b.String()
}

// WalkVars calls fn for every variable in t, in order of appearance.
func WalkVars(t Term, fn func(*Var)) {
	switch t := t.(type) {
	case *Var:
		fn(t)
	case *Func:
		for _, a := range t.Args {
			WalkVars(a, fn)
		}
	}
}

// IsGround reports whether t contains no variable.
func IsGround(t Term) bool {
	ground := true
	WalkVars(t, func(*Var) { ground = false })
	return ground
}
