package datasets

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// TestLoadDirCorpus loads every game of the shared corpus from its folder.
func TestLoadDirCorpus(t *testing.T) {
	shared := sharedDir(t)
	entries, err := os.ReadDir(filepath.Join(shared, "games"))
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		g, err := LoadDir(filepath.Join(shared, "games", e.Name()))
		if err != nil {
			t.Errorf("%s: %v", e.Name(), err)
			continue
		}
		if g.Name != e.Name() || len(g.Meta.Roles) == 0 || g.Meta.Title == "" || g.Rules == "" {
			t.Errorf("%s: loaded as name %q, title %q, roles %v", e.Name(), g.Name, g.Meta.Title, g.Meta.Roles)
		}
		n++
	}
	t.Logf("loaded %d corpus games", n)
	// A rulesheet whose name differs from the key, and a METADATA without gameName.
	g, err := LoadDir(filepath.Join(shared, "games", "nineBoardTicTacToePie"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(g.Source, "nineBoardTicTacToe.kif") || !slices.Equal(g.Meta.Roles, []string{"red", "blue"}) {
		t.Errorf("nineBoardTicTacToePie: source %s, roles %v", g.Source, g.Meta.Roles)
	}
	if g, err := LoadDir(filepath.Join(shared, "games", "nim1")); err != nil || g.Meta.Title != "nim1" {
		t.Errorf("nim1 (no gameName): %v, title %q", err, g.Meta.Title)
	}
}

// badRepo is a small repository with every kind of broken game.
var badRepo = fstest.MapFS{
	"good/METADATA":       {Data: []byte(`{"gameName": "Good", "rulesheet": "rules.kif"}`)},
	"good/rules.kif":      {Data: []byte("(role a) (role b) (init p)\n")},
	"malformed/METADATA":  {Data: []byte("{\n  \"gameName\": \"M\",\n  \"rulesheet\" \"x.kif\"\n}")},
	"notobject/METADATA":  {Data: []byte(`["x.kif"]`)},
	"norules/METADATA":    {Data: []byte(`{"gameName": "No rulesheet"}`)},
	"missing/METADATA":    {Data: []byte(`{"rulesheet": "missing.kif"}`)},
	"escape/METADATA":     {Data: []byte(`{"rulesheet": "../good/rules.kif"}`)},
	"unparsable/METADATA": {Data: []byte(`{"rulesheet": "bad.kif"}`)},
	"unparsable/bad.kif":  {Data: []byte("(role a)\n(<= (legal a x)\n")},
	"nometa/rules.kif":    {Data: []byte("(role a)")},
}

// brokenCases are the errors both loaders must report, by game key: a
// fragment each message must contain.
var brokenCases = []struct{ key, want string }{
	{"malformed", "malformed METADATA: line 3, column 15"},
	{"notobject", "malformed METADATA"},
	{"norules", "names no rulesheet"},
	{"missing", "missing.kif"},
	{"escape", "not a plain file name"},
	{"unparsable", "bad.kif:2:1"},
}

// TestLoadDirErrors checks LoadDir's messages on broken folders.
func TestLoadDirErrors(t *testing.T) {
	dir := t.TempDir()
	for name, f := range badRepo {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	g, err := LoadDir(filepath.Join(dir, "good"))
	if err != nil || g.Name != "good" || g.Meta.Title != "Good" || !slices.Equal(g.Meta.Roles, []string{"a", "b"}) {
		t.Fatalf("good: %v %+v", err, g)
	}
	cases := append(slices.Clone(brokenCases), struct{ key, want string }{"nometa", "METADATA: no such file"},
		struct{ key, want string }{"absent", "no such file"})
	for _, c := range cases {
		_, err := LoadDir(filepath.Join(dir, c.key))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.key, err, c.want)
		}
	}
	if _, err := LoadDir(filepath.Join(dir, "missing")); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("missing rulesheet: %v", err)
	}
}

