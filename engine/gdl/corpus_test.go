package gdl_test

import (
	"os"
	"path/filepath"
	"testing"

	"gdlab/engine/gdl"
)

// sharedDir returns the shared corpus directory, or skips the test.
func sharedDir(t testing.TB) string {
	dir := os.Getenv("GDLAB_SHARED")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared")
	}
	if _, err := os.Stat(filepath.Join(dir, "games")); err != nil {
		t.Skipf("shared corpus not found at %s (set GDLAB_SHARED): skipping", dir)
	}
	return dir
}

// TestParseCorpus parses every rulesheet of the public repository and checks
// that canonical printing is a fixed point: print(parse(print(x))) == print(x).
func TestParseCorpus(t *testing.T) {
	dir := sharedDir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "games", "*", "*.kif"))
	if len(files) == 0 {
		t.Fatal("no rulesheets found")
	}
	for _, f := range files {
		d, err := gdl.ParseFile(f)
		if err != nil {
			t.Errorf("%v", err)
			continue
		}
		once := gdl.Format(d)
		d2, err := gdl.Parse("printed", []byte(once))
		if err != nil {
			t.Errorf("%s: reparse of canonical form: %v", f, err)
			continue
		}
		if twice := gdl.Format(d2); twice != once {
			t.Errorf("%s: canonical form is not a fixed point", f)
		}
	}
	t.Logf("%d rulesheets parsed", len(files))
}

// BenchmarkParseLargest parses the largest rulesheet of the corpus.
func BenchmarkParseLargest(b *testing.B) {
	dir := sharedDir(b)
	files, _ := filepath.Glob(filepath.Join(dir, "games", "*", "*.kif"))
	var largest string
	var size int64
	for _, f := range files {
		if st, err := os.Stat(f); err == nil && st.Size() > size {
			largest, size = f, st.Size()
		}
	}
	src, err := os.ReadFile(largest)
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("%s: %d bytes", filepath.Base(largest), size)
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := gdl.Parse(largest, src); err != nil {
			b.Fatal(err)
		}
	}
}
