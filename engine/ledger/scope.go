package ledger

import (
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// errNoPackage is the error of a scope that names a package the
// repository does not have.
var errNoPackage = errors.New("not in the repository")

// modulePath is the import path of the repository's module; Root accepts
// only a go.mod that declares it.
const modulePath = "gdlab"

// scope is the process's scope: the packages whose code a record written
// now may have run.
var scope struct {
	sync.Mutex
	pkgs []string
}

// AddScope adds import paths to the process's scope, the packages whose
// code (with everything they import) the records this process writes may
// have run. The kernel adds every package a cell imports, before the cell
// runs, so that a notebook's records are versioned by the code they can
// reach (see CodeVersionOf). Paths outside the module are ignored: the
// standard library and go.sum's modules are covered by every version. A
// process that adds none, such as a command or a test, has the whole
// engine for scope.
func AddScope(paths ...string) {
	scope.Lock()
	defer scope.Unlock()
	for _, p := range paths {
		if inModule(p) && !slices.Contains(scope.pkgs, p) {
			scope.pkgs = append(scope.pkgs, p)
		}
	}
	slices.Sort(scope.pkgs)
}

// SetScope replaces the process's scope with the module's paths among
// paths; none makes it the whole engine again.
func SetScope(paths []string) {
	scope.Lock()
	scope.pkgs = nil
	scope.Unlock()
	AddScope(paths...)
}

// Scope returns the process's scope, sorted; nil when it is the whole
// engine.
func Scope() []string {
	scope.Lock()
	defer scope.Unlock()
	return slices.Clone(scope.pkgs)
}

// inModule reports whether an import path names a package of the module.
func inModule(path string) bool {
	return path == modulePath || strings.HasPrefix(path, modulePath+"/")
}

// Closure returns the directories (relative to root, slash-separated,
// sorted) of the packages of the module that the packages of scope import,
// directly or not, themselves included. Imports are read from every Go
// file of a package but its tests, whatever its build constraints, so the
// closure holds at least what any build runs. A scope path naming no
// directory of the repository is an error.
func Closure(root string, scope []string) ([]string, error) {
	seen := map[string]bool{}
	queue := slices.Clone(scope)
	for len(queue) > 0 {
		path := queue[0]
		queue = queue[1:]
		if !inModule(path) || seen[path] {
			continue
		}
		seen[path] = true
		imports, err := packageImports(root, path)
		if err != nil {
			return nil, err
		}
		queue = append(queue, imports...)
	}
	var dirs []string
	for path := range seen {
		dirs = append(dirs, packageDir(path))
	}
	slices.Sort(dirs)
	return dirs, nil
}

// packageDir is the directory of a package of the module, relative to the
// repository root.
func packageDir(path string) string {
	return strings.TrimPrefix(strings.TrimPrefix(path, modulePath), "/")
}

// packageImports lists the import paths of a package's non-test Go files.
func packageImports(root, path string) ([]string, error) {
	dir := filepath.Join(root, filepath.FromSlash(packageDir(path)))
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("ledger: code version: package %s: %w", path, errNoPackage)
	}
	if err != nil {
		return nil, fmt.Errorf("ledger: code version: package %s: %w", path, err)
	}
	fset := token.NewFileSet()
	var out []string
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.ImportsOnly)
		if err != nil {
			return nil, fmt.Errorf("ledger: code version: %w", err)
		}
		for _, spec := range f.Imports {
			p, err := strconv.Unquote(spec.Path.Value)
			if err != nil {
				return nil, fmt.Errorf("ledger: code version: %s: %w", fset.Position(spec.Pos()), err)
			}
			out = append(out, p)
		}
	}
	return out, nil
}

// pins holds, per repository root, the sources' version when the process
// pinned them (a *pin).
var pins sync.Map

// pin is the whole engine's version at one root, computed once.
type pin struct {
	once    sync.Once
	version string
	err     error
}

// PinSources records the version of the whole engine at root as it is
// now, for CheckPinned. The kernel pins its sources when it starts, since
// its engine was compiled from them just before (scripts/notebooks.sh
// builds it), so that a run cannot be recorded under the version of
// sources edited while it ran. The version is computed at most once per
// root; PinSources may run on its own goroutine while CheckPinned waits
// for it.
func PinSources(root string) {
	v, _ := pins.LoadOrStore(root, &pin{})
	p := v.(*pin)
	p.once.Do(func() { p.version, p.err = CodeVersion(root) })
}

// CheckPinned returns an error when the sources at root were pinned and
// their version has changed since: the code that runs is no longer the
// code the tree holds, and no record should name the tree's version.
func CheckPinned(root string) error {
	v, ok := pins.Load(root)
	if !ok {
		return nil
	}
	p := v.(*pin)
	p.once.Do(func() { p.version, p.err = CodeVersion(root) })
	if p.err != nil {
		return p.err
	}
	now, err := CodeVersion(root)
	if err != nil {
		return err
	}
	if now != p.version {
		return fmt.Errorf("ledger: the sources at %s changed while this process ran (version %s when it started, %s now): rebuild and run again, so that the record names the code that ran", root, p.version, now)
	}
	return nil
}
