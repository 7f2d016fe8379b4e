package datasets

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gdlab/engine/game"
)

var updateGenerated = flag.Bool("update-generated", false, "rewrite the committed instances of the generated families (rules and meta.json, perft included)")

// generatedGame is a committed instance of a generated family, with the
// verified facts its meta.json adds to the generator's description.
type generatedGame struct {
	gen      func() (*Rulesheet, error)
	perft    int  // perft depth recorded in meta.json
	complete bool // record the complete games and their outcomes, walking the whole tree
	corpus   *Corpus
	facts    []string
}

var (
	corridorCorpus = &Corpus{Key: "untwistycomplex2", Differences: "The corpus game (titled Untwisty Corridor) has length 7, its right action is always h, " +
		"and it tracks progress with facts q1..q8 and the failure latch p; ours names the latch lost and varies the right action. " +
		"Its basic version of length 7, datasets.Corridor(7, false), is compared with it: perft to depth 7 and 1,000 seeded playouts agree. " +
		"The corpus has no counterpart of the hard version."}
	hexCorpus = &Corpus{Key: "hex", Differences: "The corpus game is 9x9 and numbers connected groups in its state; ours computes chains by a recursive reach relation. " +
		"datasets.Hex(9, false) has the corpus game's roles and moves and is compared with it: perft and seeded playouts agree seed by seed."}
	hexPieCorpus = &Corpus{Key: "hexPie", Differences: "The corpus game is 9x9 and numbers connected groups in its state; its goals negate goal itself " +
		"((goal ?r 0) requires (not (goal ?r 100))), which gdl/check reports as unstratified (the reference prover accepts it by splitting the locally stratified relation). " +
		"datasets.Hex(9, true) has the corpus game's roles, moves, swap rule and goals, written with a stratified chain relation, and is compared with it: perft and seeded playouts agree seed by seed."}
)

// generatedGames lists the committed generated instances.
func generatedGames() []generatedGame {
	var out []generatedGame
	for _, n := range corridorLengths {
		out = append(out,
			generatedGame{gen: corridorGen(n, false), perft: n, complete: true, corpus: corridorCorpus,
				facts: []string{fmt.Sprintf("exactly one of the 8^%d complete games wins (completeOutcomes); there are two distinct states at every depth from 1 to %d", n, n)}},
			generatedGame{gen: corridorGen(n, true), perft: 4, corpus: corridorCorpus,
				facts: []string{"no two move sequences reach the same state: perft counts 8^d distinct states at depth d (checked to depth 4)"}})
	}
	for _, n := range hexSizes {
		out = append(out,
			generatedGame{gen: hexGen(n, false), perft: 2, corpus: hexCorpus,
				facts: []string{"every random playout ends with exactly one winner (100/0 or 0/100): a full board always holds one chain"}},
			generatedGame{gen: hexGen(n, true), perft: 3, corpus: hexPieCorpus,
				facts: []string{fmt.Sprintf("perft at depth 2 is %d: each of the %d opening stones is answered by one of %d stones or by the swap", n*n*n*n, n*n, n*n-1),
					"every random playout ends with exactly one winner (100/0 or 0/100)"}})
	}
	return out
}

func corridorGen(n int, hard bool) func() (*Rulesheet, error) {
	return func() (*Rulesheet, error) { return Corridor(n, hard) }
}

func hexGen(n int, pie bool) func() (*Rulesheet, error) {
	return func() (*Rulesheet, error) { return Hex(n, pie) }
}

// TestGenerated checks that the committed instances of the generated
// families are exactly what the generators write; -update-generated rewrites
// them.
func TestGenerated(t *testing.T) {
	for _, gg := range generatedGames() {
		g, err := gg.gen()
		if err != nil {
			t.Fatal(err)
		}
		if *updateGenerated {
			writeGenerated(t, g, gg)
		}
		committed, err := Game(g.Name)
		if err != nil {
			t.Errorf("%s: not committed (run go test ./datasets -run TestGenerated -update-generated): %v", g.Name, err)
			continue
		}
		if committed.Rules != g.Rules {
			t.Errorf("%s: committed rules differ from %s (run with -update-generated)", g.Name, g.Meta.Generator)
		}
		c, m := committed.Meta, g.Meta
		if c.Title != m.Title || c.Description != m.Description || c.Generator != m.Generator ||
			!slices.Equal(c.Roles, m.Roles) || !slices.Equal(c.UsedBy, m.UsedBy) {
			t.Errorf("%s: committed meta.json differs from the generator's description (run with -update-generated)", g.Name)
		}
	}
}

