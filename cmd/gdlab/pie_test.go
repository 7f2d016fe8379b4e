package main

import (
	"strings"
	"testing"
)

// TestPie writes nim's variant, which plays and has the swap at depth 2,
// and refuses games without a pie-rule variant with positioned errors.
func TestPie(t *testing.T) {
	code, out, stderr := gdlab("pie", nim)
	if code != 0 || !strings.HasPrefix(out, ";;; The pie-rule variant of ") || !strings.Contains(out, "(legal second swap)") {
		t.Fatalf("pie: exit %d, stderr %q, out:\n%s", code, stderr, out)
	}
	variant := writeFile(t, "nim_pie.kif", out)
	if code, out, _ := gdlab("check", variant); code != 0 {
		t.Errorf("check of the variant: exit %d\n%s", code, out)
	}
	// nim's 4 openings are answered by 12 moves and 4 swaps
	if code, out, _ := gdlab("perft", variant, "--depth", "2"); code != 0 || !strings.Contains(out, "         16 ") {
		t.Errorf("perft of the variant: exit %d\n%s", code, out)
	}
	for _, c := range []struct {
		name, rules, want string
	}{
		{"solo.kif", "(role a)\n(init s)\n(<= (legal a go) (true s))\n(<= (next t) (true s))\n(<= terminal (true t))\n(goal a 100)\n",
			"solo.kif:1:1: the pie rule needs exactly two roles; the game has 1"},
		{"together.kif", "(role a)\n(role b)\n(init s)\n(<= (legal ?r go) (role ?r))\n(<= (legal ?r stay) (role ?r))\n(<= (next t) (true s))\n(<= terminal (true t))\n(<= (goal ?r 50) (role ?r))\n",
			"together.kif:1:1: not turn-taking: in the initial state a has 2 legal moves and b has 2 legal moves"},
		{"broken.kif", "(role a)\n(role b\n", "broken.kif:2:1: "},
	} {
		code, out, stderr := gdlab("pie", writeFile(t, c.name, c.rules))
		if code != 1 || out != "" || !strings.Contains(stderr, c.want) {
			t.Errorf("pie %s: exit %d, out %q, stderr %q; want exit 1 and %q", c.name, code, out, stderr, c.want)
		}
	}
	if code, out, stderr := gdlab("pie", nim, "--swap", "take"); code != 1 || out != "" || !strings.Contains(stderr, "take already occurs") {
		t.Errorf("pie --swap take: exit %d, stderr %q", code, stderr)
	}
	if code, _, stderr := gdlab("pie"); code != 2 || !strings.Contains(stderr, "need one rulesheet") {
		t.Errorf("pie without a file: exit %d, stderr %q", code, stderr)
	}
}
