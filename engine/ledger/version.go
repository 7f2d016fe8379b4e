package ledger

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	pathpkg "path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// versionDirs are the source trees whose code decides experiments'
// results: the engine and the curated games.
var versionDirs = []string{"engine", "datasets"}

// CodeVersion returns a short hash of the code that decides results, the
// whole engine's: every Go file under engine/ and datasets/ of the
// repository at root, tests excluded, read as tokens without comments and
// layout (so a change to a doc comment or to gofmt's layout keeps the
// version); the data runs read (see isData): the rules and positions
// under datasets/ and the files under the engine's testdata directories;
// and go.mod and go.sum. Runs with the same version ran the same code; a
// verdict pools only those.
func CodeVersion(root string) (string, error) {
	return versionOf(root, func(string) bool { return true })
}

// CodeVersionOf returns the version of the code a scope of packages
// reaches (see AddScope): as CodeVersion, but of the Go files and testdata
// of the packages in the scope's Closure only, with all the data under
// datasets/, go.mod and go.sum. A change to a package no package of the
// scope imports keeps the version, so a notebook's runs stay current
// until code they could have run changes. An empty scope is the whole
// engine: CodeVersion.
func CodeVersionOf(root string, scope []string) (string, error) {
	if len(scope) == 0 {
		return CodeVersion(root)
	}
	dirs, err := Closure(root, scope)
	if err != nil {
		return "", err
	}
	return versionOf(root, func(dir string) bool {
		_, found := slices.BinarySearch(dirs, dir)
		return found
	})
}

// versionOf hashes go.mod, go.sum, the data, and the Go files and
// testdata of the packages (directories relative to root) that in
// accepts.
func versionOf(root string, in func(pkgDir string) bool) (string, error) {
	h := sha256.New()
	for _, name := range []string{"go.mod", "go.sum"} {
		if err := hashFile(h, root, name, false); err != nil {
			return "", err
		}
	}
	for _, dir := range versionDirs {
		files, err := sourceFiles(root, dir, in)
		if err != nil {
			return "", err
		}
		for _, f := range files {
			if err := hashFile(h, root, f, strings.HasSuffix(f, ".go")); err != nil {
				return "", err
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil))[:12], nil
}

// sourceFiles lists, in a fixed order, the files under root/dir that the
// version covers, relative to root: the data (isData), and of each
// package that in accepts (a directory, relative to root, holding Go
// files that are not tests) its non-test Go files and every other file
// it owns, those below it but not below another package: its testdata,
// and what it embeds. Documentation (.md) and tests are left out, and so
// are the results and the ledger, which runs write.
func sourceFiles(root, dir string, in func(pkgDir string) bool) ([]string, error) {
	var all []string
	pkgs := map[string]bool{}
	err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		switch {
		case d.IsDir():
			if rel == "datasets/results" || rel == "datasets/ledger" || strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
		case strings.HasSuffix(rel, "_test.go"), strings.HasSuffix(rel, ".md"):
		default:
			all = append(all, rel)
			if strings.HasSuffix(rel, ".go") && !inTestdata(rel) {
				pkgs[pathpkg.Dir(rel)] = true
			}
		}
		return nil
	})
	var out []string
	for _, rel := range all {
		if isData(rel) {
			out = append(out, rel)
		} else if owner, ok := ownerOf(rel, pkgs); !ok || in(owner) {
			out = append(out, rel) // a file no package owns is kept
		}
	}
	slices.Sort(out)
	return out, err
}

// inTestdata reports whether a path lies in a testdata directory, where
// Go files make no package.
func inTestdata(rel string) bool {
	return strings.HasPrefix(rel, "testdata/") || strings.Contains(rel, "/testdata/")
}

// ownerOf returns the package directory that owns a file: the nearest
// directory above it that is a package.
func ownerOf(rel string, pkgs map[string]bool) (string, bool) {
	for d := pathpkg.Dir(rel); d != "." && d != "/"; d = pathpkg.Dir(d) {
		if pkgs[d] {
			return d, true
		}
	}
	return "", false
}

