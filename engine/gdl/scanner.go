package gdl

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
// while every other symbol keeps its spelling (GDL is case-sensitive). Each
// maps to itself, so that normalise returns the map's string and allocates
// nothing.
var keywords = map[string]string{
	"init": "init", "true": "true", "next": "next", "role": "role", "does": "does",
	"goal": "goal", "legal": "legal", "terminal": "terminal", "base": "base", "input": "input",
	"random": "random", "distinct": "distinct", "not": "not", "or": "or",
}

// maxKeywordLen is the length of the longest keyword, "terminal" and "distinct".
const maxKeywordLen = 8

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
			// A comment ends at any line break: old Mac rulesheets end
			// lines with a lone CR, and ggp-base splits lines on both.
			for s.off < len(s.src) && s.src[s.off] != '\n' && s.src[s.off] != '\r' {
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

// normalise returns the keyword that sym spells in some letter case, or sym
// itself. Only ASCII letters are folded. ggp-base lowers with Java's
// toLowerCase, under which no other letter becomes a letter of a keyword;
// Unicode folding would not do: strings.ToLower maps 'İ' (U+0130) to 'i', and
// would read the constant "İnit" as the keyword init.
func normalise(sym string) string {
	if len(sym) > maxKeywordLen {
		return sym
	}
	var buf [maxKeywordLen]byte
	for i := 0; i < len(sym); i++ {
		c := sym[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	if kw, ok := keywords[string(buf[:len(sym)])]; ok {
		return kw
	}
	return sym
}
