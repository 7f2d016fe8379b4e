package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// gdlab runs one command line in-process and returns exit code and output.
func gdlab(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const nim = "../../engine/game/testdata/nim.kif"

func TestCheckReportsEveryPositionedError(t *testing.T) {
	bad := writeFile(t, "bad.kif", "(role a)\n(<= (legal a ?x) (true (p ?y)))\n(<= (next q) (not (foo\n")
	code, _, stderr := gdlab("check", bad)
	if code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	if !strings.Contains(stderr, "bad.kif:3:") {
		t.Errorf("want a positioned error for the unclosed list, got:\n%s", stderr)
	}
	if strings.Contains(stderr, "goroutine") || strings.Contains(stderr, "panic") {
		t.Errorf("panic trace in output:\n%s", stderr)
	}
	code, _, stderr = gdlab("check", writeFile(t, "unsafe.kif", "(role a)\n(<= (legal a ?x) (true (p ?y)))\n"))
	if code != 1 || !strings.Contains(stderr, "unsafe.kif:2:") || !strings.Contains(stderr, "?x") {
		t.Errorf("unsafe rule: exit %d, stderr:\n%s", code, stderr)
	}
}

// TestCompatibleReading: check is strict and says how the compatible
// reading treats each construct, check --compat warns instead, and the
// commands that play a game read it compatibly, with the same warnings.
func TestCompatibleReading(t *testing.T) {
	game := writeFile(t, "rolevar.kif", "(role a)\n(role b)\n(init s)\n(<= (legal ?w go) (true s))\n(<= (next t) (true s))\n(<= terminal (true t))\n(<= (goal ?w 50) (true t))\n(<= (goal ?w 0) (true s))\n")
	code, _, stderr := gdlab("check", game)
	if code != 1 || !strings.Contains(stderr, "rolevar.kif:4:12: variable ?w in head of rule for legal/2 is unsafe: it occurs in no positive body literal; the compatible reading ranges it over the roles") {
		t.Errorf("strict check: exit %d, stderr:\n%s", code, stderr)
	}
	code, out, stderr := gdlab("check", "--compat", game)
	if code != 0 || !strings.Contains(out, "ok") || strings.Count(stderr, ": warning: ") != 3 {
		t.Errorf("check --compat: exit %d, out %q, stderr:\n%s", code, out, stderr)
	}
	// What the specification forbids but gdlab plays is a warning too.
	negated := writeFile(t, "negated.kif", "(role a)\n(init (s 1))\n(<= (legal a go) (true (s ?x)) (not (distinct ?x 1)))\n(<= terminal (true (s 2)))\n(<= (next (s 2)) (true (s 1)))\n(goal a 100)\n")
	if code, _, stderr := gdlab("check", "--compat", negated); code != 0 || !strings.Contains(stderr, "negated.kif:3:32: warning: not may only negate an atom") {
		t.Errorf("check --compat of (not (distinct ...)): exit %d, stderr:\n%s", code, stderr)
	}
	code, out, stderr = gdlab("play", game, "--machine", "propnet")
	if code != 0 || !strings.Contains(out, "1. go  go") || !strings.Contains(out, "goal b: 50") || !strings.Contains(stderr, "rolevar.kif:7:11: warning:") {
		t.Errorf("play: exit %d, out:\n%s\nstderr:\n%s", code, out, stderr)
	}
}

func TestCheckAcceptsValidGame(t *testing.T) {
	code, out, stderr := gdlab("check", nim)
	if code != 0 || !strings.Contains(out, "ok") {
		t.Errorf("exit %d, out %q, err %q", code, out, stderr)
	}
}

func TestBadCommandLines(t *testing.T) {
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"frobnicate"}, 2, "unknown command"},
		{[]string{"perft"}, 2, "need one rulesheet"},
		{[]string{"play", "/no/such/file.kif"}, 1, "no such file"},
		{[]string{"check", "/no/such/file.kif"}, 1, "/no/such/file.kif: no such file"},
		{[]string{"play", nim, "--machine", "oracle"}, 1, "unknown machine"},
		{[]string{"play", nim, "--seed", "x"}, 2, "invalid value"},
		{[]string{"replay", "/no/such.jsonl", "--rules", nim}, 1, "no such file"},
		{[]string{"serve", nim}, 2, "need one rulesheet, players"},
		{[]string{"serve", nim, "--player", "nourl"}, 2, "is not NAME=URL"},
		{[]string{"player", "--player", "oracle"}, 1, "unknown player"},
		{[]string{"player", "--port", "0"}, 2, "need a port"},
	} {
		code, _, stderr := gdlab(c.args...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("gdlab %v: exit %d, stderr %q; want exit %d and %q", c.args, code, stderr, c.code, c.want)
		}
	}
}

