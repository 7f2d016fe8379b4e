package gdl

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the testdata/*/*.golden files from the current output")

// TestScannerGolden scans every testdata/scanner/*.kif file and compares its
// token stream, one token a line with its line:col, with the .golden file
// beside it.
func TestScannerGolden(t *testing.T) {
	golden(t, "scanner", func(t *testing.T, file string, src []byte) string {
		return tokens(src)
	})
}

// TestParserGolden parses every testdata/parser/*.kif file and compares the
// result with the .golden file beside it: the canonical form (Format) when
// the text parses, and otherwise the positioned errors followed by the rules
// read despite them. Files named valid_*.kif must parse without error, and
// their canonical form must parse back to itself; the others must fail.
func TestParserGolden(t *testing.T) {
	golden(t, "parser", func(t *testing.T, file string, src []byte) string {
		d, err := Parse(file, src)
		valid := strings.HasPrefix(filepath.Base(file), "valid_")
		switch {
		case valid && err != nil:
			t.Errorf("valid description has errors:\n%s", err.(ErrorList).Detail())
		case !valid && err == nil:
			t.Errorf("invalid description parses without error")
		}
		if err == nil {
			out := Format(d)
			if again, err := Parse("canonical", []byte(out)); err != nil || Format(again) != out {
				t.Errorf("canonical form does not parse back to itself (%v)", err)
			}
			return out
		}
		list, ok := err.(ErrorList)
		if !ok {
			t.Fatalf("Parse returned %T, want ErrorList", err)
		}
		out := list.Detail()
		if len(d.Rules) > 0 {
			out += "-- rules read --\n" + Format(d)
		}
		return out
	})
}

// golden runs out on every testdata/dir/*.kif file, in a subtest named after
// it, and compares what it returns with the file's .golden sibling, or
// rewrites the sibling under -update. The file name given to out is
// slash-separated, so that positions read the same on every system.
func golden(t *testing.T, dir string, out func(t *testing.T, file string, src []byte) string) {
	files, err := filepath.Glob(filepath.Join("testdata", dir, "*.kif"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata in testdata/%s: %v", dir, err)
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".kif"), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			got := out(t, filepath.ToSlash(file), src)
			goldenFile := strings.TrimSuffix(file, ".kif") + ".golden"
			if *update {
				if err := os.WriteFile(goldenFile, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(goldenFile)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("output differs from %s\ngot:\n%s\nwant:\n%s", goldenFile, got, want)
			}
		})
	}
}

// tokens scans src to the end and prints each token on its own line as
// line:col, then the kind, then for a symbol its text quoted and, when the
// scanner lowered a keyword, the spelling in the source.
func tokens(src []byte) string {
	f := NewFile("", src)
	sc := scanner{src: src}
	var b strings.Builder
	for {
		tok, off, sym := sc.next()
		pos := f.Position(f.Pos(off))
		fmt.Fprintf(&b, "%d:%d\t", pos.Line, pos.Column)
		switch tok {
		case tokEOF:
			b.WriteString("EOF\n")
			return b.String()
		case tokLparen:
			b.WriteString("(\n")
		case tokRparen:
			b.WriteString(")\n")
		case tokSymbol:
			fmt.Fprintf(&b, "symbol\t%q", sym)
			if written := string(src[off:sc.off]); written != sym {
				fmt.Fprintf(&b, "\twritten %q", written)
			}
			b.WriteByte('\n')
		}
	}
}
