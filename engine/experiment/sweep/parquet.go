package sweep

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/xitongsys/parquet-go/writer"
)

// Parquet column types of the table's columns.
const (
	colInt    = "INT64"
	colDouble = "DOUBLE"
	colBool   = "BOOLEAN"
	colText   = "BYTE_ARRAY"
)

// columnType is the Parquet type of a column of WriteCSV's header: the
// axes' values and seconds are doubles, finished a boolean, the names,
// the error and the match seed (a full 64-bit unsigned number, which
// Parquet's signed INT64 would show negative) text, the rest integers.
func (t *Table) columnType(name string) string {
	for _, a := range t.Spec.axisNames() {
		if name == a {
			return colDouble
		}
	}
	switch {
	case strings.HasSuffix(name, "_seconds"):
		return colDouble
	case name == "finished":
		return colBool
	case name == "game", name == "error", name == "match_seed", strings.HasSuffix(name, "_player"), strings.HasSuffix(name, "_role"):
		return colText
	}
	return colInt
}

// parquetSchema is the JSON schema of parquet-go's JSON writer for the
// columns; every column is optional, so that a seat a match did not have
// is null.
func (t *Table) parquetSchema(header []string) (string, error) {
	type field struct {
		Tag string `json:"Tag"`
	}
	fields := make([]field, len(header))
	for i, name := range header {
		if strings.ContainsAny(name, ",=") {
			return "", fmt.Errorf("sweep: column %q: Parquet's schema cannot hold a name with ',' or '='", name)
		}
		tag := "name=" + name + ", type=" + t.columnType(name) + ", repetitiontype=OPTIONAL"
		if t.columnType(name) == colText {
			tag += ", convertedtype=UTF8"
		}
		fields[i] = field{tag}
	}
	out, err := json.Marshal(struct {
		Tag    string  `json:"Tag"`
		Fields []field `json:"Fields"`
	}{"name=parquet_go_root, repetitiontype=REQUIRED", fields})
	return string(out), err
}

// WriteParquet writes the table as Parquet (pandas.read_parquet,
// pyarrow and Go's Parquet readers read it): the columns of WriteCSV with
// the seconds, typed (see columnType), an empty cell as null.
func (t *Table) WriteParquet(w io.Writer) error {
	header, recs := t.records(true)
	schema, err := t.parquetSchema(header)
	if err != nil {
		return err
	}
	pw, err := writer.NewJSONWriterFromWriter(schema, w, 1)
	if err != nil {
		return fmt.Errorf("sweep: Parquet schema: %w", err)
	}
	for _, rec := range recs {
		row := make(map[string]interface{}, len(header))
		for i, name := range header {
			v, err := t.parquetValue(name, rec[i])
			if err != nil {
				return err
			}
			if v != nil {
				row[name] = v
			}
		}
		line, err := json.Marshal(row)
		if err != nil {
			return err
		}
		if err := pw.Write(string(line)); err != nil {
			return fmt.Errorf("sweep: writing Parquet: %w", err)
		}
	}
	if err := pw.WriteStop(); err != nil {
		return fmt.Errorf("sweep: writing Parquet: %w", err)
	}
	return nil
}

// parquetValue converts a CSV cell to its column's type; nil for an empty
// number (a seat the match did not have).
func (t *Table) parquetValue(name, cell string) (interface{}, error) {
	typ := t.columnType(name)
	if cell == "" && typ != colText {
		return nil, nil
	}
	switch typ {
	case colInt:
		return strconv.ParseInt(cell, 10, 64)
	case colDouble:
		return strconv.ParseFloat(cell, 64)
	case colBool:
		return strconv.ParseBool(cell)
	}
	return cell, nil
}
