// Package ledger owns gdlab's results ledger: an append-only record of
// every run of every experiment (notebook, command line or table-writing
// test), one JSON-lines file per experiment, from which estimates and
// verdicts are computed over all the runs of the current code rather than
// over the run at hand.
//
// A Record holds what a reviewer needs to pool or to doubt a run: the
// experiment, its settings and seeds, its scope (the packages it could
// run, see AddScope) and the version of their code (a hash of the sources
// that decide results, see CodeVersionOf), the machine's load, and
// one Result per game or position. Appending rewrites the experiment's file
// through a temporary file and a rename, under a lock, so a reader never
// sees half a record and concurrent writers lose nothing.
package ledger

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"time"
)

// Record is one run of an experiment.
type Record struct {
	Experiment string            `json:"experiment"`
	Time       time.Time         `json:"time"`
	Version    string            `json:"version"`         // CodeVersionOf the sources that ran, of Scope
	Quick      bool              `json:"quick,omitempty"` // a short run (GDLAB_QUICK): never pooled into a verdict
	Settings   map[string]string `json:"settings,omitempty"`
	Seeds      []uint64          `json:"seeds,omitempty"`
	Load       []float64         `json:"load,omitempty"` // the load averages (1, 5, 15 min) when the run was recorded, at its end
	Source     string            `json:"source,omitempty"`
	Results    []Result          `json:"results"`
	// ReplicaOf stands in the file for Results when the run reproduced an
	// earlier record of the experiment exactly (same settings, seeds and
	// results, as a deterministic experiment does when run again): it holds
	// that record's time. Runs fills Results back in, so a reader always
	// sees whole records; the file grows by a line, not by the results.
	ReplicaOf string `json:"replica_of,omitempty"`
	// Scope lists the packages whose code, with what they import, the run
	// may have run (a notebook's imports, see AddScope); none for the
	// whole engine. Version is the version of that code.
	Scope []string `json:"scope,omitempty"`
}

// ReplicaKey identifies a run by its settings, seeds and results: two runs
// with the same key are one run repeated, which adds no information.
func ReplicaKey(r Record) string {
	raw, _ := json.Marshal(struct {
		S map[string]string
		D []uint64
		R []Result
	}{r.Settings, r.Seeds, r.Results})
	return string(raw)
}

// Result is one measured unit of a run: a game of a match, a position of
// a depth test. Value is the measurement (a score 0..100 for a game, plies
// for a depth); Outcome, for a game, is "win", "draw" or "loss" for the
// measured player.
type Result struct {
	Game    string  `json:"game"`
	Seed    uint64  `json:"seed,omitempty"`
	Value   float64 `json:"value"`
	Outcome string  `json:"outcome,omitempty"`
	Detail  string  `json:"detail,omitempty"`
	// Player and Match are set when a run records every seat of a match
	// table (a round robin): the seat's player, and the match's number
	// in the run, from 1, which groups the seats of one match.
	Player string `json:"player,omitempty"`
	Match  int    `json:"match,omitempty"`
}

// Outcomes of a game for the measured player.
const (
	Win  = "win"
	Draw = "draw"
	Loss = "loss"
)

// Ledger is a directory holding one file per experiment.
type Ledger struct{ dir string }

// Open returns the ledger in dir, creating the directory when needed.
func Open(dir string) (*Ledger, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("ledger: %w", err)
	}
	return &Ledger{dir: dir}, nil
}

// Dir returns the ledger's directory.
func (l *Ledger) Dir() string { return l.dir }

var experimentName = regexp.MustCompile(`^[a-z0-9][a-z0-9._-]*$`)

// file returns the path of an experiment's file, refusing names that
// would leave the directory.
func (l *Ledger) file(experiment string) (string, error) {
	if !experimentName.MatchString(experiment) {
		return "", fmt.Errorf("ledger: experiment id %q: use lower-case letters, digits, '.', '_' and '-'", experiment)
	}
	return filepath.Join(l.dir, experiment+".jsonl"), nil
}

// Append adds rec to its experiment's file, as a reference (ReplicaOf)
// when it repeats an earlier record exactly. The file is rewritten whole
// through a temporary file in the same directory and renamed into place,
// under an exclusive lock, so the append is atomic for readers and other
// writers.
func (l *Ledger) Append(rec Record) error {
	if rec.Experiment == "" || len(rec.Results) == 0 {
		return errors.New("ledger: a record needs an experiment and at least one result")
	}
	path, err := l.file(rec.Experiment)
	if err != nil {
		return err
	}
	if rec.Time.IsZero() {
		rec.Time = time.Now().UTC()
	}
	unlock, err := l.lock()
	if err != nil {
		return err
	}
	defer unlock()
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("ledger: %w", err)
	}
	prev, err := parse(path, old)
	if err != nil {
		return err
	}
	key := ReplicaKey(rec)
	for _, p := range prev {
		if ReplicaKey(p) == key {
			rec.ReplicaOf, rec.Results = stamp(p.Time), nil
			break
		}
	}
	line, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("ledger: %w", err)
	}
	if len(old) > 0 && old[len(old)-1] != '\n' {
		old = append(old, '\n')
	}
	return writeAtomic(path, append(append(old, line...), '\n'))
}

// stamp is the text by which ReplicaOf names a record: its time as JSON
// writes it.
func stamp(t time.Time) string { return t.Format(time.RFC3339Nano) }

// lock takes the ledger's exclusive lock and returns its release.
func (l *Ledger) lock() (func(), error) {
	f, err := os.OpenFile(filepath.Join(l.dir, ".lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("ledger: %w", err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, fmt.Errorf("ledger: lock: %w", err)
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}

// writeAtomic writes data to path through a synced temporary file and a
// rename.
func writeAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("ledger: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		return fmt.Errorf("ledger: %w", err)
	}
	return nil
}

// Runs returns every record of an experiment in the order appended; none
// when the experiment has no file yet. A malformed line is an error naming
// the file and line.
func (l *Ledger) Runs(experiment string) ([]Record, error) {
	path, err := l.file(experiment)
	if err != nil {
		return nil, err
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("ledger: %w", err)
	}
	return parse(path, data)
}

// parse reads the records of a file's contents, filling in the results of
// each replica from the record it names. A malformed line, or a replica
// naming no earlier record, is an error naming the file and line.
func parse(path string, data []byte) ([]Record, error) {
	var out []Record
	byStamp := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 1<<20), 1<<30)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var rec Record
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		if rec.ReplicaOf != "" {
			i, ok := byStamp[rec.ReplicaOf]
			if !ok {
				return nil, fmt.Errorf("%s:%d: replica_of %s names no earlier record", path, n, rec.ReplicaOf)
			}
			rec.Results = out[i].Results
		} else if _, dup := byStamp[stamp(rec.Time)]; !dup {
			byStamp[stamp(rec.Time)] = len(out)
		}
		out = append(out, rec)
	}
	return out, sc.Err()
}

// Select returns the records of runs made with code version version that
// were not quick runs: the runs a verdict pools.
func Select(recs []Record, version string) []Record {
	var out []Record
	for _, r := range recs {
		if r.Version == version && !r.Quick {
			out = append(out, r)
		}
	}
	return out
}
