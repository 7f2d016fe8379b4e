package symbols

import (
	"bytes"
	"flag"
	"fmt"
	"go/constant"
	"go/importer"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/traefik/yaegi/extract"
)

const generator = "//go:generate go run github.com/traefik/yaegi/cmd/yaegi extract "

// directive is one `yaegi extract` line of symbols.go.
type directive struct {
	pkgs             []string
	exclude, include []string
	tags             []string
	name             string
}

// directives parses the yaegi extract directives of symbols.go.
func directives(t *testing.T) []directive {
	t.Helper()
	src, err := os.ReadFile("symbols.go")
	if err != nil {
		t.Fatal(err)
	}
	var out []directive
	for _, line := range strings.Split(string(src), "\n") {
		rest, ok := strings.CutPrefix(line, generator)
		if !ok {
			if strings.HasPrefix(line, "//go:generate") {
				t.Fatalf("symbols.go: a directive these tests cannot replay: %s", line)
			}
			continue
		}
		fs := flag.NewFlagSet("extract", flag.ContinueOnError)
		fs.SetOutput(io.Discard)
		exclude := fs.String("exclude", "", "")
		include := fs.String("include", "", "")
		tag := fs.String("tag", "", "")
		name := fs.String("name", "symbols", "")
		if err := fs.Parse(strings.Fields(rest)); err != nil {
			t.Fatalf("symbols.go: %s: %v", line, err)
		}
		out = append(out, directive{pkgs: fs.Args(), exclude: split(*exclude), include: split(*include), tags: split(*tag), name: *name})
	}
	if len(out) == 0 {
		t.Fatal("symbols.go has no yaegi extract directives")
	}
	return out
}

func split(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, ",")
}

// TestSymbolsMatchAPI checks, in a second or two, that the tables agree
// with the packages as they are now: the same exported names under yaegi's
// rules (no generics; a wrapper per interface), each of the right kind,
// untyped constants with their current values (the tables hold them as
// literals), and interface wrappers with the interfaces' current methods.
func TestSymbolsMatchAPI(t *testing.T) {
	ds := directives(t)
	var paths []string
	for _, d := range ds {
		paths = append(paths, d.pkgs...)
	}
	pkgs := typeCheck(t, paths)
	for _, d := range ds {
		for _, p := range d.pkgs {
			pkg := pkgs[p]
			if pkg == nil {
				continue
			}
			key := path.Join(p, pkg.Name())
			table, ok := Symbols[key]
			if !ok {
				t.Errorf("no table for %s: run make symbols", key)
				continue
			}
			for _, msg := range compareTable(pkg, table, d) {
				t.Errorf("%s: %s: run make symbols", p, msg)
			}
		}
	}
}

// typeCheck loads the packages from the compiler's export data, which go
// list -export builds or finds in the build cache.
func typeCheck(t *testing.T, paths []string) map[string]*types.Package {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH; it is needed to find the packages' export data")
	}
	args := append([]string{"list", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}"}, paths...)
	out, err := exec.Command("go", args...).Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("go list: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("go list: %v", err)
	}
	exports := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if p, file, ok := strings.Cut(line, "\t"); ok {
			exports[p] = file
		}
	}
	imp := importer.ForCompiler(token.NewFileSet(), "gc", func(p string) (io.ReadCloser, error) {
		if exports[p] == "" {
			return nil, fmt.Errorf("no export data for %s", p)
		}
		return os.Open(exports[p])
	})
	pkgs := map[string]*types.Package{}
	for _, p := range paths {
		pkg, err := imp.Import(p)
		if err != nil {
			t.Errorf("loading %s: %v", p, err)
			continue
		}
		pkgs[p] = pkg
	}
	return pkgs
}

// compareTable returns how table differs from what yaegi extract would
// make of pkg under d.
func compareTable(pkg *types.Package, table map[string]reflect.Value, d directive) []string {
	var diffs []string
	want := map[string]bool{}
	sc := pkg.Scope()
	for _, name := range sc.Names() {
		o := sc.Lookup(name)
		if !o.Exported() || !selected(name, d) {
			continue
		}
		v, ok := table[name]
		switch o := o.(type) {
		case *types.Func:
			if o.Type().(*types.Signature).TypeParams().Len() > 0 {
				continue
			}
			if ok && (v.Kind() != reflect.Func || v.CanAddr()) {
				diffs = append(diffs, name+" is a function now")
			}
		case *types.Var:
			if ok && !v.CanAddr() {
				diffs = append(diffs, name+" is a variable now")
			}
		case *types.Const:
			if b, isBasic := o.Type().(*types.Basic); ok && isBasic && b.Info()&types.IsUntyped != 0 {
				c, isConst := v.Interface().(constant.Value)
				if !isConst || c.ExactString() != o.Val().ExactString() {
					diffs = append(diffs, fmt.Sprintf("constant %s is %s now", name, o.Val().ExactString()))
				}
			}
		case *types.TypeName:
			if n, isNamed := o.Type().(*types.Named); isNamed && n.TypeParams().Len() > 0 {
				continue
			}
			iface, isIface := o.Type().Underlying().(*types.Interface)
			if isIface && iface.NumMethods() == 0 && iface.NumEmbeddeds() != 0 {
				continue // a constraint
			}
			if ok && (v.Kind() != reflect.Pointer || !v.IsNil()) {
				diffs = append(diffs, name+" is a type now")
			}
			if isIface {
				want["_"+name] = true
				if w, ok := table["_"+name]; ok {
					diffs = append(diffs, compareWrapper(name, iface, w)...)
				}
			}
		}
		want[name] = true
	}
	for name := range want {
		if _, ok := table[name]; !ok {
			diffs = append(diffs, name+" is missing")
		}
	}
	for name := range table {
		if !want[name] {
			diffs = append(diffs, name+" is no longer exported")
		}
	}
	sort.Strings(diffs)
	return diffs
}

