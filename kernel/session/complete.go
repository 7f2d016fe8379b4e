package session

import (
	"fmt"
	"go/parser"
	"go/scanner"
	"go/token"
	"reflect"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Completion is the answer to a completion request: the candidates for the
// identifier around the cursor, which spans runes [Start, End) of the code.
type Completion struct {
	Matches    []string
	Start, End int
}

// Complete returns the completions at cursor, a position in runes as the
// Jupyter protocol counts it. After "pkg." it offers the package's exported
// names, after "value." the value's fields and methods, elsewhere the
// names cells have declared, imported packages, keywords and builtins.
func (s *Session) Complete(code string, cursor int) Completion {
	at := byteOffset(code, cursor)
	start := identStart(code, at)
	prefix := code[start:at]
	var cands []string
	if qual, ok := qualifier(code, start); ok {
		cands = s.members(qual)
	} else {
		cands = s.globalNames()
	}
	var out []string
	for _, c := range cands {
		if strings.HasPrefix(c, prefix) {
			out = append(out, c)
		}
	}
	sort.Strings(out)
	return Completion{Matches: dedup(out), Start: runeOffset(code, start), End: cursor}
}

// Inspect describes the identifier at cursor: its type, and its value for a
// variable. found is false when the name is unknown.
func (s *Session) Inspect(code string, cursor int) (text string, found bool) {
	at := byteOffset(code, cursor)
	start, end := identStart(code, at), identEnd(code, at)
	name := code[start:end]
	if name == "" {
		return "", false
	}
	if qual, ok := qualifier(code, start); ok {
		if path, ok := s.packagePath(qual); ok {
			if v, ok := s.packageSymbols(path)[name]; ok {
				return describeSymbol(qual+"."+name, v), true
			}
			return "", false
		}
		name = qual + "." + name
	} else if path, ok := s.packagePath(name); ok {
		return fmt.Sprintf("package %s // import %q", name, path), true
	}
	if !s.knows(name) {
		return "", false
	}
	v, err := s.interp.Eval(name)
	if err != nil || !v.IsValid() {
		return "", false
	}
	return describeValue(name, v), true
}

// knows reports whether name (or the variable before its first dot) was
// declared by a cell; inspecting anything else could run code.
func (s *Session) knows(name string) bool {
	base, _, _ := strings.Cut(name, ".")
	return s.names[base]
}

// IsComplete tells a console whether code can run as is ("complete"), needs
// more lines ("incomplete", with the indent for the next one) or can never
// run ("invalid").
func IsComplete(code string) (status, indent string) {
	depth, unterminated := bracketDepth(code)
	switch {
	case depth < 0:
		return "invalid", ""
	case depth > 0 || unterminated:
		return "incomplete", strings.Repeat("\t", depth)
	}
	c := split(code, nil, nil)
	for _, chunk := range []struct{ head, src string }{
		{"package main;", c.decls},
		{"package main; func main() {", c.stmts + "\n}"},
	} {
		if strings.TrimSpace(strings.TrimSuffix(chunk.src, "\n}")) == "" {
			continue
		}
		_, err := parser.ParseFile(token.NewFileSet(), "", chunk.head+chunk.src, 0)
		if err != nil {
			return "invalid", ""
		}
	}
	return "complete", ""
}

// bracketDepth returns how many brackets code leaves open, and whether it
// ends inside a raw string or a comment.
func bracketDepth(code string) (depth int, unterminated bool) {
	var s scanner.Scanner
	fset := token.NewFileSet()
	s.Init(fset.AddFile("", -1, len(code)), []byte(code), func(_ token.Position, msg string) {
		if strings.Contains(msg, "not terminated") {
			unterminated = true
		}
	}, 0)
	for {
		_, t, _ := s.Scan()
		switch t {
		case token.EOF:
			return depth, unterminated
		case token.LPAREN, token.LBRACK, token.LBRACE:
			depth++
		case token.RPAREN, token.RBRACK, token.RBRACE:
			depth--
		}
	}
}

var keywords = strings.Fields(`break case chan const continue default defer else
fallthrough for func go goto if import interface map package range return select
struct switch type var append cap clear close complex copy delete imag len make
max min new panic print println real recover any bool byte comparable complex64
complex128 error float32 float64 int int8 int16 int32 int64 rune string uint uint8
uint16 uint32 uint64 uintptr true false iota nil`)

func (s *Session) globalNames() []string {
	out := append([]string(nil), keywords...)
	for n := range s.names {
		out = append(out, n)
	}
	for n := range s.pkgs {
		out = append(out, n)
	}
	return out
}

// members lists what may follow "qual.": a package's exported names, or
// the fields and methods of a variable's value.
func (s *Session) members(qual string) []string {
	if path, ok := s.packagePath(qual); ok {
		var out []string
		for n := range s.packageSymbols(path) {
			out = append(out, n)
		}
		return out
	}
	if !s.knows(qual) {
		return nil
	}
	v, err := s.interp.Eval(qual)
	if err != nil || !v.IsValid() {
		return nil
	}
	return fieldsAndMethods(v)
}

// packagePath resolves a package name: imported by a cell, or else
// available to import.
func (s *Session) packagePath(name string) (string, bool) {
	if s.names[name] {
		return "", false // a variable shadows the package
	}
	if p, ok := s.pkgs[name]; ok {
		return p, true
	}
	p, ok := s.available[name]
	return p, ok
}

func (s *Session) packageSymbols(path string) map[string]reflect.Value {
	for _, syms := range s.interp.Symbols(path) {
		return syms
	}
	return nil
}

func fieldsAndMethods(v reflect.Value) []string {
	t := v.Type()
	var out []string
	for i := range t.NumMethod() {
		out = append(out, t.Method(i).Name)
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() == reflect.Struct {
		for i := range t.NumField() {
			if f := t.Field(i); f.IsExported() {
				out = append(out, f.Name)
			}
		}
	}
	return out
}

func describeSymbol(name string, v reflect.Value) string {
	if v.Kind() == reflect.Pointer && v.IsNil() {
		// yaegi exports a type as a nil pointer to it.
		return fmt.Sprintf("type %s %s", name, v.Type().Elem().Kind())
	}
	if v.Kind() == reflect.Func {
		return fmt.Sprintf("func %s: %s", name, v.Type())
	}
	return fmt.Sprintf("%s %s", name, v.Type())
}

func describeValue(name string, v reflect.Value) string {
	text := fmt.Sprintf("%v", v)
	if len(text) > 500 {
		text = text[:500] + "…"
	}
	return fmt.Sprintf("%s %s = %s", name, v.Type(), text)
}

// qualifier returns the identifier before a dot that precedes start.
func qualifier(code string, start int) (string, bool) {
	if start == 0 || code[start-1] != '.' {
		return "", false
	}
	q := identStart(code, start-1)
	return code[q : start-1], q < start-1
}

func identStart(code string, at int) int {
	for at > 0 {
		r, n := utf8.DecodeLastRuneInString(code[:at])
		if !isIdentRune(r) {
			break
		}
		at -= n
	}
	return at
}

func identEnd(code string, at int) int {
	for at < len(code) {
		r, n := utf8.DecodeRuneInString(code[at:])
		if !isIdentRune(r) {
			break
		}
		at += n
	}
	return at
}

func isIdentRune(r rune) bool { return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) }

// byteOffset converts a rune offset into a byte offset, clamped to code.
func byteOffset(code string, runes int) int {
	for i := range code {
		if runes == 0 {
			return i
		}
		runes--
	}
	return len(code)
}

func runeOffset(code string, bytes int) int { return utf8.RuneCountInString(code[:bytes]) }

func dedup(sorted []string) []string {
	out := sorted[:0]
	for i, s := range sorted {
		if i == 0 || s != sorted[i-1] {
			out = append(out, s)
		}
	}
	return out
}
