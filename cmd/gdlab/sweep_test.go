package main

import (
	"strings"
	"testing"
)

// TestSweepBadSpec: a bad spec file is reported at its line and column,
// with a non-zero exit and no trace.
func TestSweepBadSpec(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"{\"name\": \"x\",\n  \"typo\": 1}", `bad.json:2:3: unknown field "typo"`},
		{"{\"name\": \"x\", \"games\": [\"ticTacToe\"], \"seeds\": 1, \"players\": [{\"kind\": \"random\"}]}\n{}", "bad.json:2:1: data after"},
		{`{"name": "x", "games": ["ticTacToe"], "seeds": 1, "players": [{"kind": "mcts"}]}`, "no bound"},
	} {
		code, _, stderr := gdlab("sweep", "--out", t.TempDir(), writeFile(t, "bad.json", c.text))
		if code != 1 || !strings.Contains(stderr, c.want) || strings.Contains(stderr, "goroutine") || strings.Contains(stderr, "panic") {
			t.Errorf("%q: exit %d, stderr:\n%s\nwant exit 1 and %q", c.text, code, stderr, c.want)
		}
	}
}
