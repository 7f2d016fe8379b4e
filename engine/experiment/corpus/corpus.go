package corpus

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"gdlab/datasets"
	"gdlab/engine/gdl"
	"gdlab/engine/ledger"
	"gdlab/engine/propnet"
)

// Timeout bounds the work of one game's row in every table: loading the
// rules, building the network and analysing it. A game over it gets the
// row's timeout error ("over 20 s", or "over 20s" in the emulation table,
// as emulate.Detect spells it).
const Timeout = 20 * time.Second

// The tables' files under datasets/results.
const (
	LatchesFile    = "latches-corpus.json"
	EnablementFile = "local-enablement.json"
	EmulationFile  = "emulation-corpus.json"
	FactorsFile    = "factors-corpus.json"
)

// Games returns the game folders of a shared corpus (shared/games/<key>),
// sorted by key. Files beside the folders (SOURCE.md) are left out.
func Games(shared string) ([]string, error) {
	entries, err := os.ReadDir(filepath.Join(shared, "games"))
	if err != nil {
		return nil, fmt.Errorf("corpus: %w", err)
	}
	var out []string
	for _, e := range entries { // ReadDir sorts by name
		if e.IsDir() {
			out = append(out, filepath.Join(shared, "games", e.Name()))
		}
	}
	return out, nil
}

// Rules reads the rules of a corpus game folder: the rulesheet its
// METADATA names (datasets.LoadDir), which is not always <key>.kif. Error
// texts name files relative to the corpus's games folder
// (futoshiki4/METADATA), so that a table does not depend on where the
// corpus lies.
func Rules(dir string) (*gdl.Description, error) {
	rs, err := datasets.LoadDir(dir)
	if err != nil {
		return nil, relative(dir, err)
	}
	d, err := rs.Description()
	if err != nil {
		return nil, relative(dir, err)
	}
	return d, nil
}

// relative is err with the path of dir's parent folder taken out of its
// text.
func relative(dir string, err error) error {
	parent := filepath.Dir(filepath.Clean(dir)) + string(filepath.Separator)
	if !strings.Contains(err.Error(), parent) {
		return err
	}
	return errors.New(strings.ReplaceAll(err.Error(), parent, ""))
}

// key is a game folder's key: its base name.
func key(dir string) string { return filepath.Base(filepath.Clean(dir)) }

// ResultsDir returns datasets/results of the repository at ledger.Root()
// ($GDLAB_ROOT, or the gdlab module at or above the working directory).
func ResultsDir() (string, error) {
	root, err := ledger.Root()
	if err != nil {
		return "", err
	}
	return filepath.Join(root, "datasets", "results"), nil
}

// readTable decodes datasets/results/file into rows (a pointer to a
// slice). A missing file is an error wrapping fs.ErrNotExist.
func readTable(file string, rows any) error {
	dir, err := ResultsDir()
	if err != nil {
		return err
	}
	raw, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		return fmt.Errorf("corpus: %w", err)
	}
	if err := json.Unmarshal(raw, rows); err != nil {
		return fmt.Errorf("corpus: %s: %w", file, err)
	}
	return nil
}

// WriteTable writes rows (a slice of one table's rows) as indented JSON to
// path, through a temporary file in the same folder renamed into place, so
// a reader sees the old table or the new one, never a part.
func WriteTable(path string, rows any) error {
	raw, err := json.MarshalIndent(rows, "", " ")
	if err != nil {
		return fmt.Errorf("corpus: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("corpus: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err = tmp.Write(append(raw, '\n')); err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("corpus: %w", err)
	}
	return nil
}

// onNetwork builds the network of the corpus game in folder dir with the
// default bounds and calls f with it, all within Timeout. The error is
// the row's: "over 20 s" when the time ran out.
func onNetwork(ctx context.Context, dir string, f func(context.Context, *propnet.Net) error) string {
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	d, err := Rules(dir)
	if err == nil {
		var net *propnet.Net
		if net, err = propnet.Build(ctx, d, propnet.Options{}); err == nil {
			err = f(ctx, net)
		}
	}
	switch {
	case err == nil:
		return ""
	case timedOut(err):
		return "over 20 s"
	}
	return err.Error()
}

// timedOut reports whether err is the end of a deadline.
func timedOut(err error) bool { return errors.Is(err, context.DeadlineExceeded) }
