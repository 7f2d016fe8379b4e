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
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// versionDirs are the source trees whose code decides experiments'
// results: the engine and the curated games.
var versionDirs = []string{"engine", "datasets"}

// CodeVersion returns a short hash of the code that decides results: every
// Go file under engine/ and datasets/ of the repository at root, tests
// excluded, read as tokens without comments and layout (so a change to a
// doc comment or to gofmt's layout keeps the version), every other file under datasets/games (the
// rules), and go.mod and go.sum. Runs with the same version ran the same
// code; a verdict pools only those.
func CodeVersion(root string) (string, error) {
	h := sha256.New()
	for _, name := range []string{"go.mod", "go.sum"} {
		if err := hashFile(h, root, name, false); err != nil {
			return "", err
		}
	}
	for _, dir := range versionDirs {
		files, err := sourceFiles(root, dir)
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
// version covers, relative to root.
func sourceFiles(root, dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		switch {
		case d.IsDir():
			if rel == "datasets/results" || strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
		case strings.HasSuffix(rel, "_test.go"):
		case strings.HasSuffix(rel, ".go"), strings.HasPrefix(rel, "datasets/games/"):
			out = append(out, rel)
		}
		return nil
	})
	slices.Sort(out)
	return out, err
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