func TestPlayTraceReplayPerft(t *testing.T) {
	code, out, _ := gdlab("play", nim, "--seed", "4")
	if code != 0 || !strings.Contains(out, "goal first:") {
		t.Fatalf("play: exit %d\n%s", code, out)
	}
	code, line, _ := gdlab("trace", nim, "--seed", "4")
	if code != 0 || !strings.HasPrefix(line, `{"game":"nim","seed":4,"roles":["first","second"]`) {
		t.Fatalf("trace: exit %d\n%s", code, line)
	}
	traces := writeFile(t, "nim.jsonl", line)
	if code, out, _ := gdlab("replay", traces, "--rules", nim); code != 0 || !strings.Contains(out, "1 of 1 traces agree") {
		t.Errorf("replay of own trace: exit %d\n%s", code, out)
	}
	broken := strings.Replace(line, `"terminal":false`, `"terminal":true`, 1)
	if code, out, _ := gdlab("replay", writeFile(t, "broken.jsonl", broken), "--rules", nim); code != 1 || !strings.Contains(out, "step 0: terminal differs") {
		t.Errorf("replay of a broken trace: exit %d\n%s", code, out)
	}
	// after the four opening moves the heaps are (2,2) (1,2) (3,1) (3,0): 4+3+3+2 replies
	if code, out, _ := gdlab("perft", nim, "--depth", "2"); code != 0 || !strings.Contains(out, "         12 ") {
		t.Errorf("perft: exit %d\n%s", code, out)
	}
}

func TestTraceReproducesSharedTrace(t *testing.T) {
	dir := os.Getenv("GDLAB_SHARED")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared")
	}
	want, err := os.ReadFile(filepath.Join(dir, "traces", "ticTacToe.jsonl"))
	if err != nil {
		t.Skipf("shared corpus not found at %s (set GDLAB_SHARED): skipping", dir)
	}
	code, got, _ := gdlab("trace", filepath.Join(dir, "games", "ticTacToe", "ticTacToe.kif"), "--seed", "1")
	if code != 0 || got != strings.SplitAfter(string(want), "\n")[0] {
		t.Errorf("trace differs from the shared one:\n%s", got)
	}
}

func TestBench(t *testing.T) {
	for _, machine := range []string{"propnet", "prover", "flat", "lanes", "native"} {
		code, out, stderr := gdlab("bench", nim, "--seconds", "0.05", "--threads", "2", "--machine", machine)
		if code != 0 {
			t.Fatalf("bench --machine %s: exit %d\n%s%s", machine, code, out, stderr)
		}
		for _, want := range []string{"machine   " + machine + ", 2 thread(s)", "build ", "state ", " playouts/s", " states/s"} {
			if !strings.Contains(out, want) {
				t.Errorf("bench --machine %s: no %q in\n%s", machine, want, out)
			}
		}
	}
	if code, out, _ := gdlab("bench", nim, "--seconds", "0.05"); code != 0 || !strings.Contains(out, "machine   propnet") {
		t.Errorf("bench defaults to the propnet: exit %d\n%s", code, out)
	}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"bench"}, 2, "need exactly one rulesheet"},
		{[]string{"bench", nim, "--threads", "0"}, 2, "--threads >= 1"},
		{[]string{"bench", nim, "--machine", "oracle"}, 1, "unknown machine"},
	} {
		if code, _, stderr := gdlab(c.args...); code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("gdlab %v: exit %d, stderr %q; want exit %d and %q", c.args, code, stderr, c.code, c.want)
		}
	}
}

// TestRivest runs the smallest whole experiment (one opening, one p in the
// sweep) and checks the saved tables carry the command that made them.
func TestRivest(t *testing.T) {
	for _, args := range [][]string{{"rivest", "extra"}, {"rivest", "--sweep", "1,x"}, {"rivest", "--sweep", "0"}} {
		if code, _, stderr := gdlab(args...); code != 2 || !strings.Contains(stderr, "usage") {
			t.Errorf("gdlab %v: exit %d, stderr %q", args, code, stderr)
		}
	}
	if testing.Short() || os.Getenv("GDLAB_QUICK") != "" {
		t.Skip("quick: 28 Connect Four games")
	}
	dir := t.TempDir()
	code, out, stderr := gdlab("rivest", "--openings", "1", "--sweep", "10", "--step", "1ms", "--workers", "2", "--out", dir)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "| Rivest 1987, total |") || !strings.Contains(out, "best p = 10") {
		t.Errorf("output lacks the paper's totals or the verdict on p:\n%s", out)
	}
	for _, name := range []string{"rivest-main", "rivest-psweep", "rivest-general"} {
		md, err := os.ReadFile(filepath.Join(dir, name+".md"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(md), "Regenerate: `gdlab rivest --openings 1 --sweep 10 --step 1ms --workers 2 --out "+dir+"`") {
			t.Errorf("%s.md does not carry its command:\n%s", name, md)
		}
		if _, err := os.Stat(filepath.Join(dir, name+".json")); err != nil {
			t.Error(err)
		}
	}
}
