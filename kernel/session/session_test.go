package session

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"
)

func newSession(t testing.TB) (*Session, *bytes.Buffer) {
	t.Helper()
	var out bytes.Buffer
	s, err := New(Options{Stdout: &out, Stderr: &out, Symbols: []interp.Exports{stdlib.Symbols}})
	if err != nil {
		t.Fatal(err)
	}
	return s, &out
}

// eval runs src and returns its shown values as text, failing on error.
func eval(t *testing.T, s *Session, src string) string {
	t.Helper()
	r, err := s.Eval(context.Background(), src)
	if err != nil {
		t.Fatalf("Eval(%q): %v", src, err)
	}
	return show(r)
}

func show(r Result) string {
	parts := make([]string, len(r.Values))
	for i, v := range r.Values {
		parts[i] = fmt.Sprint(v)
	}
	return strings.Join(parts, " ")
}

func evalErr(t *testing.T, s *Session, src string) *Error {
	t.Helper()
	_, err := s.Eval(context.Background(), src)
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("Eval(%q) = %v, want *Error", src, err)
	}
	return e
}

func TestSplit(t *testing.T) {
	src := "import \"fmt\"\nx := 1\nfunc f() int { return x }\ntype T struct{ A int }\nfunc (T) M() {}\nfunc() { fmt.Println() }()\nvar y = 2\nf()"
	var frames []string
	c := split(src, nil, func(name string, line int) int {
		frames = append(frames, fmt.Sprintf("%s:%d", name, line))
		return len(frames) - 1
	})
	for _, want := range []string{`import "fmt"`, "func f() int {defer __gdlabGuard(0);", "type T struct", "func (T) M() {defer __gdlabGuard(1);", "var y = 2"} {
		if !strings.Contains(c.decls, want) {
			t.Errorf("decls lack %q:\n%s", want, c.decls)
		}
	}
	for _, want := range []string{"x := 1", "func() {defer __gdlabGuard(2); fmt.Println() }()", "f()"} {
		if !strings.Contains(c.stmts, want) {
			t.Errorf("stmts lack %q:\n%s", want, c.stmts)
		}
	}
	if strings.Contains(c.decls, "x := 1") || strings.Contains(c.stmts, "type T") {
		t.Error("a line landed in both parts")
	}
	if n := strings.Count(c.decls, "\n"); n != strings.Count(src, "\n")+1 {
		t.Errorf("decls have %d newlines, want the cell's plus one", n)
	}
	if !c.last.ok || c.last.callee != "f" || c.stmts[c.last.start:c.last.end] != "f()" {
		t.Errorf("last = %+v (%q)", c.last, c.stmts[c.last.start:c.last.end])
	}
	if strings.Join(frames, " ") != "f:3 T.M:5 func literal:6" {
		t.Errorf("frames = %q", frames)
	}
	if len(c.types) != 1 || c.types[0] != "T" {
		t.Errorf("types = %v", c.types)
	}
}

func TestReimport(t *testing.T) {
	s, _ := newSession(t)
	for range 2 {
		eval(t, s, "import \"fmt\"\nimport (\n\t\"strings\"\n\tstr \"strconv\"\n)\nfunc f() string { return fmt.Sprint(strings.ToUpper(\"a\"), str.Itoa(1)) }")
	}
	eval(t, s, "import (\n\t\"fmt\"\n\t\"os\"\n)\n_ = os.Args")
	if got := eval(t, s, "f()"); got != "A1" {
		t.Errorf("after re-imports f() = %q", got)
	}
}

func TestMixedCellAndState(t *testing.T) {
	s, _ := newSession(t)
	eval(t, s, "import \"strings\"\nfunc twice(s string) string { return strings.Repeat(s, 2) }\nw := twice(\"ab\")")
	if got := eval(t, s, "w + twice(\"c\")"); got != "ababcc" {
		t.Errorf("got %q", got)
	}
}

