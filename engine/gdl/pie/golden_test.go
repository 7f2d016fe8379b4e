package pie_test

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"gdlab/engine/gdl"
	"gdlab/engine/gdl/check"
	"gdlab/engine/gdl/pie"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the current output")

// TestTransformGolden transforms every testdata/*.kif file and compares the
// result with the .golden file beside it: the variant in canonical form, or
// the positioned errors. A variant must parse back to itself and pass
// gdl/check, as its input does.
func TestTransformGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.kif"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			got := transformText(t, filepath.ToSlash(file))
			golden := file[:len(file)-len(".kif")] + ".golden"
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update)", err)
			}
			if got != string(want) {
				t.Errorf("output differs from %s:\n%s", golden, got)
			}
		})
	}
}

// transformText returns the variant of a file in canonical form, checked,
// or the transform's errors one a line.
func transformText(t *testing.T, file string) string {
	d, err := gdl.ParseFile(file)
	if err != nil {
		t.Fatal(err)
	}
	v, err := pie.Transform(d, pie.Options{})
	var list gdl.ErrorList
	if errors.As(err, &list) {
		return list.Detail()
	}
	if err != nil {
		t.Fatalf("Transform returned %T, want gdl.ErrorList: %v", err, err)
	}
	out := gdl.Format(v)
	again, err := gdl.Parse("variant", []byte(out))
	if err != nil || gdl.Format(again) != out {
		t.Errorf("the variant does not parse back to itself (%v)", err)
	}
	if errs := check.Check(again); len(errs) > 0 {
		t.Errorf("the variant fails gdl/check:\n%s", errs.Detail())
	}
	return out
}