// compareWrapper checks that an interface wrapper, a struct with a WName
// func field per method, has the interface's exported methods.
func compareWrapper(name string, iface *types.Interface, w reflect.Value) []string {
	st := w.Type().Elem()
	have := map[string]bool{}
	for i := 0; i < st.NumField(); i++ {
		if f, ok := strings.CutPrefix(st.Field(i).Name, "W"); ok {
			have[f] = true
		}
	}
	var diffs []string
	for i := 0; i < iface.NumMethods(); i++ {
		m := iface.Method(i)
		if !m.Exported() {
			continue
		}
		if !have[m.Name()] {
			diffs = append(diffs, fmt.Sprintf("the wrapper of %s lacks method %s", name, m.Name()))
		}
		delete(have, m.Name())
	}
	for m := range have {
		diffs = append(diffs, fmt.Sprintf("the wrapper of %s has a method %s the interface lost", name, m))
	}
	return diffs
}

// selected applies a directive's -include and -exclude as yaegi does.
func selected(name string, d directive) bool {
	if len(d.include) > 0 && !matchAny(name, d.include) {
		return false
	}
	return !matchAny(name, d.exclude)
}

func matchAny(name string, res []string) bool {
	for _, re := range res {
		if regexp.MustCompile(re).MatchString(name) {
			return true
		}
	}
	return false
}

// TestSymbolsFresh regenerates every table in memory exactly as the
// go:generate directives would and compares it with the checked-in file.
// yaegi type-checks each package and all it imports from source, which
// takes most of a minute, so -short and GDLAB_QUICK (set by CI) leave it to
// TestSymbolsMatchAPI.
func TestSymbolsFresh(t *testing.T) {
	if testing.Short() || os.Getenv("GDLAB_QUICK") != "" {
		t.Skip("-short or GDLAB_QUICK: regenerating the symbol tables takes most of a minute; TestSymbolsMatchAPI checks them")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH; yaegi extract needs it to load packages")
	}
	want := extractAll(t, directives(t))
	have := checkedIn(t)
	for name, src := range want {
		old, ok := have[name]
		switch {
		case !ok:
			t.Errorf("%s is missing: run make symbols", name)
		case !bytes.Equal(normalize(old), normalize(src)):
			t.Errorf("%s is stale: run make symbols", name)
		}
	}
	for name := range have {
		if _, ok := want[name]; !ok {
			t.Errorf("%s is not generated by any directive in symbols.go: delete it", name)
		}
	}
}

// extractAll does what the directives do in this directory, returning file
// name -> contents instead of writing files, and failing where the command
// would only print an error and go on.
func extractAll(t *testing.T, ds []directive) map[string][]byte {
	files := strings.NewReplacer("/", "-", ".", "_", "~", "_")
	var (
		mu   sync.Mutex
		wg   sync.WaitGroup
		out  = map[string][]byte{}
		work = make(chan struct{}, runtime.NumCPU())
	)
	for _, d := range ds {
		ext := extract.Extractor{Dest: d.name, Exclude: d.exclude, Include: d.include, Tag: d.tags}
		for _, pkg := range d.pkgs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				work <- struct{}{}
				defer func() { <-work }()
				var buf bytes.Buffer
				p, err := ext.Extract(pkg, d.name, &buf)
				mu.Lock()
				defer mu.Unlock()
				if err != nil {
					t.Errorf("extracting %s: %v", pkg, err)
					return
				}
				out[files.Replace(p)+".go"] = buf.Bytes()
			}()
		}
	}
	wg.Wait()
	return out
}

// checkedIn returns the generated files in this directory.
func checkedIn(t *testing.T) map[string][]byte {
	names, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	for _, n := range names {
		if n == "symbols.go" || strings.HasSuffix(n, "_test.go") {
			continue
		}
		b, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		out[n] = b
	}
	return out
}

// buildLines are the Go-version constraints yaegi writes for standard
// packages, which follow the Go release that ran it rather than the API.
var buildLines = regexp.MustCompile(`(?m)^//( \+build|go:build) .*$`)

func normalize(src []byte) []byte { return buildLines.ReplaceAll(src, nil) }

// TestSymbolsCoverPackages checks that the tables name the packages the
// kernel promises cells, under the keys interp.Use expects.
func TestSymbolsCoverPackages(t *testing.T) {
	for _, key := range []string{
		"gdlab/engine/game/game", "gdlab/engine/prover/prover", "gdlab/engine/heuristic/heuristic",
		"gdlab/engine/search/search", "gdlab/engine/match/match", "gdlab/engine/stats/stats", "gdlab/datasets/datasets",
		"gdlab/kernel/display/display", "gdlab/kernel/cell/cell",
		"gonum.org/v1/gonum/stat/stat", "gonum.org/v1/gonum/mat/mat",
		"github.com/go-echarts/go-echarts/v2/charts/charts",
	} {
		if len(Symbols[key]) == 0 {
			t.Errorf("Symbols[%q] is empty", key)
		}
	}
	if _, ok := Symbols["gdlab/engine/search/searchtest/searchtest"]["Conform"]; ok {
		t.Error("searchtest.Conform is extracted, but a cell cannot make the *testing.T it needs")
	}
}
