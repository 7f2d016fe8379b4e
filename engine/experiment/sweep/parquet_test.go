package sweep

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"testing"

	"github.com/xitongsys/parquet-go/reader"
	"github.com/xitongsys/parquet-go/source"
)

// memFile is a Parquet file in memory, for the reader.
type memFile struct{ *bytes.Reader }

func (f memFile) Open(string) (source.ParquetFile, error) {
	return memFile{bytes.NewReader(readAll(f.Reader))}, nil
}
func (memFile) Create(string) (source.ParquetFile, error) { return nil, errors.New("read-only") }
func (memFile) Write([]byte) (int, error)                 { return 0, errors.New("read-only") }
func (memFile) Close() error                              { return nil }

func readAll(r *bytes.Reader) []byte {
	b := make([]byte, r.Size())
	r.ReadAt(b, 0)
	return b
}

// TestParquetRoundTrip writes a sweep's table as Parquet, reads it back
// column by column and compares every cell with the CSV's.
func TestParquetRoundTrip(t *testing.T) {
	spec := smallSpec()
	spec.Games = []string{"ticTacToe"}
	spec.Seeds = 2
	tab, err := Run(context.Background(), spec, Options{Runner: RunnerLocal, Dir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := tab.WriteParquet(&buf); err != nil {
		t.Fatal(err)
	}
	pr, err := reader.NewParquetColumnReader(memFile{bytes.NewReader(buf.Bytes())}, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer pr.ReadStop()
	header, recs := tab.records(true)
	if n := pr.GetNumRows(); n != int64(len(recs)) {
		t.Fatalf("%d rows read, %d written", n, len(recs))
	}
	t.Logf("%d rows × %d columns: %v", len(recs), len(header), header)
	for c, name := range header {
		vals, _, _, err := pr.ReadColumnByIndex(int64(c), int64(len(recs)))
		if err != nil {
			t.Fatalf("column %s: %v", name, err)
		}
		if len(vals) != len(recs) {
			t.Fatalf("column %s: %d values, %d rows", name, len(vals), len(recs))
		}
		for r, v := range vals {
			if got, want := cellText(v), recs[r][c]; got != want && !(tab.columnType(name) == colDouble && sameNumber(got, want)) {
				t.Errorf("row %d column %s: read %q, wrote %q", r, name, got, want)
			}
		}
	}
}

func cellText(v interface{}) string {
	switch x := v.(type) {
	case nil:
		return ""
	case float64:
		return num(x)
	}
	return fmt.Sprint(v)
}

func sameNumber(a, b string) bool {
	x, err1 := strconv.ParseFloat(a, 64)
	y, err2 := strconv.ParseFloat(b, 64)
	return err1 == nil && err2 == nil && x == y
}
