package layering

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
)

const module = "gdlab"

// graph maps each package that the module's packages build on, the module's
// own included, to its non-test imports.
type graph map[string][]string

var (
	graphOnce sync.Once
	graphData graph
	graphErr  error
)

// moduleGraph returns the import graph of every package of the module and of
// everything they depend on, from one `go list -deps` run shared by the
// tests. It skips the test when the go command is not on PATH (go test puts
// its own GOROOT/bin first, so this happens only outside go test).
func moduleGraph(t *testing.T) graph {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("the go command is not on PATH: skipping the layering checks")
	}
	graphOnce.Do(func() {
		out, err := exec.Command("go", "list", "-deps",
			"-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}", module+"/...").Output()
		if err != nil {
			if ee, ok := err.(*exec.ExitError); ok {
				err = fmt.Errorf("%v: %s", err, ee.Stderr)
			}
			graphErr = fmt.Errorf("go list: %v", err)
			return
		}
		graphData = graph{}
		for line := range strings.Lines(string(out)) {
			fields := strings.Fields(line)
			if len(fields) > 0 {
				graphData[fields[0]] = fields[1:]
			}
		}
	})
	if graphErr != nil {
		t.Fatal(graphErr)
	}
	return graphData
}

// packages returns the module's own packages, sorted.
func (g graph) packages() []string {
	var out []string
	for p := range g {
		if under(p, module) {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

// path returns a shortest chain of imports from one package to another,
// both ends included, or nil when from does not depend on to.
func (g graph) path(from, to string) []string {
	prev := map[string]string{from: ""}
	queue := []string{from}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if p == to {
			var chain []string
			for ; p != ""; p = prev[p] {
				chain = append(chain, p)
			}
			slices.Reverse(chain)
			return chain
		}
		for _, q := range g[p] {
			if _, seen := prev[q]; !seen {
				prev[q] = p
				queue = append(queue, q)
			}
		}
	}
	return nil
}

// under reports whether package p is root or lies below it.
func under(p, root string) bool { return p == root || strings.HasPrefix(p, root+"/") }

// TestEngineDoesNotImportKernel checks that no package under engine/ depends
// on a package under kernel/, directly or through another package: the
// engine is a library, and the kernel is one of its clients. It reports each
// import that leaves engine/ towards kernel/, with a chain that reaches it.
func TestEngineDoesNotImportKernel(t *testing.T) {
	g := moduleGraph(t)
	var kernel []string
	for _, p := range g.packages() {
		if under(p, module+"/kernel") {
			kernel = append(kernel, p)
		}
	}
	for _, p := range g.packages() {
		if !under(p, module+"/engine") {
			continue
		}
		for _, q := range g[p] {
			if under(q, module+"/engine") {
				continue
			}
			for _, k := range kernel {
				if chain := g.path(q, k); chain != nil {
					t.Errorf("%s imports %s, which leads to kernel/: %s -> %s", p, q, p, strings.Join(chain, " -> "))
					break
				}
			}
		}
	}
}

// TestSearchDoesNotImportPropnet checks that no package under engine/search
// imports engine/propnet (or a package below it) directly: searchers play
// through game interfaces, so that any reasoner can drive them. They may
// still depend on it through engine/analysis.
func TestSearchDoesNotImportPropnet(t *testing.T) {
	g := moduleGraph(t)
	for _, p := range g.packages() {
		if !under(p, module+"/engine/search") {
			continue
		}
		for _, q := range g[p] {
			if under(q, module+"/engine/propnet") {
				t.Errorf("%s imports %s", p, q)
			}
		}
	}
}

// knownTestingImporters are the packages known to link package testing (or a
// package below it) into the gdlab binary, with why. The test skips while
// these are the only ones, and fails on any other.
var knownTestingImporters = map[string]string{
	"github.com/traefik/yaegi/stdlib":        "yaegi's symbol table of the standard library, which cells get, includes testing",
	"github.com/apache/thrift/lib/go/thrift": "Thrift's Go library, under the Parquet writer of engine/experiment/sweep (parquet-go), has a non-test file importing testing",
}

// TestBinaryDoesNotLinkTesting checks that the gdlab binary does not link
// package testing, whose flags and helpers belong in test binaries only. It
// names each package outside testing/ that imports testing or a package
// below it, with the chain of imports from the binary.
func TestBinaryDoesNotLinkTesting(t *testing.T) {
	g := moduleGraph(t)
	bin := module + "/cmd/gdlab"
	deps := map[string]bool{}
	for p := range g {
		if g.path(bin, p) != nil {
			deps[p] = true
		}
	}
	if !deps["testing"] {
		return
	}
	var known, unknown []string
	for p := range deps {
		if under(p, "testing") {
			continue
		}
		if !slices.ContainsFunc(g[p], func(q string) bool { return under(q, "testing") }) {
			continue
		}
		line := strings.Join(g.path(bin, p), " -> ")
		if why, ok := knownTestingImporters[p]; ok {
			known = append(known, line+" ("+why+")")
		} else {
			unknown = append(unknown, line)
		}
	}
	sort.Strings(known)
	sort.Strings(unknown)
	for _, line := range unknown {
		t.Errorf("the gdlab binary links package testing through %s", line)
	}
	if len(unknown) == 0 {
		t.Skipf("the gdlab binary links package testing through: %s", strings.Join(known, "; "))
	}
}

// TestArchitectureImports checks the import block of docs/architecture.md
// (the fenced block marked "imports" under "Layers and import direction")
// against the code. The block has one line per package:
//
//	engine/search: engine/game engine/heuristic   # a comment
//
// The package before the colon may import the packages after it; paths are
// relative to the module, a path ending in "/..." stands for the package and
// every package below it, several lines may match one package (their
// allowances add up), and "#" starts a comment. Only non-test imports
// between packages of the module count. The test fails when an import is
// not allowed, when a package of the module matches no line, and when a
// path of the block matches no package.
func TestArchitectureImports(t *testing.T) {
	g := moduleGraph(t)
	rules := readImportsBlock(t, filepath.Join("..", "..", "docs", "architecture.md"))
	pkgs := g.packages()
	used := map[string]bool{}
	for _, r := range rules {
		for _, pattern := range append([]string{r.pkg}, r.may...) {
			if !slices.ContainsFunc(pkgs, func(p string) bool { return matches(pattern, p) }) && !used[pattern] {
				used[pattern] = true
				t.Errorf("architecture.md:%d: %s names no package of the module", r.line, pattern)
			}
		}
	}
	for _, p := range pkgs {
		var lines []rule
		for _, r := range rules {
			if matches(r.pkg, p) {
				lines = append(lines, r)
			}
		}
		if len(lines) == 0 {
			t.Errorf("%s has no line in the imports block of architecture.md", p)
			continue
		}
		for _, q := range g[p] {
			if !under(q, module) {
				continue
			}
			if !slices.ContainsFunc(lines, func(r rule) bool { return r.allows(q) }) {
				t.Errorf("%s imports %s, which the imports block of architecture.md does not allow", p, q)
			}
		}
	}
}

// rule is one line of the imports block: pkg may import the packages may
// names.
type rule struct {
	line int
	pkg  string
	may  []string
}

func (r rule) allows(p string) bool {
	return slices.ContainsFunc(r.may, func(pattern string) bool { return matches(pattern, p) })
}

// matches reports whether pattern, a path of the block, stands for the
// module's package p.
func matches(pattern, p string) bool {
	if root, ok := strings.CutSuffix(pattern, "/..."); ok {
		return under(p, module+"/"+root)
	}
	return p == module+"/"+pattern
}

// readImportsBlock returns the rules of the first ```imports block in the
// "Layers and import direction" section of the file at path.
func readImportsBlock(t *testing.T, path string) []rule {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rules []rule
	section, block, found := false, false, false
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "## "):
			section = line == "## Layers and import direction"
		case section && !found && line == "```imports":
			block, found = true, true
		case block && line == "```":
			block = false
		case block:
			if i := strings.IndexByte(line, '#'); i >= 0 {
				line = line[:i]
			}
			if strings.TrimSpace(line) == "" {
				continue
			}
			pkg, may, ok := strings.Cut(line, ":")
			if !ok || strings.TrimSpace(pkg) == "" {
				t.Fatalf("%s:%d: want \"package: imports...\", got %q", path, n, line)
			}
			rules = append(rules, rule{line: n, pkg: strings.TrimSpace(pkg), may: strings.Fields(may)})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if !found {
		t.Fatalf("%s: no ```imports block under \"## Layers and import direction\"", path)
	}
	if block {
		t.Fatalf("%s: the ```imports block is not closed", path)
	}
	return rules
}
