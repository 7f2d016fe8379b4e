package pie_test

import (
	"errors"
	"path/filepath"
	"testing"

	"gdlab/engine/gdl"
	"gdlab/engine/gdl/check"
	"gdlab/engine/gdl/pie"
)

// TestCorpusTransform transforms every rulesheet of the public repository:
// Transform never panics, it fails only with a gdl.ErrorList, and a variant
// parses back to itself and passes gdl/check wherever its game does.
func TestCorpusTransform(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(sharedDir(t), "games", "*", "*.kif"))
	accepted := 0
	for _, f := range files {
		d, err := gdl.ParseFile(f)
		if err != nil {
			continue
		}
		v, err := pie.Transform(d, pie.Options{})
		var list gdl.ErrorList
		if err != nil {
			if !errors.As(err, &list) {
				t.Errorf("%s: %T %v, want a gdl.ErrorList", f, err, err)
			}
			continue
		}
		accepted++
		out := gdl.Format(v)
		again, err := gdl.Parse("variant", []byte(out))
		if err != nil || gdl.Format(again) != out {
			t.Errorf("%s: the variant does not parse back to itself (%v)", f, err)
		}
		if len(check.Check(d)) == 0 {
			if errs := check.Check(again); len(errs) > 0 {
				t.Errorf("%s: the variant fails gdl/check:\n%s", f, errs.Detail())
			}
		}
	}
	t.Logf("%d of %d rulesheets transformed", accepted, len(files))
}
