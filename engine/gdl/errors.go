package gdl

import (
	"fmt"
	"sort"
	"strings"
)

// Error is one problem found in a GDL text, at a position.
type Error struct {
	Pos Position
	Msg string
}

// Error formats the error as "file:line:col: message".
func (e *Error) Error() string {
	if e.Pos.Filename != "" || e.Pos.IsValid() {
		return e.Pos.String() + ": " + e.Msg
	}
	return e.Msg
}

// ErrorList collects every problem of a text, in the manner of go/scanner.ErrorList.
// The zero value is an empty list ready to use.
type ErrorList []*Error

// Add appends an error at pos.
func (l *ErrorList) Add(pos Position, format string, args ...any) {
	*l = append(*l, &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

// Len, Swap and Less sort the list by file, line, column and message.
func (l ErrorList) Len() int      { return len(l) }
func (l ErrorList) Swap(i, j int) { l[i], l[j] = l[j], l[i] }
func (l ErrorList) Less(i, j int) bool {
	a, b := l[i].Pos, l[j].Pos
	if a.Filename != b.Filename {
		return a.Filename < b.Filename
	}
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	if a.Column != b.Column {
		return a.Column < b.Column
	}
	return l[i].Msg < l[j].Msg
}

// Sort orders the list by position.
func (l ErrorList) Sort() { sort.Stable(l) }

// Error summarises the list: the first error, and how many more there are.
func (l ErrorList) Error() string {
	switch len(l) {
	case 0:
		return "no errors"
	case 1:
		return l[0].Error()
	}
	return fmt.Sprintf("%s (and %d more errors)", l[0], len(l)-1)
}

// Err returns nil for an empty list and the list itself otherwise, so that a
// caller can write `return list.Err()`.
func (l ErrorList) Err() error {
	if len(l) == 0 {
		return nil
	}
	return l
}

// Detail prints every error on its own line.
func (l ErrorList) Detail() string {
	var b strings.Builder
	for _, e := range l {
		b.WriteString(e.Error())
		b.WriteByte('\n')
	}
	return b.String()
}