// isData reports whether a file is data that every version covers,
// whatever the scope: a curated game's files, and the rules (.kif, .gdl)
// and positions (.json) elsewhere under datasets/. sourceFiles has left
// out the ledger and the results tables before asking: the corpus tests
// write the tables (and record their runs in the ledger, under the
// version of the code that computed them); notebooks show them.
func isData(rel string) bool {
	if strings.HasPrefix(rel, "datasets/games/") {
		return true
	}
	if !strings.HasPrefix(rel, "datasets/") {
		return false
	}
	switch pathpkg.Ext(rel) {
	case ".kif", ".gdl", ".json":
		return true
	}
	return false
}

// hashFile adds a file's name and contents to h: for Go source, its code
// printed again without comments.
func hashFile(h interface{ Write([]byte) (int, error) }, root, rel string, goSource bool) error {
	data, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		return fmt.Errorf("ledger: code version: %w", err)
	}
	if goSource {
		if data, err = codeOnly(rel, data); err != nil {
			return err
		}
	}
	fmt.Fprintf(h, "%s %d\n", rel, len(data))
	h.Write(data)
	return nil
}

// codeOnly returns a Go file's tokens without its comments and layout:
// one token a line, with the semicolons the scanner inserts at line ends
// left out, so that only a change to the code changes the result.
func codeOnly(name string, src []byte) ([]byte, error) {
	fset := token.NewFileSet()
	var (
		sc   scanner.Scanner
		bad  error
		buf  bytes.Buffer
		file = fset.AddFile(name, -1, len(src))
	)
	sc.Init(file, src, func(pos token.Position, msg string) {
		if bad == nil {
			bad = fmt.Errorf("ledger: code version: %s: %s", pos, msg)
		}
	}, 0)
	for {
		_, tok, lit := sc.Scan()
		if tok == token.EOF {
			break
		}
		if tok == token.SEMICOLON && lit == "\n" {
			continue
		}
		fmt.Fprintf(&buf, "%s %s\n", tok, lit)
	}
	return buf.Bytes(), bad
}

// Root returns the repository root: $GDLAB_ROOT when set, else the nearest
// directory at or above the working directory whose go.mod declares module
// gdlab.
func Root() (string, error) {
	if r := os.Getenv("GDLAB_ROOT"); r != "" {
		return r, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if data, err := os.ReadFile(filepath.Join(dir, "go.mod")); err == nil && bytes.HasPrefix(bytes.TrimSpace(data), []byte("module gdlab")) {
			return dir, nil
		}
		up := filepath.Dir(dir)
		if up == dir {
			return "", errors.New("ledger: no gdlab repository at or above the working directory (set GDLAB_ROOT)")
		}
		dir = up
	}
}

// Load returns the machine's load averages over 1, 5 and 15 minutes, or nil
// where the system does not say (it reads /proc/loadavg).
func Load() []float64 {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return nil
	}
	fields := strings.Fields(string(data))
	if len(fields) < 3 {
		return nil
	}
	var out []float64
	for _, f := range fields[:3] {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			return nil
		}
		out = append(out, v)
	}
	return out
}

// Versions computes the code versions of the scopes of records at one
// repository root, each scope once.
type Versions struct {
	root string
	of   map[string]string
}

// NewVersions returns the versions of the code at root.
func NewVersions(root string) *Versions {
	return &Versions{root: root, of: map[string]string{}}
}

// Of returns CodeVersionOf(root, scope), computed once per scope.
func (v *Versions) Of(scope []string) (string, error) {
	key := strings.Join(scope, "\n")
	if ver, ok := v.of[key]; ok {
		return ver, nil
	}
	ver, err := CodeVersionOf(v.root, scope)
	if err != nil {
		return "", err
	}
	v.of[key] = ver
	return ver, nil
}

// Current reports whether rec ran the code at root now: whether its
// version is the version its scope has now. A scope naming a package that
// no longer exists ran other code: not current.
func (v *Versions) Current(rec Record) (bool, error) {
	ver, err := v.Of(rec.Scope)
	if errors.Is(err, errNoPackage) {
		return false, nil
	}
	return ver == rec.Version, err
}
