package check_test

import (
	"fmt"
	"strings"
	"testing"

	"gdlab/engine/gdl"
	"gdlab/engine/gdl/check"
)

// TestHostileInput checks that texts built to provoke long cycles, many
// errors in one long literal, deep terms and long names give an error list
// whose size stays linear in the size of the text.
func TestHostileInput(t *testing.T) {
	var b strings.Builder
	const n = 5000
	for i := range n {
		fmt.Fprintf(&b, "(<= r%d (not r%d))\n", i, i+1)
	}
	fmt.Fprintf(&b, "(<= r%d r0)\n", n)
	negCycle := b.String()

	b.Reset()
	b.WriteString("(<= (h ?x0) (p ?x0) (not (p")
	for i := range n {
		fmt.Fprintf(&b, " ?x%d", i)
	}
	b.WriteString(")))")
	manyVars := b.String()

	deep := strings.Repeat("(f ", 4000) + "?x" + strings.Repeat(")", 4000)
	deepTerm := "(<= (q ?x) (q (g ?x)) (e " + deep + "))" + "(<= (q ?x) (e ?x))"

	long := strings.Repeat("n", 50000)
	b.Reset()
	b.WriteString("(<= (" + long)
	for i := range n {
		fmt.Fprintf(&b, " ?v%d", i)
	}
	b.WriteString(") (p 1))")
	longName := b.String()

	for name, src := range map[string]string{
		"negative cycle": negCycle, "many variables": manyVars,
		"deep term": deepTerm, "long name": longName,
	} {
		t.Run(name, func(t *testing.T) {
			d, err := gdl.Parse("hostile.kif", []byte("(role r)\n"+src))
			if err != nil {
				t.Fatal(err)
			}
			errs := check.Check(d)
			if len(errs) == 0 {
				t.Fatal("no errors")
			}
			if size := len(errs.Detail()); size > 200*len(src) {
				t.Errorf("%d bytes of errors for a text of %d bytes", size, len(src))
			}
		})
	}
}
