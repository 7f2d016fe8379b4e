package gdl

import (
	"fmt"
	"os"
	"strings"
)

// maxDepth bounds the nesting of parentheses so that hostile input cannot
// exhaust the stack; no real game nests deeper than a few dozen levels.
const maxDepth = 5000

// sexp is the parser's first layer: a symbol or a parenthesised list.
type sexp struct {
	off    int
	sym    string
	list   []*sexp
	isList bool
}

// parser turns KIF text into s-expressions and then into the GDL AST,
// collecting every problem it finds rather than stopping at the first.
type parser struct {
	file *File
	sc   scanner
	errs ErrorList
}

// ParseFile reads and parses a GDL file.
func ParseFile(path string) (*Description, error) {
	src, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return Parse(path, src)
}

// Parse parses src, a KIF game description, into a Description. On error it
// returns the rules it could read whole, leaving out every rule with a
// problem, together with an ErrorList of every problem, each positioned as
// filename:line:col.
func Parse(filename string, src []byte) (*Description, error) {
	p := &parser{file: NewFile(filename, src), sc: scanner{src: src}}
	d := &Description{File: p.file}
	for _, e := range p.readAll() {
		if r := p.rule(e); r != nil {
			d.Rules = append(d.Rules, r)
		}
	}
	p.errs.Sort()
	return d, p.errs.Err()
}

// ParseTerm parses a single ground or non-ground term, such as a move
// "(mark 1 3)" or a fact "(cell 1 1 b)". Keywords are normalised as in Parse.
func ParseTerm(text string) (Term, error) {
	p := &parser{file: NewFile("", []byte(text)), sc: scanner{src: []byte(text)}}
	es := p.readAll()
	if len(p.errs) == 0 && len(es) != 1 {
		p.errorf(0, "expected one term, found %d", len(es))
	}
	if len(p.errs) > 0 {
		return nil, p.errs.Err()
	}
	t := p.term(es[0])
	return t, p.errs.Err()
}

func (p *parser) errorf(off int, format string, args ...any) {
	p.errs.Add(p.file.Position(p.file.Pos(off)), format, args...)
}

// readAll reads the top-level s-expressions of the whole text.
func (p *parser) readAll() []*sexp {
	var out []*sexp
	for {
		tok, off, sym := p.sc.next()
		switch tok {
		case tokEOF:
			return out
		case tokRparen:
			p.errorf(off, "unexpected ')'")
		case tokSymbol:
			out = append(out, &sexp{off: off, sym: sym})
		case tokLparen:
			if e := p.readList(off, 1); e != nil {
				out = append(out, e)
			}
		}
	}
}

// readList reads the rest of a list whose '(' is at off.
func (p *parser) readList(off, depth int) *sexp {
	if depth > maxDepth {
		p.errorf(off, "parentheses nested deeper than %d", maxDepth)
		p.sc.off = len(p.sc.src)
		return nil
	}
	e := &sexp{off: off, isList: true}
	for {
		tok, o, sym := p.sc.next()
		switch tok {
		case tokEOF:
			p.errorf(off, "unclosed '('")
			return nil
		case tokRparen:
			return e
		case tokSymbol:
			e.list = append(e.list, &sexp{off: o, sym: sym})
		case tokLparen:
			sub := p.readList(o, depth+1)
			if sub == nil {
				return nil
			}
			e.list = append(e.list, sub)
		}
	}
}

func (p *parser) pos(e *sexp) Pos { return p.file.Pos(e.off) }

// rule converts a top-level s-expression into a rule or a fact.
func (p *parser) rule(e *sexp) *Rule {
	if e.isList && len(e.list) > 0 && !e.list[0].isList && e.list[0].sym == "<=" {
		if len(e.list) < 2 {
			p.errorf(e.off, "rule has no head")
			return nil
		}
		head := p.atom(e.list[1], "rule head")
		ok := head != nil
		body := make([]Literal, 0, len(e.list)-2)
		for _, b := range e.list[2:] {
			if l := p.literal(b); l != nil {
				body = append(body, l)
			} else {
				ok = false
			}
		}
		// Every literal is read, to report every error, but a rule missing
		// one would say something else: (<= (p ?x) (?q ?x)) is not the
		// unsafe fact (p ?x). Only whole rules are returned.
		if !ok {
			return nil
		}
		return &Rule{Lparen: p.pos(e), Head: head, Body: body}
	}
	head := p.atom(e, "fact")
	if head == nil {
		return nil
	}
	return &Rule{Lparen: p.pos(e), Head: head}
}

