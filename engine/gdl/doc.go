// Package gdl owns the syntax of the Game Description Language as written in
// KIF: source positions, the scanner, the parser, the abstract syntax tree,
// the canonical printer and the list of positioned errors. It is modelled on
// go/token, go/scanner and go/parser; the semantic checks (arity, safety,
// stratification, the recursion restriction, keywords, roles) are a separate
// pass, in package gdl/check.
//
// # Positions
//
// A Pos is a compact byte offset into one text. A File turns it into a
// Position, file:line:col with the column counted in bytes, only when a
// message needs one, so the AST carries an int per node rather than a
// struct.
//
// # Scanning
//
// The scanner splits a text into parentheses and symbols, skipping white
// space and `;` comments to the end of the line. Any byte that is not a
// parenthesis, white space or `;` belongs to a symbol, so rulesheets with
// Latin-1 comments or unusual symbol characters read as they do in ggp-base.
// Symbols are case-sensitive, except the words ggp-base lowers in any letter
// case: init, true, next, role, does, goal, legal, terminal, base, input,
// random, not, or and distinct. Only ASCII letters are folded.
//
// # Parsing
//
// Parse reads the whole text as s-expressions first and then builds the AST:
// a Description of Rules, each a head *Atom and a body of Literals (*Atom,
// *Not, *Or, *Distinct) over Terms (*Const, *Var, *Func). It does not stop at
// the first problem: it returns the rules it could read together with an
// ErrorList of every problem, sorted by position, whose Err method is nil
// when the list is empty.
//
// # Printing
//
// Term.String and Literal.String print exactly as the shared traces do, with
// constants bare and compound terms as `(f a b)`. Format prints a whole
// description canonically, one rule per top-level form; the canonical form
// parses back to itself.
//
// # Use
//
//	d, err := gdl.ParseFile("ticTacToe.kif")
//	var list gdl.ErrorList
//	if errors.As(err, &list) {
//		fmt.Print(list.Detail()) // one problem a line, as file:line:col: message
//	} else if err != nil {
//		return err // the file could not be read
//	}
//	for _, r := range d.Rules {
//		fmt.Println(d.Position(r.Pos()), r)
//	}
package gdl
