package datasets

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	"gdlab/engine/gdl"
)

// maxFetch bounds every file read from a repository or folder: the largest
// rulesheet of the public repository is under 1 MB.
const maxFetch = 32 << 20

// repositoryMetadata is the part of a game's METADATA file (JSON) that the
// loaders read. The public repository also names a stylesheet, a user
// interface and a description file; they are ignored.
type repositoryMetadata struct {
	GameName  string `json:"gameName"`
	Rulesheet string `json:"rulesheet"`
}

// LoadDir loads a game from a folder in the public GGP repository's layout,
// as in ../shared/games/<key>/: a METADATA JSON file whose "rulesheet" field
// names the rules file in the same folder. The game's name is the folder's
// base name (its key), its title the METADATA "gameName", and its roles are
// read from the rules, which must parse.
func LoadDir(dir string) (*Rulesheet, error) {
	metaPath := filepath.Join(dir, "METADATA")
	raw, err := readFileLimited(metaPath)
	if err != nil {
		return nil, fmt.Errorf("datasets: %w", err)
	}
	md, err := parseMetadata(metaPath, raw)
	if err != nil {
		return nil, err
	}
	rulesPath := filepath.Join(dir, md.Rulesheet)
	rules, err := readFileLimited(rulesPath)
	if err != nil {
		return nil, fmt.Errorf("datasets: rulesheet %s named by %s: %w", md.Rulesheet, metaPath, unwrapPathError(err))
	}
	return newExternal(filepath.Base(filepath.Clean(dir)), md, rulesPath, rules)
}

// ListRepository returns the game keys a GGP repository server offers: the
// JSON list it serves at <baseURL>/games/. For the public repository the
// base URL is http://games.ggp.org/base.
func ListRepository(ctx context.Context, baseURL string) ([]string, error) {
	url := strings.TrimRight(baseURL, "/") + "/games/"
	raw, err := httpGet(ctx, url)
	if err != nil {
		return nil, fmt.Errorf("datasets: list repository: %w", err)
	}
	var keys []string
	if err := json.Unmarshal(raw, &keys); err != nil {
		return nil, fmt.Errorf("datasets: list repository: %s: not a JSON list of game keys: %v", url, jsonErrorText(raw, err))
	}
	return keys, nil
}

// FetchRepository downloads one game from a GGP repository server, in the
// layout the public repository serves: the METADATA JSON at
// <baseURL>/games/<key>/ and the rulesheet it names at
// <baseURL>/games/<key>/<rulesheet>. The result is named by key and titled
// by the METADATA "gameName"; its roles are read from the rules, which must
// parse. Errors name the URL; an HTTP failure is an *HTTPError.
func FetchRepository(ctx context.Context, baseURL, key string) (*Rulesheet, error) {
	if err := checkFileName("game key", key); err != nil {
		return nil, fmt.Errorf("datasets: fetch: %w", err)
	}
	gameURL := strings.TrimRight(baseURL, "/") + "/games/" + key + "/"
	raw, err := httpGet(ctx, gameURL)
	if err != nil {
		return nil, fmt.Errorf("datasets: fetch %s: metadata: %w", key, err)
	}
	md, err := parseMetadata(gameURL, raw)
	if err != nil {
		return nil, err
	}
	rulesURL := gameURL + md.Rulesheet
	rules, err := httpGet(ctx, rulesURL)
	if err != nil {
		return nil, fmt.Errorf("datasets: fetch %s: rulesheet %s named by its metadata: %w", key, md.Rulesheet, err)
	}
	return newExternal(key, md, rulesURL, rules)
}

// HTTPError is a repository request answered with a status other than 200 OK.
type HTTPError struct {
	URL        string
	StatusCode int
	Status     string // such as "404 Not Found"
}

func (e *HTTPError) Error() string { return "GET " + e.URL + ": " + e.Status }

// parseMetadata decodes a METADATA file read from where (a path or URL).
func parseMetadata(where string, raw []byte) (*repositoryMetadata, error) {
	var md repositoryMetadata
	if err := json.Unmarshal(raw, &md); err != nil {
		return nil, fmt.Errorf("datasets: %s: malformed METADATA: %s", where, jsonErrorText(raw, err))
	}
	if md.Rulesheet == "" {
		return nil, fmt.Errorf("datasets: %s: METADATA names no rulesheet (its \"rulesheet\" field is missing or empty)", where)
	}
	if err := checkFileName("rulesheet", md.Rulesheet); err != nil {
		return nil, fmt.Errorf("datasets: %s: METADATA: %w", where, err)
	}
	return &md, nil
}

// newExternal parses fetched rules for their roles and builds the game. The
// rules are parsed under the name where they came from, so that errors say so.
func newExternal(key string, md *repositoryMetadata, where string, rules []byte) (*Rulesheet, error) {
	d, err := gdl.Parse(where, rules)
	if err != nil {
		return nil, fmt.Errorf("datasets: game %s: %w", key, err)
	}
	title := md.GameName
	if title == "" {
		title = key
	}
	return &Rulesheet{
		Name:   key,
		Rules:  string(rules),
		Meta:   Meta{Name: key, Title: title, Roles: roles(d)},
		Source: where,
	}, nil
}

// roles returns the roles a description declares with (role r) facts, in order.
func roles(d *gdl.Description) []string {
	var out []string
	for _, r := range d.Rules {
		if r.Head.Name == "role" && len(r.Head.Args) == 1 && len(r.Body) == 0 {
			out = append(out, r.Head.Args[0].String())
		}
	}
	return out
}

// checkFileName accepts a plain file name: what a METADATA rulesheet field
// or a game key must be, so that neither can reach outside its folder.
func checkFileName(what, name string) error {
	switch {
	case name == "":
		return fmt.Errorf("empty %s", what)
	case name == "." || name == ".." || strings.ContainsAny(name, "/\\?#%") || strings.ContainsRune(name, 0):
		return fmt.Errorf("%s %q is not a plain file name", what, name)
	}
	return nil
}

// httpGet fetches a URL and returns its body when the status is 200 OK.
func httpGet(ctx context.Context, url string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, &HTTPError{URL: url, StatusCode: resp.StatusCode, Status: resp.Status}
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxFetch+1))
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", url, err)
	}
	if len(body) > maxFetch {
		return nil, fmt.Errorf("GET %s: response larger than %d bytes", url, maxFetch)
	}
	return body, nil
}

// readFileLimited reads a local file of at most maxFetch bytes.
func readFileLimited(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	body, err := io.ReadAll(io.LimitReader(f, maxFetch+1))
	if err != nil {
		return nil, err
	}
	if len(body) > maxFetch {
		return nil, fmt.Errorf("%s: larger than %d bytes", path, maxFetch)
	}
	return body, nil
}

// unwrapPathError drops the path from an *os.PathError, which the caller's
// message already names.
func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// jsonErrorText describes a JSON decoding error, with the line and column
// of a syntax error: the offending byte is the last one the decoder read.
func jsonErrorText(raw []byte, err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		line, col := lineCol(raw, max(int(se.Offset)-1, 0))
		return fmt.Sprintf("line %d, column %d: %v", line, col, err)
	}
	return err.Error()
}

// lineCol converts a byte offset to a 1-based line and column.
func lineCol(src []byte, off int) (line, col int) {
	if off > len(src) {
		off = len(src)
	}
	before := src[:off]
	line = 1 + bytes.Count(before, []byte("\n"))
	col = off - bytes.LastIndexByte(before, '\n')
	return line, col
}
