package gdl

import "strings"

// token kinds produced by the scanner.
type token int

const (
	tokEOF token = iota
	tokLparen
	tokRparen
	tokSymbol // a constant, a variable (?x), `<=`, or a keyword
)

// keywords are the words ggp-base recognises in any letter case; they are
// normalised to lower case so that `(TRUE p)` and `(true p)` mean the same,
// while every other symbol keeps its spelling (GDL is case-sensitive).
var keywords = map[string]bool{
	"init": true, "true": true, "next": true, "role": true, "does": true,
	"goal": true, "legal": true, "terminal": true, "base": true, "input": true,
	"random": true, "distinct": true, "not": true, "or": true,
}

// scanner splits KIF text into parentheses and symbols, skipping white space
// and `;` comments. It accepts any bytes (some corpus comments are Latin-1).
type scanner struct {
	src []byte
	off int
}

// next returns the next token, its offset and, for a symbol, its text.
func (s *scanner) next() (token, int, string) {
	s.skipSpaceAndComments()
	if s.off >= len(s.src) {
		return tokEOF, len(s.src), ""
	}
	start := s.off
	switch s.src[s.off] {
	case '(':
		s.off++
		return tokLparen, start, ""
	case ')':
		s.off++
		return tokRparen, start, ""
	}
	for s.off < len(s.src) && !isDelimiter(s.src[s.off]) {
		s.off++
	}
	return tokSymbol, start, normalise(string(s.src[start:s.off]))
}

func (s *scanner) skipSpaceAndComments() {
	for s.off < len(s.src) {
		c := s.src[s.off]
		switch {
		case c == ';':
			for s.off < len(s.src) && s.src[s.off] != '\n' {
				s.off++
			}
		case isSpace(c):
			s.off++
		default:
			return
		}
	}
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v' || c == 0
}

func isDelimiter(c byte) bool { return isSpace(c) || c == '(' || c == ')' || c == ';' }

func normalise(sym string) string {
	if lower := strings.ToLower(sym); keywords[lower] {
		return lower
	}
	return sym
}