func TestLastValue(t *testing.T) {
	s, out := newSession(t)
	eval(t, s, `import ("fmt"; "strconv")`)
	cases := []struct{ src, want string }{
		{"6*7", "42"},
		{"x := 3\nx+1", "4"},
		{"x := 3", ""},
		{`fmt.Println("printed")`, ""},
		{"func none() {}\nnone()", ""},
		{"func two() (int, string) { return 1, \"a\" }\ntwo()", "1 a"},
		{`strconv.Quote("q")`, `"q"`},
		{"for i := 0; i < 2; i++ {}", ""},
		{"if y := 1; y > 0 {\n}\ny := 5\ny", "5"},
		{"// only a comment", ""},
		{"func check() error { return nil }\ncheck()", ""},
	}
	for _, c := range cases {
		if got := eval(t, s, c.src); got != c.want {
			t.Errorf("%q shows %q, want %q", c.src, got, c.want)
		}
	}
	if out.String() != "printed\n" {
		t.Errorf("stdout = %q", out.String())
	}
}

func TestRedefinition(t *testing.T) {
	s, _ := newSession(t)
	eval(t, s, "func f() int { return 1 }\ntype T struct{ A int }")
	eval(t, s, "func f() int { return 2 }\ntype T struct{ B string }")
	if got := eval(t, s, `f()`); got != "2" {
		t.Errorf("redefined f() = %s", got)
	}
	if got := eval(t, s, `T{B: "b"}.B`); got != "b" {
		t.Errorf("redefined type: %s", got)
	}
	eval(t, s, "v := 1")
	if got := eval(t, s, "v := \"s\"\nv"); got != "s" {
		t.Errorf("redeclared variable: %s", got)
	}
}

func TestCompileErrorKeepsSession(t *testing.T) {
	s, _ := newSession(t)
	eval(t, s, "a := 1")
	e := evalErr(t, s, "\nb := undefinedName + 1")
	if e.Kind != CompileError || !strings.HasPrefix(e.Value, "2:") {
		t.Errorf("error = %+v, want a CompileError at line 2", e)
	}
	if got := eval(t, s, "a"); got != "1" {
		t.Errorf("after error a = %s", got)
	}
}

func TestPanicReportedWithTrace(t *testing.T) {
	s, _ := newSession(t)
	e := evalErr(t, s, "func boom() { panic(\"kaboom\") }\nfunc outer() {\n\tboom()\n}\nouter()")
	want := []string{"boom (line 1)", "outer (line 2)", "cell at 5:1"}
	if e.Kind != PanicKind || e.Value != "kaboom" || strings.Join(e.Trace, "|") != strings.Join(want, "|") {
		t.Errorf("error = %+v, want trace %q", e, want)
	}
	if got := eval(t, s, "1+1"); got != "2" {
		t.Errorf("after panic: %s", got)
	}
}

func TestInterpretedRecoverStillWorks(t *testing.T) {
	s, _ := newSession(t)
	eval(t, s, `import "sort"`)
	src := `func safe() (out string) {
	defer func() { out = "recovered " + recover().(string) }()
	sort.Slice([]int{2, 1}, func(i, j int) bool { panic("in less") })
	return "not reached"
}
safe()`
	if got := eval(t, s, src); got != "recovered in less" {
		t.Errorf("got %q", got)
	}
}

// A panic in an interpreted callback run by a native goroutine would end the
// test binary if the guard did not stop it.
func TestPanicOnNativeGoroutine(t *testing.T) {
	s, out := newSession(t)
	eval(t, s, `import "time"`)
	e := evalErr(t, s, `done := make(chan bool)
time.AfterFunc(0, func() { defer close(done); panic("from a timer") })
<-done
time.Sleep(100 * time.Millisecond)`)
	if e.Kind != StrayPanic || e.Value != "from a timer" {
		t.Errorf("error = %+v", e)
	}
	// The callback's own defers run before the guard's: the sleeps let the
	// guard record the panic while the cell still runs.
	e = evalErr(t, s, "done := make(chan bool)\ngo func() { defer close(done); panic(\"from go\") }()\n<-done\ntime.Sleep(100 * time.Millisecond)")
	if e.Kind != StrayPanic {
		t.Errorf("go statement: %+v", e)
	}
	if !strings.Contains(out.String(), "from go") {
		t.Errorf("stray panic not written to stderr: %q", out.String())
	}
	if got := eval(t, s, "2+2"); got != "4" {
		t.Errorf("after stray panics: %s", got)
	}
}

