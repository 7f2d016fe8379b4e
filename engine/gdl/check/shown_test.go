package check

import (
	"strings"
	"testing"

	"gdlab/engine/gdl"
)

// TestShown checks that shown prints exactly what String prints, cut at
// maxShown bytes.
func TestShown(t *testing.T) {
	long := "(p" + strings.Repeat(" (f ?x a)", 30) + ")"
	for _, src := range []string{
		"(<= h (p ?x (f a (g ?y))) (not (q ?x)) (distinct ?x (f ?y)) (or (r ?x) (not (s ?y))) t)",
		"(<= h " + long + " (or " + long + "))",
	} {
		d, err := gdl.Parse("s.kif", []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range d.Rules[0].Body {
			want := l.String()
			if len(want) > maxShown {
				want = want[:maxShown] + "..."
			}
			if got := shown(l); got != want {
				t.Errorf("shown(%s) = %q, want %q", l, got, want)
			}
		}
	}
}
