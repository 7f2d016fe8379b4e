package ggp

import "fmt"

// sexp is one s-expression of a message: a symbol or a list, with the
// byte span it covers, so a part (the rules) can be handed on as text.
type sexp struct {
	atom       string // the symbol; "" for a list
	list       []*sexp
	start, end int // text[start:end] is the expression
}

func (e *sexp) isAtom() bool { return e.atom != "" }

func (e *sexp) raw(text string) string { return text[e.start:e.end] }

// maxDepth bounds nesting, so that a hostile message cannot exhaust the
// stack.
const maxDepth = 1000

// readSexp reads exactly one s-expression from text. KIF comments (from ;
// to the end of the line) are skipped.
func readSexp(text string) (*sexp, error) {
	r := &reader{text: text}
	r.skip()
	if r.pos >= len(text) {
		return nil, fmt.Errorf("ggp: empty message")
	}
	e, err := r.read(0)
	if err != nil {
		return nil, err
	}
	r.skip()
	if r.pos < len(text) {
		return nil, fmt.Errorf("ggp: text after the message at byte %d", r.pos)
	}
	return e, nil
}

type reader struct {
	text string
	pos  int
}

// skip passes white space and comments.
func (r *reader) skip() {
	for r.pos < len(r.text) {
		switch c := r.text[r.pos]; {
		case c == ';':
			for r.pos < len(r.text) && r.text[r.pos] != '\n' {
				r.pos++
			}
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f':
			r.pos++
		default:
			return
		}
	}
}

func (r *reader) read(depth int) (*sexp, error) {
	if depth > maxDepth {
		return nil, fmt.Errorf("ggp: lists nested deeper than %d at byte %d", maxDepth, r.pos)
	}
	start := r.pos
	switch r.text[r.pos] {
	case ')':
		return nil, fmt.Errorf("ggp: unexpected ) at byte %d", r.pos)
	case '(':
		r.pos++
		e := &sexp{start: start}
		for {
			r.skip()
			if r.pos >= len(r.text) {
				return nil, fmt.Errorf("ggp: the list opened at byte %d is not closed", start)
			}
			if r.text[r.pos] == ')' {
				r.pos++
				e.end = r.pos
				return e, nil
			}
			sub, err := r.read(depth + 1)
			if err != nil {
				return nil, err
			}
			e.list = append(e.list, sub)
		}
	}
	for r.pos < len(r.text) {
		c := r.text[r.pos]
		if c == '(' || c == ')' || c == ';' || c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' {
			break
		}
		r.pos++
	}
	return &sexp{atom: r.text[start:r.pos], start: start, end: r.pos}, nil
}
