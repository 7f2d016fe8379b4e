package sweep

import (
	"bytes"
	"encoding/json"
)

// fieldError is a Check error with the place in the spec's JSON it
// concerns: object keys (string) and array indices (int) from the top.
type fieldError struct {
	path []any
	err  error
}

func (e *fieldError) Error() string { return e.err.Error() }
func (e *fieldError) Unwrap() error { return e.err }

// inField marks err as concerning the spec's value at path, so that Parse
// can give its line and column.
func inField(err error, path ...any) error { return &fieldError{path: path, err: err} }

// frame is a JSON object or array being walked: its key or index now.
type frame struct {
	array     bool
	index     int
	key       string
	expectKey bool
}

// locate returns the offset in data of the value at path (of its key,
// for an object's member), or -1 when data has none there.
func locate(data []byte, path []any) int64 {
	dec := json.NewDecoder(bytes.NewReader(data))
	var stack []frame
	for {
		start := skipSeparators(data, dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			return -1
		}
		d, delim := tok.(json.Delim)
		top := len(stack) - 1
		switch {
		case delim && (d == '}' || d == ']'):
			stack = stack[:top]
			valueDone(stack)
			continue
		case top >= 0 && stack[top].expectKey: // a member's key
			stack[top].key, stack[top].expectKey = tok.(string), false
			if samePath(stack, path) {
				return start
			}
			continue
		}
		if top >= 0 && stack[top].array && samePath(stack, path) {
			return start
		}
		if delim {
			stack = append(stack, frame{array: d == '[', expectKey: d == '{'})
		} else {
			valueDone(stack)
		}
	}
}

// valueDone moves the innermost container past the value just read.
func valueDone(stack []frame) {
	if n := len(stack); n > 0 {
		if stack[n-1].array {
			stack[n-1].index++
		} else {
			stack[n-1].expectKey = true
		}
	}
}

// samePath reports whether the containers' keys and indices, the
// outermost first, are path.
func samePath(stack []frame, path []any) bool {
	if len(stack) != len(path) {
		return false
	}
	for i, f := range stack {
		if f.array && path[i] != any(f.index) || !f.array && path[i] != any(f.key) {
			return false
		}
	}
	return true
}

// skipSeparators returns the offset of the next token at or after off:
// past white space and the commas and colons the Decoder leaves unread.
func skipSeparators(data []byte, off int64) int64 {
	for off < int64(len(data)) && bytes.IndexByte([]byte(" \t\r\n,:"), data[off]) >= 0 {
		off++
	}
	return off
}