// repoServer serves a game folder tree as a GGP repository: /games/ lists
// the keys as JSON, /games/<key>/ serves the METADATA, and
// /games/<key>/<file> a file of the game.
func repoServer(t *testing.T, fsys fs.FS) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rest, ok := strings.CutPrefix(r.URL.Path, "/games/")
		if !ok {
			http.NotFound(w, r)
			return
		}
		if rest == "" {
			entries, err := fs.ReadDir(fsys, ".")
			if err != nil {
				http.Error(w, err.Error(), http.StatusInternalServerError)
				return
			}
			var keys []string
			for _, e := range entries {
				if e.IsDir() {
					keys = append(keys, e.Name())
				}
			}
			_ = json.NewEncoder(w).Encode(keys)
			return
		}
		file := rest
		if strings.HasSuffix(rest, "/") {
			file = rest + "METADATA"
		}
		data, err := fs.ReadFile(fsys, path.Clean(file))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write(data)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestFetchRepository fetches games from a local repository server over
// HTTP and checks its error messages.
func TestFetchRepository(t *testing.T) {
	ctx := context.Background()
	srv := repoServer(t, badRepo)
	keys, err := ListRepository(ctx, srv.URL+"/")
	if err != nil || !slices.Contains(keys, "good") || !slices.Contains(keys, "malformed") {
		t.Fatalf("ListRepository: %v %v", keys, err)
	}
	g, err := FetchRepository(ctx, srv.URL, "good")
	if err != nil || g.Name != "good" || g.Meta.Title != "Good" || g.Rules != string(badRepo["good/rules.kif"].Data) {
		t.Fatalf("good: %v %+v", err, g)
	}
	if g.Source != srv.URL+"/games/good/rules.kif" {
		t.Errorf("source %s", g.Source)
	}
	for _, c := range brokenCases {
		_, err := FetchRepository(ctx, srv.URL, c.key)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one containing %q", c.key, err, c.want)
		}
	}
	var he *HTTPError
	_, err = FetchRepository(ctx, srv.URL, "absent")
	if !errors.As(err, &he) || he.StatusCode != http.StatusNotFound || !strings.Contains(err.Error(), "/games/absent/: 404") {
		t.Errorf("absent game: %v", err)
	}
	_, err = FetchRepository(ctx, srv.URL, "missing")
	if !errors.As(err, &he) || he.StatusCode != http.StatusNotFound || !strings.Contains(err.Error(), "rulesheet missing.kif") {
		t.Errorf("missing rulesheet: %v", err)
	}
	for _, key := range []string{"", "..", "a/b", "x?y"} {
		if _, err := FetchRepository(ctx, srv.URL, key); err == nil || !strings.Contains(err.Error(), "game key") {
			t.Errorf("key %q: %v", key, err)
		}
	}
	if _, err := ListRepository(ctx, srv.URL+"/nothing"); !errors.As(err, &he) {
		t.Errorf("list at a wrong base: %v", err)
	}
	bad := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { _, _ = w.Write([]byte("<html>")) }))
	defer bad.Close()
	if _, err := ListRepository(ctx, bad.URL); err == nil || !strings.Contains(err.Error(), "not a JSON list") {
		t.Errorf("list from a server that is not a repository: %v", err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := FetchRepository(cancelled, srv.URL, "good"); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled fetch: %v", err)
	}
}

// TestFetchCorpus serves ../shared/games over HTTP and fetches from it: the
// list holds every game, and fetched games equal those loaded from disk.
func TestFetchCorpus(t *testing.T) {
	shared := filepath.Join(sharedDir(t), "games")
	srv := repoServer(t, os.DirFS(shared))
	ctx := context.Background()
	keys, err := ListRepository(ctx, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(shared)
	dirs := 0
	for _, e := range entries {
		if e.IsDir() {
			dirs++
		}
	}
	if len(keys) != dirs {
		t.Errorf("listed %d games, the folder holds %d", len(keys), dirs)
	}
	for _, key := range []string{"ticTacToe", "nineBoardTicTacToePie", "hexPie", "kalaha6x2x4", "nim1"} {
		got, err := FetchRepository(ctx, srv.URL, key)
		if err != nil {
			t.Errorf("%s: %v", key, err)
			continue
		}
		want, err := LoadDir(filepath.Join(shared, key))
		if err != nil {
			t.Fatal(err)
		}
		if got.Rules != want.Rules || got.Meta.Title != want.Meta.Title || !slices.Equal(got.Meta.Roles, want.Meta.Roles) {
			t.Errorf("%s: fetched game differs from the folder's", key)
		}
		if _, err := got.Description(); err != nil {
			t.Errorf("%s: %v", key, err)
		}
	}
}
