package compat_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"gdlab/engine/game"
	"gdlab/engine/gdl"
	"gdlab/engine/gdl/compat"
	"gdlab/engine/propnet"
	"gdlab/engine/prover"
)

func parse(t *testing.T, src string) *gdl.Description {
	t.Helper()
	d, err := gdl.Parse("t.kif", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestRepairs names each non-standard construct, where it is and how the
// compatible reading treats it, and shows the rules that stand for it.
func TestRepairs(t *testing.T) {
	for _, c := range []struct {
		name, src string
		repairs   []string // Repair.String()
		rules     []string // the read rules after the source's own facts
	}{
		{"role variable in legal", "(role a)\n(<= (legal ?w go) (true (s ?x)))",
			[]string{"t.kif:2:12: variable ?w in head of rule for legal/2 is unsafe; the compatible reading ranges it over the roles, as ggp-base answers for each role"},
			[]string{"(<= (legal ?w go) (true (s ?x)) (role ?w))"}},
		{"role variable in a goal fact", "(role a)\n(goal ?r 50)",
			[]string{"t.kif:2:7: variable ?r in head of fact goal/2 is unsafe; the compatible reading ranges it over the roles, as ggp-base answers for each role"},
			[]string{"(<= (goal ?r 50) (role ?r))"}},
		{"unsafe not dropped", "(role a)\n(<= (legal a go) (true (s ?x)) (not (true (t ?y))))",
			[]string{"t.kif:2:46: variable ?y in (not (true (t ?y))) of rule for legal/2 is unsafe; the compatible reading drops (not (true (t ?y))), as ggp-base does"},
			[]string{"(<= (legal a go) (true (s ?x)))"}},
		{"unsafe distinct dropped, head ranged over the domain", "(role a)\n(n 1)\n(<= (d ?x ?y) (n ?x) (distinct ?x ?y))",
			[]string{
				"t.kif:3:11: variable ?y in head of rule for d/2 is unsafe; the compatible reading ranges it over the game's domain (every constant of the rules)",
				"t.kif:3:35: variable ?y in (distinct ?x ?y) of rule for d/2 is unsafe; the compatible reading drops (distinct ?x ?y), as ggp-base does"},
			[]string{"(<= (d ?x ?y) (n ?x) (gdlab_compat_domain ?y))", "(gdlab_compat_domain 1)", "(gdlab_compat_domain a)"}},
		{"only the unsafe alternative of an or changes", "(role a)\n(<= (legal ?w go) (or (true (s ?w)) (true (t))))",
			[]string{"t.kif:2:12: variable ?w in head of rule for legal/2 is unsafe; the compatible reading ranges it over the roles, as ggp-base answers for each role"},
			[]string{"(<= (legal ?w go) (true (s ?w)))", "(<= (legal ?w go) (true (t)) (role ?w))"}},
		{"unsafe input rule dropped", "(role a)\n(<= (input a (m ?x)) (n ?t))",
			[]string{"t.kif:2:17: variable ?x in rule for input/2 is unsafe; the compatible reading drops the rule: no player needs input to play"},
			nil},
		{"a domain name the game uses is avoided", "(role a)\n(gdlab_compat_domain z)\n(<= (p ?x) (true q))",
			[]string{"t.kif:3:8: variable ?x in head of rule for p/1 is unsafe; the compatible reading ranges it over the game's domain (every constant of the rules)"},
			[]string{"(<= (p ?x) (true q) (gdlab_compat_domain_ ?x))", "(gdlab_compat_domain_ a)", "(gdlab_compat_domain_ q)", "(gdlab_compat_domain_ z)"}},
		{"the domain holds the constants, not compound terms", "(role a)\n(<= (p ?x) (true (f b)))",
			[]string{"t.kif:2:8: variable ?x in head of rule for p/1 is unsafe; the compatible reading ranges it over the game's domain (every constant of the rules)"},
			[]string{"(<= (p ?x) (true (f b)) (gdlab_compat_domain ?x))", "(gdlab_compat_domain a)", "(gdlab_compat_domain b)"}},
		{"a parenthesised 0-ary relation is noted, not changed", "(role a)\n(<= (terminal) (true q))",
			[]string{"t.kif:2:5: 0-ary relation terminal written as (terminal); gdlab reads it as terminal; ggp-base reads (terminal) and terminal as two relations"},
			[]string{"(<= terminal (true q))"}},
		{"both spellings of a 0-ary relation are noted", "(role a)\n(<= (open) (true q))\n(<= (legal a go) open)\n(<= (legal a stop) (open))",
			[]string{
				"t.kif:2:5: 0-ary relation open written as (open); gdlab reads it as open; ggp-base reads (open) and open as two relations",
				"t.kif:4:20: 0-ary relation open written as (open); gdlab reads it as open; ggp-base reads (open) and open as two relations"},
			[]string{"(<= open (true q))", "(<= (legal a go) open)", "(<= (legal a stop) open)"}},
		{"one spelling throughout needs no note", "(role a)\n(<= (open) (true q))\n(<= (legal a go) (open))",
			nil,
			[]string{"(<= open (true q))", "(<= (legal a go) open)"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			d := parse(t, c.src)
			read, repairs := compat.Read(d)
			var got []string
			for _, r := range repairs {
				got = append(got, r.String())
			}
			if strings.Join(got, "\n") != strings.Join(c.repairs, "\n") {
				t.Errorf("repairs:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(c.repairs, "\n"))
			}
			var rules []string
			for _, r := range read.Rules {
				if r.String() != "(role a)" && !strings.HasPrefix(r.String(), "(n ") && r.String() != "(gdlab_compat_domain z)" {
					rules = append(rules, r.String())
				}
			}
			if strings.Join(rules, "\n") != strings.Join(c.rules, "\n") {
				t.Errorf("rules:\n%s\nwant:\n%s", strings.Join(rules, "\n"), strings.Join(c.rules, "\n"))
			}
			if _, again := compat.Read(read); len(compat.Changes(again)) > 0 {
				t.Errorf("the read rules need repairs again: %v", again)
			}
		})
	}
}

// TestManyAlternatives: an unsafe rule whose ors expand into more than
// MaxAlternatives alternatives is left as written, with a note.
func TestManyAlternatives(t *testing.T) {
	var b strings.Builder
	b.WriteString("(role a)\n(<= (p ?x)")
	for i := 0; i < 40; i++ {
		fmt.Fprintf(&b, " (or (q %d) (r %d))", i, i)
	}
	b.WriteString(")")
	d := parse(t, b.String()) // 2^40 alternatives: expanding them would never end
	read, repairs := compat.Read(d)
	if read != d || len(repairs) != 1 || repairs[0].Kind != compat.Note || !strings.Contains(repairs[0].Construct, "more than 4096 alternatives") {
		t.Errorf("repairs %v", repairs)
	}
}

// TestSafeUnchanged returns a description that follows the specification
// as it is, and so every game of the shared corpus.
func TestSafeUnchanged(t *testing.T) {
	d := parse(t, "(role a)\n(<= (legal a go) (true (s ?x)) (not (true (t ?x))))")
	if read, repairs := compat.Read(d); read != d || repairs != nil {
		t.Errorf("a safe description was changed: %v", repairs)
	}
	files, _ := filepath.Glob(filepath.Join(sharedDir(), "games", "*", "*.kif"))
	for _, f := range files {
		d, err := gdl.ParseFile(f)
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if read, repairs := compat.Read(d); read != d || repairs != nil {
			t.Errorf("%s: the corpus game was changed: %v", f, repairs)
		}
	}
	if len(files) > 0 {
		t.Logf("%d corpus games read unchanged", len(files))
	}
}

// TestTraces replays, on both reasoners, the traces beside the rulesheets
// in testdata, derived by hand from ggp-base's reading.
func TestTraces(t *testing.T) {
	traces, _ := filepath.Glob(filepath.Join("testdata", "*.jsonl"))
	if len(traces) == 0 {
		t.Fatal("no traces in testdata")
	}
	for _, tf := range traces {
		kif := strings.TrimSuffix(tf, ".jsonl") + ".kif"
		d, err := gdl.ParseFile(kif)
		if err != nil {
			t.Fatal(err)
		}
		pr, err := prover.New(d)
		if err != nil {
			t.Fatalf("%s: prover: %v", kif, err)
		}
		net, err := propnet.Build(context.Background(), d, propnet.Options{})
		if err != nil {
			t.Fatalf("%s: propnet: %v", kif, err)
		}
		if len(pr.Repairs()) == 0 {
			t.Errorf("%s: the prover reports no repair", kif)
		}
		fh, err := os.Open(tf)
		if err != nil {
			t.Fatal(err)
		}
		trs, err := game.ReadTraces(fh)
		fh.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, tr := range trs {
			for name, m := range map[string]game.Machine{"prover": pr, "propnet": net} {
				if diff, err := game.Replay(context.Background(), m, tr); err != nil || diff != nil {
					t.Errorf("%s on %s: %v %v", tf, name, err, diff)
				}
			}
		}
	}
}

// TestAgainstGGPBase records matches of the rulesheets in testdata with
// ggp-base's own ProverStateMachine (scripts/ggpbase/TraceRecorder.java,
// run on the ggp-base build that ../shared/tools/sancho-bench ships) and
// replays them through both reasoners. It skips without Java or that build.
func TestAgainstGGPBase(t *testing.T) {
	lib, _ := filepath.Abs(filepath.Join(sharedDir(), "tools", "sancho-bench", "lib"))
	jars, _ := filepath.Glob(filepath.Join(lib, "*.jar"))
	_, errJava := exec.LookPath("java")
	_, errJavac := exec.LookPath("javac")
	if len(jars) == 0 || errJava != nil || errJavac != nil {
		t.Skipf("needs java, javac and the ggp-base build in %s", lib)
	}
	dir := t.TempDir()
	cp := strings.Join(append(jars, dir), string(os.PathListSeparator))
	src, _ := filepath.Abs(filepath.Join("..", "..", "..", "scripts", "ggpbase", "TraceRecorder.java"))
	if out, err := exec.Command("javac", "-cp", cp, "-d", dir, src).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	kifs, _ := filepath.Glob(filepath.Join("testdata", "*.kif"))
	for _, kif := range kifs {
		abs, _ := filepath.Abs(kif)
		key := strings.TrimSuffix(filepath.Base(kif), ".kif")
		cmd := exec.Command("java", "-cp", cp, "TraceRecorder", abs, key, "1", "3", "60")
		cmd.Dir = dir // ggp-base's logger writes into the working directory
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: ggp-base: %v\n%s", key, err, stderr.String())
		}
		trs, err := game.ReadTraces(strings.NewReader(string(out)))
		if err != nil || len(trs) != 3 {
			t.Fatalf("%s: %d traces from ggp-base: %v", key, len(trs), err)
		}
		d, err := gdl.ParseFile(kif)
		if err != nil {
			t.Fatal(err)
		}
		pr, err := prover.New(d)
		if err != nil {
			t.Fatal(err)
		}
		net, err := propnet.Build(context.Background(), d, propnet.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, tr := range trs {
			for name, m := range map[string]game.Machine{"prover": pr, "propnet": net} {
				if diff, err := game.Replay(context.Background(), m, tr); err != nil || diff != nil {
					t.Errorf("%s seed %d on the %s: %v %v", key, tr.Seed, name, err, diff)
				}
			}
		}
	}
}

// sharedDir returns the shared corpus directory ("" when absent).
func sharedDir() string {
	if dir := os.Getenv("GDLAB_SHARED"); dir != "" {
		return dir
	}
	return filepath.Join("..", "..", "..", "..", "shared")
}