func TestInterrupt(t *testing.T) {
	s, _ := newSession(t)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	start := time.Now()
	_, err := s.Eval(ctx, "n := 0\nfor {\n n++\n}")
	var e *Error
	if !errors.As(err, &e) || e.Kind != Interrupted {
		t.Fatalf("err = %v, want Interrupted", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("interrupt took %v", d)
	}
	if got := eval(t, s, "40+2"); got != "42" {
		t.Errorf("after interrupt: %s", got)
	}
}

func TestCellContext(t *testing.T) {
	s, _ := newSession(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	eval(t, s, `import "gdlab/kernel/cell"`)
	_, err := s.Eval(ctx, "cell.Context().Err()")
	var e *Error
	if !errors.As(err, &e) || e.Kind != Interrupted {
		// Evaluation may notice the cancelled context before running.
		t.Logf("cancelled context: %v", err)
	}
	if got := eval(t, s, "cell.Context().Err() == nil"); got != "true" {
		t.Errorf("fresh cell context: %s", got)
	}
}

func TestRelocate(t *testing.T) {
	if got := relocate("_.go:3:5: undefined: x"); got != "2:5: undefined: x" {
		t.Errorf("got %q", got)
	}
}

func TestInterruptBlockedCells(t *testing.T) {
	s, _ := newSession(t)
	eval(t, s, `import "gdlab/kernel/cell"`)
	for _, src := range []string{
		"<-make(chan int)",
		"<-cell.Context().Done()",
		"func spin() { for {} }\nspin()",
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
		start := time.Now()
		_, err := s.Eval(ctx, src)
		cancel()
		var e *Error
		if !errors.As(err, &e) || e.Kind != Interrupted || time.Since(start) > time.Second {
			t.Errorf("%q: err = %v after %v, want a prompt interrupt", src, err, time.Since(start))
		}
		if got := eval(t, s, "1"); got != "1" {
			t.Errorf("after interrupting %q: %s", src, got)
		}
	}
}

// TestCellsSeeEnvironment: a notebook reads GDLAB_QUICK and GDLAB_SHARED
// with os.Getenv, so cells must see the kernel's environment.
func TestCellsSeeEnvironment(t *testing.T) {
	t.Setenv("GDLAB_SESSION_TEST", "seen")
	s, _ := newSession(t)
	eval(t, s, `import "os"`)
	if got := eval(t, s, `os.Getenv("GDLAB_SESSION_TEST")`); got != "seen" {
		t.Errorf("cell saw %q, want %q", got, "seen")
	}
}

// TestImportsAreReportedBeforeTheCellRuns: Options.Imports sees a cell's
// import paths, blank imports included, before any of its code runs, so
// a record the cell writes is versioned by them.
func TestImportsAreReportedBeforeTheCellRuns(t *testing.T) {
	mark := filepath.Join(t.TempDir(), "ran")
	var log []string
	var out bytes.Buffer
	s, err := New(Options{Stdout: &out, Stderr: &out, Symbols: []interp.Exports{stdlib.Symbols},
		Imports: func(paths []string) {
			_, err := os.Stat(mark)
			log = append(log, fmt.Sprintf("imports %s, the cell ran before: %v", strings.Join(paths, " "), err == nil))
		}})
	if err != nil {
		t.Fatal(err)
	}
	eval(t, s, `import (
	"os"
	"strings"
)

_ = strings.ToUpper("x")
os.WriteFile(`+strconv.Quote(mark)+`, nil, 0o644)`)
	eval(t, s, `x := 1`)
	eval(t, s, `import (
	_ "errors"
	_ "bytes"
)`)
	want := []string{"imports os strings, the cell ran before: false", "imports bytes errors, the cell ran before: true"}
	if strings.Join(log, "|") != strings.Join(want, "|") {
		t.Errorf("reported %q, want %q", log, want)
	}
}
