package gdl

import (
	"fmt"
	"sort"
)

// Pos is a compact source position: a byte offset into a File plus one, so that
// the zero value NoPos means "no position". It is expanded into a Position only
// when a message needs one, as go/token does.
type Pos int

// NoPos is the zero Pos: no position is known.
const NoPos Pos = 0

// IsValid reports whether p is a real position.
func (p Pos) IsValid() bool { return p != NoPos }

// Position is a human-readable source position.
type Position struct {
	Filename string
	Offset   int // byte offset, starting at 0
	Line     int // line number, starting at 1
	Column   int // column number in bytes, starting at 1
}

// IsValid reports whether the position has a line number.
func (p Position) IsValid() bool { return p.Line > 0 }

// String formats the position as file:line:col, omitting what is unknown.
func (p Position) String() string {
	s := p.Filename
	if p.IsValid() {
		if s != "" {
			s += ":"
		}
		s += fmt.Sprintf("%d:%d", p.Line, p.Column)
	}
	if s == "" {
		s = "-"
	}
	return s
}

// File records the name and line starts of one source text so that a Pos can be
// turned into a Position.
type File struct {
	name  string
	size  int
	lines []int // offsets of the first byte of each line
}

// NewFile returns a File for src, computing its line table.
func NewFile(name string, src []byte) *File {
	f := &File{name: name, size: len(src), lines: []int{0}}
	for i, b := range src {
		// A line ends at LF, at CR LF, or at a lone CR (old Mac files).
		if b == '\n' || b == '\r' && (i+1 == len(src) || src[i+1] != '\n') {
			f.lines = append(f.lines, i+1)
		}
	}
	return f
}

// Name returns the file name given to NewFile.
func (f *File) Name() string { return f.name }

// Pos returns the Pos of a byte offset in the file.
func (f *File) Pos(offset int) Pos { return Pos(offset + 1) }

// Position expands p into a Position; an invalid p gives only the file name.
func (f *File) Position(p Pos) Position {
	if f == nil {
		return Position{}
	}
	if !p.IsValid() {
		return Position{Filename: f.name}
	}
	off := int(p) - 1
	i := sort.Search(len(f.lines), func(i int) bool { return f.lines[i] > off }) - 1
	if i < 0 {
		i = 0
	}
	return Position{Filename: f.name, Offset: off, Line: i + 1, Column: off - f.lines[i] + 1}
}
