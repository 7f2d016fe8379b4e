package game

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
)

// Trace is one recorded match in the JSON-lines format of the shared traces
// (see ../shared/traces/README.md): every step's state, legal moves,
// terminal flag and goals, and the joint move that led on.
type Trace struct {
	Game     string
	Seed     int64
	Roles    []string
	Steps    []Step
	Complete bool // the last step is terminal
}

// Step is one state of a trace. Legal and Goals follow the trace's role order;
// Goals[r] is -1 where role r has no single goal value (the format then
// leaves the role out). Joint is nil on the last step.
type Step struct {
	State    []string
	Legal    [][]string
	Terminal bool
	Goals    []int
	Joint    []string
}

// RecordOptions bound a recorded match.
type RecordOptions struct {
	MaxSteps int // joint moves; 0 means 200, the cap of the shared traces
}

// Record plays a random match from the initial state and records it. Moves are
// chosen exactly as the shared traces were made: one java.util.Random(seed)
// per match and, at each non-terminal step, nextInt(n) for each role in role
// order over its sorted legal list. So the same rules and seed reproduce a
// shared trace byte for byte.
func Record(ctx context.Context, m Machine, game string, seed int64, opt RecordOptions) (*Trace, error) {
	maxSteps := opt.MaxSteps
	if maxSteps <= 0 {
		maxSteps = 200
	}
	tr := &Trace{Game: game, Seed: seed, Roles: m.Roles()}
	rng := NewJavaRandom(seed)
	s := m.Initial()
	for {
		step, legal, err := observe(m, s)
		if err != nil {
			return nil, err
		}
		if step.Terminal || len(tr.Steps) == maxSteps {
			tr.Steps = append(tr.Steps, step)
			tr.Complete = step.Terminal
			return tr, nil
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		joint := make([]Move, len(legal))
		for r, ms := range legal {
			if len(ms) == 0 {
				return nil, &NoLegalMoveError{Role: tr.Roles[r], Step: len(tr.Steps)}
			}
			joint[r] = ms[rng.Intn(len(ms))]
		}
		step.Joint = JointText(m, joint)
		tr.Steps = append(tr.Steps, step)
		if s, err = m.Next(s, joint); err != nil {
			return nil, err
		}
	}
}

// Follow records the trace of a match whose joint moves are given as
// text, one list per step in role order (as a match table's history holds
// them): every state with its legal moves, terminal flag and goals, in the
// format of the shared traces. Seed is what the trace reports.
func Follow(ctx context.Context, m Machine, game string, seed int64, joints [][]string) (*Trace, error) {
	tr := &Trace{Game: game, Seed: seed, Roles: m.Roles()}
	s := m.Initial()
	for i := 0; ; i++ {
		step, _, err := observe(m, s)
		if err != nil {
			return nil, err
		}
		if i == len(joints) {
			tr.Steps = append(tr.Steps, step)
			tr.Complete = step.Terminal
			return tr, nil
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		joint, d := parseJoint(m, i, tr.Roles, joints[i])
		if d != nil {
			return nil, d
		}
		step.Joint = JointText(m, joint)
		tr.Steps = append(tr.Steps, step)
		if s, err = m.Next(s, joint); err != nil {
			return nil, err
		}
	}
}

// observe reads everything a trace records about s, and the legal moves.
func observe(m Machine, s State) (Step, [][]Move, error) {
	legal, err := LegalAll(m, s)
	if err != nil {
		return Step{}, nil, err
	}
	term, err := m.Terminal(s)
	if err != nil {
		return Step{}, nil, err
	}
	st := Step{State: s.Facts(), Terminal: term, Goals: Goals(m, s), Legal: make([][]string, len(legal))}
	for r, ms := range legal {
		st.Legal[r] = MovesText(m, r, ms)
	}
	return st, legal, nil
}

// jsonTrace and jsonStep are the wire form; legal and goals are objects keyed
// by role, which must be written in role order, so they are built by hand.
type jsonTrace struct {
	Game     string            `json:"game"`
	Seed     int64             `json:"seed"`
	Roles    []string          `json:"roles"`
	Steps    []json.RawMessage `json:"steps"`
	Complete bool              `json:"complete"`
}

type jsonStep struct {
	State    []string                   `json:"state"`
	Legal    map[string]json.RawMessage `json:"legal"`
	Terminal bool                       `json:"terminal"`
	Goals    map[string]int             `json:"goals,omitempty"`
	Joint    []string                   `json:"joint,omitempty"`
}

// MarshalJSON writes the trace as one line of the shared format, with keys in
// the same order and no HTML escaping, so that equal traces are equal bytes.
func (t *Trace) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"game":`)
	writeJSON(&b, t.Game)
	b.WriteString(`,"seed":`)
	b.WriteString(strconv.FormatInt(t.Seed, 10))
	b.WriteString(`,"roles":`)
	writeJSON(&b, t.Roles)
	b.WriteString(`,"steps":[`)
	for i, st := range t.Steps {
		if i > 0 {
			b.WriteByte(',')
		}
		t.writeStep(&b, st)
	}
	b.WriteString(`],"complete":`)
	b.WriteString(strconv.FormatBool(t.Complete))
	b.WriteByte('}')
	return b.Bytes(), nil
}

func (t *Trace) writeStep(b *bytes.Buffer, st Step) {
	b.WriteString(`{"state":`)
	writeJSON(b, nonNil(st.State))
	b.WriteString(`,"legal":{`)
	for r, role := range t.Roles {
		if r > 0 {
			b.WriteByte(',')
		}
		writeJSON(b, role)
		b.WriteByte(':')
		var ms []string
		if r < len(st.Legal) {
			ms = st.Legal[r]
		}
		writeJSON(b, nonNil(ms))
	}
	b.WriteString(`},"terminal":`)
	b.WriteString(strconv.FormatBool(st.Terminal))
	first := true
	for r, role := range t.Roles {
		if r >= len(st.Goals) || st.Goals[r] < 0 {
			continue
		}
		if first {
			b.WriteString(`,"goals":{`)
			first = false
		} else {
			b.WriteByte(',')
		}
		writeJSON(b, role)
		b.WriteByte(':')
		b.WriteString(strconv.Itoa(st.Goals[r]))
	}
	if !first {
		b.WriteByte('}')
	}
	if st.Joint != nil {
		b.WriteString(`,"joint":`)
		writeJSON(b, st.Joint)
	}
	b.WriteByte('}')
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func writeJSON(b *bytes.Buffer, v any) {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)       // strings and string slices always encode
	b.Truncate(b.Len() - 1) // Encode ends with a newline
}

// UnmarshalJSON reads one line of the shared format.
func (t *Trace) UnmarshalJSON(data []byte) error {
	var jt jsonTrace
	if err := json.Unmarshal(data, &jt); err != nil {
		return err
	}
	*t = Trace{Game: jt.Game, Seed: jt.Seed, Roles: jt.Roles, Complete: jt.Complete}
	for i, raw := range jt.Steps {
		var js jsonStep
		if err := json.Unmarshal(raw, &js); err != nil {
			return fmt.Errorf("step %d: %w", i, err)
		}
		st := Step{State: js.State, Terminal: js.Terminal, Joint: js.Joint,
			Legal: make([][]string, len(t.Roles)), Goals: make([]int, len(t.Roles))}
		for r, role := range t.Roles {
			st.Goals[r] = -1
			if g, ok := js.Goals[role]; ok {
				st.Goals[r] = g
			}
			if raw, ok := js.Legal[role]; ok {
				if err := json.Unmarshal(raw, &st.Legal[r]); err != nil {
					return fmt.Errorf("step %d: legal moves of %s: %w", i, role, err)
				}
			}
		}
		t.Steps = append(t.Steps, st)
	}
	return nil
}

// ReadTraces reads every trace of a JSON-lines stream. Errors name the line.
func ReadTraces(r io.Reader) ([]*Trace, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20) // shared trace lines reach a few MB
	var out []*Trace
	for line := 1; sc.Scan(); line++ {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		t := new(Trace)
		if err := t.UnmarshalJSON(sc.Bytes()); err != nil {
			return out, fmt.Errorf("line %d: %w", line, err)
		}
		out = append(out, t)
	}
	return out, sc.Err()
}

// WriteTrace writes t as one JSON line.
func WriteTrace(w io.Writer, t *Trace) error {
	b, _ := t.MarshalJSON()
	_, err := w.Write(append(b, '\n'))
	return err
}
