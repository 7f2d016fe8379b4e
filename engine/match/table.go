package match

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Table is the result of a tournament: one row per match.
type Table struct {
	Rows []Row
}

// WriteJSON writes the table as indented JSON, every field of every row.
func (t *Table) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(t)
}

// ReadJSON reads a table written by WriteJSON.
func ReadJSON(r io.Reader) (*Table, error) {
	var t Table
	if err := json.NewDecoder(r).Decode(&t); err != nil {
		return nil, fmt.Errorf("match: reading table: %w", err)
	}
	return &t, nil
}

// LoadJSON reads a table saved by SaveJSON.
func LoadJSON(path string) (*Table, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadJSON(f)
}

// csvSeatFields are the per-seat CSV columns, suffixed _1, _2, ... by seat.
var csvSeatFields = []string{"role", "player", "score", "illegal", "late", "errors", "nodes", "next_calls", "seconds", "mean_depth"}

// WriteCSV writes one line per match: index, game, seed, moves, finished,
// the per-seat columns (role_1, player_1, score_1, illegal_1, late_1,
// errors_1, nodes_1, next_calls_1, seconds_1, mean_depth_1, then _2, ...),
// the events as "move:seat:kind" separated by spaces, the history as joint
// moves separated by " | " (a joint move's moves by spaces), and the error.
func (t *Table) WriteCSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	seats := t.maxSeats()
	if err := cw.Write(csvHeader(seats)); err != nil {
		return err
	}
	for i := range t.Rows {
		if err := cw.Write(csvRecord(&t.Rows[i], seats)); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func (t *Table) maxSeats() int {
	n := 0
	for _, r := range t.Rows {
		n = max(n, len(r.Roles))
	}
	return n
}

func csvHeader(seats int) []string {
	h := []string{"index", "game", "seed", "moves", "finished"}
	for s := 1; s <= seats; s++ {
		for _, f := range csvSeatFields {
			h = append(h, f+"_"+strconv.Itoa(s))
		}
	}
	return append(h, "events", "history", "error")
}

func csvRecord(r *Row, seats int) []string {
	rec := []string{strconv.Itoa(r.Index), r.Game, strconv.FormatUint(r.Seed, 10), strconv.Itoa(r.Moves), strconv.FormatBool(r.Finished)}
	for s := 0; s < seats; s++ {
		rec = append(rec, seatFields(r, s)...)
	}
	return append(rec, eventsText(r.Events), historyText(r.History), r.Error)
}

// seatFields renders seat s of a row, empty where the row has fewer seats.
func seatFields(r *Row, s int) []string {
	if s >= len(r.Roles) {
		return make([]string, len(csvSeatFields))
	}
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
	return []string{r.Roles[s], at(r.Players, s), strconv.Itoa(at(r.Scores, s)), strconv.Itoa(at(r.Illegal, s)),
		strconv.Itoa(at(r.Late, s)), strconv.Itoa(at(r.Errors, s)), strconv.FormatInt(at(r.Nodes, s), 10),
		strconv.FormatInt(at(r.NextCalls, s), 10), f(at(r.Seconds, s)), f(at(r.MeanDepth, s))}
}

// at returns xs[i], or the zero value when xs is short (a hand-made row).
func at[T any](xs []T, i int) T {
	var zero T
	if i < len(xs) {
		return xs[i]
	}
	return zero
}

func eventsText(evs []Event) string {
	parts := make([]string, len(evs))
	for i, e := range evs {
		parts[i] = fmt.Sprintf("%d:%d:%s", e.Move, e.Seat+1, e.Kind)
	}
	return strings.Join(parts, " ")
}

func historyText(h [][]string) string {
	parts := make([]string, len(h))
	for i, j := range h {
		parts[i] = strings.Join(j, " ")
	}
	return strings.Join(parts, " | ")
}

// SaveCSV writes the table to path as CSV atomically.
func (t *Table) SaveCSV(path string) error { return saveAtomic(path, t.WriteCSV) }

// SaveJSON writes the table to path as JSON atomically.
func (t *Table) SaveJSON(path string) error { return saveAtomic(path, t.WriteJSON) }

// saveAtomic writes to a temporary file beside path, syncs it and renames it
// over path, so readers see the old file or the new one, never a part.
func saveAtomic(path string, write func(io.Writer) error) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err = f.Chmod(0o644); err != nil { // CreateTemp makes files private
		return err
	}
	if err = write(f); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}
