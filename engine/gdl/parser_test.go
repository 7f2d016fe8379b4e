package gdl

import (
	"fmt"
	"strings"
	"testing"
)

// TestParseDepth checks the bound on nesting: maxDepth levels parse, one
// more is a single error at the parenthesis that goes too deep, not a stack
// overflow.
func TestParseDepth(t *testing.T) {
	deep := func(n int) string {
		return "(p " + strings.Repeat("(f ", n-1) + "a" + strings.Repeat(")", n)
	}
	if _, err := Parse("deep.kif", []byte(deep(maxDepth))); err != nil {
		t.Fatalf("%d levels: %v", maxDepth, err)
	}
	_, err := Parse("deep.kif", []byte(deep(maxDepth+1)))
	list, ok := err.(ErrorList)
	if !ok || len(list) != 1 {
		t.Fatalf("%d levels: got %v, want one error", maxDepth+1, err)
	}
	wantCol := 1 + 3 + 3*(maxDepth-1) // the '(' of the last "(f "
	if want := fmt.Sprintf("deep.kif:1:%d: parentheses nested deeper than %d", wantCol, maxDepth); list[0].Error() != want {
		t.Errorf("got %q, want %q", list[0].Error(), want)
	}
}

// TestParseTermErrors covers ParseTerm's own errors: anything but exactly
// one well-formed term.
func TestParseTermErrors(t *testing.T) {
	tests := []struct{ text, want string }{
		{"", "1:1: expected one term, found 0"},
		{"; only a comment", "1:1: expected one term, found 0"},
		{"a b", "1:1: expected one term, found 2"},
		{"(mark 1", "1:1: unclosed '('"},
		{"(mark 1))", "1:9: unexpected ')'"},
		{"?", "1:1: variable has no name after '?'"},
		{"(?f a)", "1:2: variable ?f cannot be used as a function name"},
		{"(not a)", "1:2: 'not' is a connective, not a relation"},
		{"()", "1:1: empty list is not a term"},
		{"<=", "1:1: '<=' may only open a rule at the top level"},
	}
	for _, tt := range tests {
		if _, err := ParseTerm(tt.text); err == nil || err.Error() != tt.want {
			t.Errorf("ParseTerm(%q): got %v, want %s", tt.text, err, tt.want)
		}
	}
}
