package session

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"slices"
	"sort"
	"strings"
)

// A cell is the source of one notebook cell cut into the two parts yaegi can
// evaluate: top-level declarations (evaluated as a file, so they may refer to
// each other in any order) and statements (evaluated in order as the body of
// main, where yaegi makes `:=` variables global). yaegi chooses file or
// function mode from a chunk's first token, so a mixed cell fails unless it
// is split first.
type cell struct {
	decls string // declarations, other bytes blanked; "" when none
	stmts string // statements, other bytes blanked; "" when none
	types []string
	last  lastExpr
	names []string          // top-level names the cell declares, for completion
	pkgs  map[string]string // imported package name -> import path
	// imports lists every path the cell imports, blank (_) and dot
	// imports too, which pkgs keys by a name they share.
	imports []string
}

// importPaths lists the paths the cell imports, sorted, each once.
func (c cell) importPaths() []string {
	out := append([]string(nil), c.imports...)
	sort.Strings(out)
	return slices.Compact(out)
}

// lastExpr describes the cell's final statement when it is an expression,
// whose value the notebook shows as the execute_result.
type lastExpr struct {
	ok     bool
	callee string // source of the called function when it has no side effects, else ""
	start  int    // byte offsets of the expression within stmts
	end    int
}

// guardCall returns the statement inserted at the start of every
// interpreted function body. It recovers a panic so that one raised on a
// goroutine that yaegi does not supervise (a native worker calling an
// interpreted callback, or a `go` statement) cannot kill the kernel; see
// guard.go. Its argument identifies the function for tracebacks: an int,
// because a string argument makes every call three times slower in yaegi.
// It is written on the same line as the brace so that lines stay true.
func guardCall(id int) string {
	return fmt.Sprintf("defer %s(%d);", guardFunc, id)
}

// A framer registers a guarded function, named and starting on a cell
// line, and returns the id its guard passes.
type framer func(name string, line int) int

// chunkPrefix is added before each chunk so that yaegi's own wrapping
// ("package main;" or "package main; func main() {") sits alone on line 1
// and the cell's line n is the chunk's line n+1; relocate undoes the shift.
const chunkPrefix = "\n"

// split cuts src into declarations and statements and inserts guards.
// It drops the imports for which imported (which may be nil) returns true:
// yaegi rejects a second import of a package, and notebook cells are
// re-run all the time. It never fails: source that does not parse is
// passed on for yaegi to report with its own positioned message.
func split(src string, imported func(name, path string) bool, frame framer) cell {
	if frame == nil {
		frame = func(string, int) int { return 0 }
	}
	declMask, stmtMask := classify(src)
	var c cell
	c.pkgs = map[string]string{}
	if d := keep(src, declMask); strings.TrimSpace(d) != "" {
		c.decls = guardDecls(d, &c, imported, frame)
	}
	if s := keep(src, stmtMask); strings.TrimSpace(s) != "" {
		c.stmts = guardStmts(s, &c, frame)
	}
	return c
}

// item is one top-level declaration or statement: bytes [start, end).
type item struct {
	start, end int
	decl       bool
}

// classify returns, for each byte of src, whether it belongs to a top-level
// declaration and whether it belongs to a statement.
func classify(src string) (decl, stmt []bool) {
	decl, stmt = make([]bool, len(src)), make([]bool, len(src))
	for _, it := range items(src) {
		mask := stmt
		if it.decl {
			mask = decl
		}
		for i := it.start; i < it.end && i < len(src); i++ {
			mask[i] = true
		}
	}
	return decl, stmt
}

type tok struct {
	pos int
	tok token.Token
}

// items scans src and cuts it at every semicolon (written or implied by a
// newline) outside brackets, except those in the header of a for, if or
// switch statement, which end at its opening brace.
func items(src string) []item {
	toks := scan(src)
	var out []item
	depth, start, header := 0, -1, false
	for i, t := range toks {
		if start < 0 {
			if t.tok == token.SEMICOLON {
				continue
			}
			start = i
		}
		switch t.tok {
		case token.FOR, token.IF, token.SWITCH:
			header = header || depth == 0
		case token.LPAREN, token.LBRACK, token.LBRACE:
			if t.tok == token.LBRACE && depth == 0 {
				header = false
			}
			depth++
		case token.RPAREN, token.RBRACK, token.RBRACE:
			depth--
		}
		if (t.tok == token.SEMICOLON && depth <= 0 && !header) || i == len(toks)-1 {
			end := t.pos
			if t.tok != token.SEMICOLON || i == len(toks)-1 {
				end = len(src)
			}
			out = append(out, item{toks[start].pos, end, isDecl(toks[start : i+1])})
			start = -1
		}
	}
	return out
}

