package corpus

import (
	"path/filepath"
	"testing"

	"gdlab/engine/ledger"
)

// TestReaders reads each committed table through its reader (no corpus
// needed): as many rows as the file has, games named and in order.
func TestReaders(t *testing.T) {
	root, err := ledger.Root()
	if err != nil {
		t.Fatal(err)
	}
	games := func(rows int, game func(i int) string, file string) {
		_, order, err := readRows(filepath.Join(root, "datasets", "results", file))
		if err != nil {
			t.Fatal(err)
		}
		if rows != len(order) || rows == 0 {
			t.Fatalf("%s: the reader gives %d rows, the file has %d", file, rows, len(order))
		}
		for i, g := range order {
			if game(i) != g || g == "" {
				t.Fatalf("%s: row %d is %q, the file says %q", file, i, game(i), g)
			}
		}
	}
	l, err := ReadLatches()
	if err != nil {
		t.Fatal(err)
	}
	games(len(l), func(i int) string { return l[i].Game }, LatchesFile)
	e, err := ReadEnablement()
	if err != nil {
		t.Fatal(err)
	}
	games(len(e), func(i int) string { return e[i].Game }, EnablementFile)
	m, err := ReadEmulation()
	if err != nil {
		t.Fatal(err)
	}
	games(len(m), func(i int) string { return m[i].Game }, EmulationFile)
	f, err := ReadFactors()
	if err != nil {
		t.Fatal(err)
	}
	games(len(f), func(i int) string { return f[i].Game }, FactorsFile)
}