// TestGeneratorErrors checks the generators' argument checks.
func TestGeneratorErrors(t *testing.T) {
	for _, n := range []int{-1, 0, 201} {
		if _, err := Corridor(n, false); err == nil {
			t.Errorf("Corridor(%d) succeeded", n)
		}
	}
	for _, n := range []int{0, 1, 27} {
		if _, err := Hex(n, false); err == nil {
			t.Errorf("Hex(%d) succeeded", n)
		}
	}
}

// writeGenerated writes a generated instance's rules and meta.json, with
// perft computed by the reference prover.
func writeGenerated(t *testing.T, g *Rulesheet, gg generatedGame) {
	pr := newProver(t, g)
	levels, err := game.Perft(context.Background(), pr, pr.Initial(), gg.perft)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range levels {
		g.Meta.Perft = append(g.Meta.Perft, Perft{l.Depth, l.Sequences, l.States, l.Terminals})
	}
	if gg.complete {
		tree, err := walkTree(context.Background(), pr)
		if err != nil {
			t.Fatal(err)
		}
		g.Meta.Complete, g.Meta.Outcomes = tree.complete, tree.outcomes
	}
	g.Meta.Corpus, g.Meta.Facts = gg.corpus, gg.facts
	dir := filepath.Join("games", g.Name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, g.Name+".kif"), []byte(g.Rules), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "meta.json"), formatMeta(&g.Meta), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", dir)
}

// TestMetaFormat checks that every meta.json is in the canonical layout of
// formatMeta. Decoding and re-encoding also catches misspelt field names,
// which the decoder would silently drop.
func TestMetaFormat(t *testing.T) {
	for _, name := range List() {
		raw, err := gamesFS.ReadFile("games/" + name + "/meta.json")
		if err != nil {
			t.Fatal(err)
		}
		var m Meta
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&m); err != nil {
			t.Errorf("%s/meta.json: %v", name, err)
			continue
		}
		if got := formatMeta(&m); !bytes.Equal(got, raw) {
			t.Errorf("%s/meta.json is not in canonical layout; want:\n%s", name, got)
		}
	}
}

// formatMeta writes meta.json: one field per line, list items one per line,
// each perft level on one line.
func formatMeta(m *Meta) []byte {
	var fields []string
	add := func(key string, v string) { fields = append(fields, fmt.Sprintf("  %q: %s", key, v)) }
	add("name", jsonText(m.Name))
	add("title", jsonText(m.Title))
	add("roles", inlineList(m.Roles))
	add("description", jsonText(m.Description))
	if len(m.UsedBy) > 0 {
		add("usedBy", blockList(m.UsedBy))
	}
	if m.Generator != "" {
		add("generator", jsonText(m.Generator))
	}
	if len(m.Perft) > 0 {
		lines := make([]string, len(m.Perft))
		for i, p := range m.Perft {
			lines[i] = fmt.Sprintf(`{"depth": %d, "sequences": %d, "states": %d, "terminals": %d}`, p.Depth, p.Sequences, p.States, p.Terminals)
		}
		add("perft", "[\n    "+strings.Join(lines, ",\n    ")+"\n  ]")
	}
	if m.Complete != 0 {
		add("completeGames", fmt.Sprint(m.Complete))
	}
	if len(m.Outcomes) > 0 {
		keys := make([]string, 0, len(m.Outcomes))
		for k := range m.Outcomes {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		parts := make([]string, len(keys))
		for i, k := range keys {
			parts[i] = fmt.Sprintf("%s: %d", jsonText(k), m.Outcomes[k])
		}
		add("completeOutcomes", "{"+strings.Join(parts, ", ")+"}")
	}
	if len(m.Facts) > 0 {
		add("facts", blockList(m.Facts))
	}
	if c := m.Corpus; c != nil {
		inner := []string{
			fmt.Sprintf(`    "key": %s`, jsonText(c.Key)),
			fmt.Sprintf(`    "same": %v`, c.Same),
			fmt.Sprintf(`    "vocabulary": %v`, c.Vocabulary),
		}
		if c.Differences != "" {
			inner = append(inner, fmt.Sprintf(`    "differences": %s`, jsonText(c.Differences)))
		}
		add("corpus", "{\n"+strings.Join(inner, ",\n")+"\n  }")
	}
	return []byte("{\n" + strings.Join(fields, ",\n") + "\n}\n")
}

func jsonText(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

func inlineList(xs []string) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = jsonText(x)
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

func blockList(xs []string) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = jsonText(x)
	}
	return "[\n    " + strings.Join(parts, ",\n    ") + "\n  ]"
}