func scan(src string) []tok {
	var s scanner.Scanner
	fset := token.NewFileSet()
	s.Init(fset.AddFile("", -1, len(src)), []byte(src), nil, 0)
	var toks []tok
	for {
		pos, t, _ := s.Scan()
		if t == token.EOF {
			return toks
		}
		toks = append(toks, tok{fset.Position(pos).Offset, t})
	}
}

// isDecl reports whether a top-level item starting with ts is a declaration.
// A func keyword starts one when followed by a name, or by a receiver and
// then a name and parameters; otherwise it is a function literal in a
// statement such as func() { ... }().
func isDecl(ts []tok) bool {
	switch ts[0].tok {
	case token.IMPORT, token.TYPE, token.VAR, token.CONST, token.PACKAGE:
		return true
	case token.FUNC:
		if len(ts) > 1 && ts[1].tok == token.IDENT {
			return true
		}
		r := closing(ts, 1)
		return r > 0 && r+2 < len(ts) && ts[r+1].tok == token.IDENT && ts[r+2].tok == token.LPAREN
	}
	return false
}

// closing returns the index of the bracket closing the one at ts[i], or -1.
func closing(ts []tok, i int) int {
	if i >= len(ts) || ts[i].tok != token.LPAREN {
		return -1
	}
	depth := 0
	for j := i; j < len(ts); j++ {
		switch ts[j].tok {
		case token.LPAREN:
			depth++
		case token.RPAREN:
			if depth--; depth == 0 {
				return j
			}
		}
	}
	return -1
}

// keep returns src with every byte outside mask blanked, newlines kept, so
// each part keeps the cell's line numbers.
func keep(src string, mask []bool) string {
	b := []byte(src)
	for i := range b {
		if !mask[i] && b[i] != '\n' {
			b[i] = ' '
		}
	}
	return string(b)
}

// guardDecls drops a package clause, inserts guards into the declared
// functions and records declared names, types and imports in c.
func guardDecls(src string, c *cell, imported func(name, path string) bool, frame framer) string {
	const head = "package main;"
	if strings.HasPrefix(strings.TrimSpace(src), "package") {
		// A cell may start with its own package clause; ours replaces it.
		src = blankPackageClause(src)
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", head+src, parser.SkipObjectResolution)
	if err != nil {
		return chunkPrefix + src
	}
	for _, d := range f.Decls {
		record(d, c)
	}
	if imported != nil {
		src = dropImports(src, f, len(head), imported)
	}
	return chunkPrefix + insertGuards(src, bodies(f, fset, len(head), frame))
}

// dropImports blanks the import specs for which imported returns true, or
// the whole declaration when they all are, keeping every offset.
func dropImports(src string, f *ast.File, head int, imported func(name, path string) bool) string {
	b := []byte(src)
	blank := func(from, to token.Pos) {
		for i := int(from) - 1 - head; i < int(to)-1-head; i++ {
			if b[i] != '\n' {
				b[i] = ' '
			}
		}
	}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.IMPORT {
			continue
		}
		var known []ast.Spec
		for _, s := range g.Specs {
			if name, path := importName(s.(*ast.ImportSpec)); imported(name, path) {
				known = append(known, s)
			}
		}
		switch {
		case len(known) == len(g.Specs):
			blank(g.Pos(), g.End())
		case g.Lparen.IsValid():
			for _, s := range known {
				blank(s.Pos(), s.End())
			}
		}
	}
	return string(b)
}

// importName returns the name an import binds and its path.
func importName(s *ast.ImportSpec) (name, path string) {
	path = strings.Trim(s.Path.Value, "`\"")
	name = path[strings.LastIndex(path, "/")+1:]
	if s.Name != nil {
		name = s.Name.Name
	}
	return name, path
}