// reserved names cannot name a relation or a function.
var reserved = map[string]string{
	"<=":       "'<=' may only open a rule at the top level",
	"not":      "'not' is a connective, not a relation",
	"or":       "'or' is a connective, not a relation",
	"distinct": "'distinct' is a built-in test, not a relation",
}

// atom converts e into a relational sentence; what names the context for messages.
func (p *parser) atom(e *sexp, what string) *Atom {
	if !e.isList {
		if !p.checkName(e, what) {
			return nil
		}
		return &Atom{NamePos: p.pos(e), Name: e.sym}
	}
	if len(e.list) == 0 {
		p.errorf(e.off, "empty list where a %s was expected", what)
		return nil
	}
	if e.list[0].isList {
		p.errorf(e.list[0].off, "a %s must start with a relation name, not a list", what)
		return nil
	}
	if !p.checkName(e.list[0], what) {
		return nil
	}
	args, ok := p.terms(e.list[1:])
	if !ok {
		return nil
	}
	return &Atom{NamePos: p.pos(e), Name: e.list[0].sym, Args: args, Parens: len(args) == 0}
}

// checkName reports whether a symbol may name a relation or function.
func (p *parser) checkName(e *sexp, what string) bool {
	if strings.HasPrefix(e.sym, "?") {
		p.errorf(e.off, "variable %s cannot be used as a %s name", e.sym, what)
		return false
	}
	if msg, ok := reserved[e.sym]; ok {
		p.errorf(e.off, "%s", msg)
		return false
	}
	return true
}

// literal converts e into a body literal.
func (p *parser) literal(e *sexp) Literal {
	if !e.isList || len(e.list) == 0 || e.list[0].isList {
		if a := p.atom(e, "literal"); a != nil {
			return a
		}
		return nil
	}
	args := e.list[1:]
	switch e.list[0].sym {
	case "not":
		if len(args) != 1 {
			p.errorf(e.off, "'not' takes exactly one literal, found %d", len(args))
			return nil
		}
		if l := p.literal(args[0]); l != nil {
			return &Not{Lparen: p.pos(e), Arg: l}
		}
		return nil
	case "or":
		or := &Or{Lparen: p.pos(e)}
		for _, a := range args {
			l := p.literal(a)
			if l == nil {
				return nil
			}
			or.Args = append(or.Args, l)
		}
		return or
	case "distinct":
		if len(args) != 2 {
			p.errorf(e.off, "'distinct' takes exactly two terms, found %d", len(args))
			return nil
		}
		ts, ok := p.terms(args)
		if !ok {
			return nil
		}
		return &Distinct{Lparen: p.pos(e), A: ts[0], B: ts[1]}
	}
	if a := p.atom(e, "literal"); a != nil {
		return a
	}
	return nil
}

func (p *parser) terms(es []*sexp) ([]Term, bool) {
	ts := make([]Term, 0, len(es))
	ok := true
	for _, e := range es {
		t := p.term(e)
		if t == nil {
			ok = false
			continue
		}
		ts = append(ts, t)
	}
	return ts, ok
}

// term converts e into a term.
func (p *parser) term(e *sexp) Term {
	if !e.isList {
		if e.sym == "<=" {
			p.errorf(e.off, "%s", reserved["<="])
			return nil
		}
		if strings.HasPrefix(e.sym, "?") {
			if len(e.sym) == 1 {
				p.errorf(e.off, "variable has no name after '?'")
				return nil
			}
			return &Var{NamePos: p.pos(e), Name: e.sym}
		}
		return &Const{NamePos: p.pos(e), Name: e.sym}
	}
	if len(e.list) == 0 {
		p.errorf(e.off, "empty list is not a term")
		return nil
	}
	if e.list[0].isList {
		p.errorf(e.list[0].off, "a function term must start with a name, not a list")
		return nil
	}
	if !p.checkName(e.list[0], "function") {
		return nil
	}
	args, ok := p.terms(e.list[1:])
	if !ok {
		return nil
	}
	return &Func{Lparen: p.pos(e), Name: e.list[0].sym, Args: args}
}

// Format prints a description canonically: one rule per top-level form,
// bodies indented one literal per line, symbols exactly as parsed.
func Format(d *Description) string {
	var b strings.Builder
	for _, r := range d.Rules {
		if len(r.Body) == 0 {
			b.WriteString(r.Head.String())
			b.WriteByte('\n')
			continue
		}
		fmt.Fprintf(&b, "(<= %s", r.Head)
		for _, l := range r.Body {
			b.WriteString("\n    ")
			b.WriteString(l.String())
		}
		b.WriteString(")\n")
	}
	return b.String()
}
