package session

import (
	"slices"
	"strings"
	"testing"
)

func TestComplete(t *testing.T) {
	s, _ := newSession(t)
	eval(t, s, "import \"strings\"\ntype point struct{ X, Y int }\nmyVariable := 1\npt := point{1, 2}")
	cases := []struct {
		code       string
		want       string
		start, end int
	}{
		{"strings.Rep", "Repeat", 8, 11},
		{"myVa", "myVariable", 0, 4},
		{"x := stri", "strings", 5, 9},
		{"pt.", "X", 3, 3},
		{"fun", "func", 0, 3},
		{"é := myVa", "myVariable", 5, 9}, // offsets count runes, not bytes
	}
	for _, c := range cases {
		got := s.Complete(c.code, len([]rune(c.code)))
		if !slices.Contains(got.Matches, c.want) || got.Start != c.start || got.End != c.end {
			t.Errorf("Complete(%q) = %+v, want %q in [%d,%d)", c.code, got, c.want, c.start, c.end)
		}
	}
	if got := s.Complete("strings.Rep", 11); slices.Contains(got.Matches, "Split") {
		t.Errorf("prefix not applied: %v", got.Matches)
	}
}

func TestInspect(t *testing.T) {
	s, _ := newSession(t)
	eval(t, s, "import \"strings\"\nanswer := 42")
	cases := []struct{ code, want string }{
		{"strings.Repeat", "func strings.Repeat: func(string, int) string"},
		{"answer", "answer int = 42"},
		{"strings", `package strings // import "strings"`},
	}
	for _, c := range cases {
		got, found := s.Inspect(c.code, len(c.code))
		if !found || got != c.want {
			t.Errorf("Inspect(%q) = %q, %v; want %q", c.code, got, found, c.want)
		}
	}
	if _, found := s.Inspect("nosuchname", 2); found {
		t.Error("found an undeclared name")
	}
}

func TestIsComplete(t *testing.T) {
	cases := map[string]string{
		"1+1":                          "complete",
		"x := 1\nfmt.Println(x)":       "complete",
		"func f() {\n\treturn\n}\nf()": "complete",
		"func f() {":                   "incomplete",
		"x := []int{1,\n":              "incomplete",
		"s := `raw\n":                  "incomplete",
		"}":                            "invalid",
		"x := := 2":                    "invalid",
	}
	for code, want := range cases {
		if got, indent := IsComplete(code); got != want {
			t.Errorf("IsComplete(%q) = %q, want %q", code, got, want)
		} else if want == "incomplete" && !strings.HasPrefix(indent, "\t") && code != "s := `raw\n" {
			t.Errorf("IsComplete(%q) indent %q", code, indent)
		}
	}
}

func TestInspectBeforeImport(t *testing.T) {
	s, _ := newSession(t)
	if got, found := s.Inspect("strings.Repeat", 14); !found || !strings.Contains(got, "func(string, int) string") {
		t.Errorf("Inspect before import = %q, %v", got, found)
	}
	if got, _ := s.Inspect("rand", 4); !strings.Contains(got, `"math/rand"`) {
		t.Errorf("rand resolves to %q, want math/rand", got)
	}
}