// record notes the names a top-level declaration introduces.
func record(d ast.Node, c *cell) {
	switch d := d.(type) {
	case *ast.FuncDecl:
		if d.Recv == nil {
			c.names = append(c.names, d.Name.Name)
		}
	case *ast.GenDecl:
		for _, s := range d.Specs {
			switch s := s.(type) {
			case *ast.TypeSpec:
				c.types = append(c.types, s.Name.Name)
				c.names = append(c.names, s.Name.Name)
			case *ast.ValueSpec:
				for _, n := range s.Names {
					c.names = append(c.names, n.Name)
				}
			case *ast.ImportSpec:
				name, path := importName(s)
				c.pkgs[name] = path
				c.imports = append(c.imports, path)
			}
		}
	case *ast.DeclStmt:
		record(d.Decl, c)
	case *ast.AssignStmt:
		if d.Tok == token.DEFINE {
			for _, x := range d.Lhs {
				if id, ok := x.(*ast.Ident); ok {
					c.names = append(c.names, id.Name)
				}
			}
		}
	}
}

func blankPackageClause(src string) string {
	i := strings.Index(src, "package")
	j := i + len("package")
	for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
		j++
	}
	for j < len(src) && src[j] != '\n' && src[j] != ';' && src[j] != ' ' {
		j++
	}
	return src[:i] + strings.Repeat(" ", j-i) + src[j:]
}

// guardStmts inserts guards into function literals, records the variables
// the statements define and describes the last statement when it is an
// expression.
func guardStmts(src string, c *cell, frame framer) string {
	const head = "package main; func main() {"
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "", head+src+"\n}", parser.SkipObjectResolution)
	if err != nil {
		return chunkPrefix + src
	}
	body := f.Decls[0].(*ast.FuncDecl).Body.List
	for _, st := range body {
		record(st, c)
	}
	var last lastExpr
	if n := len(body); n > 0 {
		if e, ok := body[n-1].(*ast.ExprStmt); ok {
			last = describe(e.X, src, len(head))
		}
	}
	bs := bodies(f, fset, len(head), frame)
	out := insertGuards(src, bs)
	// Guards inserted before the last expression move it.
	for _, b := range bs {
		n := len(guardCall(b.id))
		if b.at < last.start {
			last.start += n
			last.end += n
		} else if b.at < last.end {
			last.end += n
		}
	}
	last.start += len(chunkPrefix)
	last.end += len(chunkPrefix)
	c.last = last
	return chunkPrefix + out
}

// describe records where the last expression is and, when it is a call of a
// plain or qualified name, that name: evaluating it has no side effects and
// tells how many results the call has.
func describe(x ast.Expr, src string, head int) lastExpr {
	last := lastExpr{ok: true, start: int(x.Pos()) - 1 - head, end: int(x.End()) - 1 - head}
	call, ok := x.(*ast.CallExpr)
	if !ok {
		return last
	}
	if isName(call.Fun) {
		last.callee = src[int(call.Fun.Pos())-1-head : int(call.Fun.End())-1-head]
	} else {
		last.callee = "?"
	}
	return last
}

func isName(x ast.Expr) bool {
	switch x := x.(type) {
	case *ast.Ident:
		return true
	case *ast.SelectorExpr:
		return isName(x.X)
	case *ast.ParenExpr:
		return isName(x.X)
	}
	return false
}

// body is a function body to guard.
type body struct {
	at int // offset of its opening brace, in the source after the head
	id int // its guard's id, from the framer
}

// bodies returns every function body in f, in source order, registered
// with frame; offsets are in the source after a head of the given length.
func bodies(f *ast.File, fset *token.FileSet, head int, frame framer) []body {
	var out []body
	add := func(lbrace token.Pos, name string) {
		at := int(lbrace) - 1 - head
		if at < 0 {
			return // the wrapper's own body
		}
		// The head shares line 1 with the chunk's first line, so file
		// lines are cell lines.
		out = append(out, body{at, frame(name, fset.Position(lbrace).Line)})
	}
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncDecl:
			if n.Body != nil {
				add(n.Body.Lbrace, funcName(n))
			}
		case *ast.FuncLit:
			add(n.Body.Lbrace, "func literal")
		}
		return true
	})
	sort.Slice(out, func(i, j int) bool { return out[i].at < out[j].at })
	return out
}

func funcName(d *ast.FuncDecl) string {
	if d.Recv == nil || len(d.Recv.List) == 0 {
		return d.Name.Name
	}
	t := d.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	if id, ok := t.(*ast.Ident); ok {
		return id.Name + "." + d.Name.Name
	}
	return d.Name.Name
}

// insertGuards writes a guard after each body's brace in src.
func insertGuards(src string, bs []body) string {
	var b strings.Builder
	prev := 0
	for _, x := range bs {
		b.WriteString(src[prev : x.at+1])
		b.WriteString(guardCall(x.id))
		prev = x.at + 1
	}
	b.WriteString(src[prev:])
	return b.String()
}
