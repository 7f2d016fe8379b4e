package prover

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gdlab/engine/gdl"
)

// TestModes checks which relations are answered on demand, and with which
// arguments bound ("b") or free ("f"), once a static relation over the
// bound is asked instead: the testdata game, and the two corpus games that
// need questions with free arguments (when the corpus is present).
func TestModes(t *testing.T) {
	shared := os.Getenv("GDLAB_SHARED")
	if shared == "" {
		shared = filepath.Join("..", "..", "..", "shared")
	}
	for _, c := range []struct {
		file, over string
		want       map[string]string
	}{
		{filepath.Join("testdata", "walks.kif"), "hop/4",
			map[string]string{"hop/4": "fbfb", "walk/3": "fbf", "near/2": "fb", "back/1": "b", "long/1": "b"}},
		{filepath.Join("testdata", "stale.kif"), "hop/4",
			map[string]string{"hop/4": "fbfb", "reach/2": "fb", "link/2": "fb", "via/2": "ff"}},
		{filepath.Join(shared, "games", "laikLee_hex", "laikLee_hex.kif"), "isList/1",
			map[string]string{"isList/1": "b", "append_el/3": "fbf", "connection/6": "fffffb", "connection2/6": "fffffb"}},
		{filepath.Join(shared, "games", "mummymaze1p", "mummymaze1p.kif"), "direction-from/5",
			map[string]string{"direction-from/5": "bbbbb", "movetoward/5": "ffbbf",
				"some-horiz-component/1": "b", "some-vert-component/1": "b"}},
	} {
		d, err := gdl.ParseFile(c.file)
		if os.IsNotExist(err) {
			t.Logf("%s not found: skipped", c.file)
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		p, err := compile(d)
		if err != nil {
			t.Fatal(err)
		}
		if !p.askInstead(c.over, make([]bool, len(p.rels))) {
			t.Errorf("%s: %s is not answered on demand", c.file, c.over)
		}
		if got := p.modes(); !equalModes(got, c.want) {
			t.Errorf("%s: modes %v, want %v", c.file, got, c.want)
		}
	}
}

// modes returns the mode of every relation on demand, by name/arity.
func (p *program) modes() map[string]string {
	out := map[string]string{}
	for _, rel := range p.rels {
		if !rel.demand {
			continue
		}
		var b strings.Builder
		for _, n := range rel.need {
			if n {
				b.WriteByte('b')
			} else {
				b.WriteByte('f')
			}
		}
		out[relKey(rel.name, rel.arity)] = b.String()
	}
	return out
}

func equalModes(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}
