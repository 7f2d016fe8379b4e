package game

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// Disagreement is the first point where a machine differs from a trace.
type Disagreement struct {
	Step  int    // index into the trace's steps
	Field string // "roles", "state", "legal", "terminal", "goal" or "joint"
	Role  string // the role concerned, for legal, goal and joint
	Want  string // what the trace records
	Got   string // what the machine computes
}

func (d *Disagreement) Error() string {
	who := ""
	if d.Role != "" {
		who = " of " + d.Role
	}
	return fmt.Sprintf("step %d: %s%s differs: trace has %s, machine has %s", d.Step, d.Field, who, d.Want, d.Got)
}

// Replay plays a recorded trace's joint moves through m and compares, at every
// step, the state facts, each role's legal moves, the terminal flag and each
// role's goal. It returns the first disagreement, or nil when m agrees with
// the whole trace. An error means m failed to compute an answer.
func Replay(ctx context.Context, m Machine, t *Trace) (*Disagreement, error) {
	if !slices.Equal(m.Roles(), t.Roles) {
		return &Disagreement{Field: "roles", Want: list(t.Roles), Got: list(m.Roles())}, nil
	}
	s := m.Initial()
	for i, want := range t.Steps {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		got, _, err := observe(m, s)
		if err != nil {
			return nil, fmt.Errorf("step %d: %w", i, err)
		}
		if d := compareStep(i, t.Roles, want, got); d != nil {
			return d, nil
		}
		if want.Joint == nil {
			break
		}
		joint, d := parseJoint(m, i, t.Roles, want.Joint)
		if d != nil {
			return d, nil
		}
		if s, err = m.Next(s, joint); err != nil {
			return nil, fmt.Errorf("step %d: next: %w", i, err)
		}
	}
	return nil, nil
}

func compareStep(i int, roles []string, want, got Step) *Disagreement {
	if !slices.Equal(want.State, got.State) {
		only, extra := difference(want.State, got.State)
		return &Disagreement{Step: i, Field: "state", Want: "also " + list(only), Got: "also " + list(extra)}
	}
	for r, role := range roles {
		if !slices.Equal(want.Legal[r], got.Legal[r]) {
			only, extra := difference(want.Legal[r], got.Legal[r])
			return &Disagreement{Step: i, Field: "legal", Role: role, Want: "also " + list(only), Got: "also " + list(extra)}
		}
	}
	if want.Terminal != got.Terminal {
		return &Disagreement{Step: i, Field: "terminal", Want: fmt.Sprint(want.Terminal), Got: fmt.Sprint(got.Terminal)}
	}
	for r, role := range roles {
		if want.Goals[r] != got.Goals[r] {
			return &Disagreement{Step: i, Field: "goal", Role: role, Want: goalText(want.Goals[r]), Got: goalText(got.Goals[r])}
		}
	}
	return nil
}

func parseJoint(m Machine, i int, roles []string, texts []string) ([]Move, *Disagreement) {
	if len(texts) != len(roles) {
		return nil, &Disagreement{Step: i, Field: "joint", Want: list(texts), Got: fmt.Sprintf("%d roles", len(roles))}
	}
	joint := make([]Move, len(texts))
	for r, text := range texts {
		mv, err := m.ParseMove(r, text)
		if err != nil {
			return nil, &Disagreement{Step: i, Field: "joint", Role: roles[r], Want: text, Got: err.Error()}
		}
		joint[r] = mv
	}
	return joint, nil
}

func goalText(g int) string {
	if g < 0 {
		return "no single goal"
	}
	return fmt.Sprint(g)
}

// list renders a string list compactly for messages, eliding long ones.
func list(xs []string) string {
	const max = 12
	if len(xs) > max {
		return "[" + strings.Join(xs[:max], " ") + fmt.Sprintf(" ... (%d in all)]", len(xs))
	}
	return "[" + strings.Join(xs, " ") + "]"
}

// difference returns what only a holds and what only b holds; both sorted.
func difference(a, b []string) (onlyA, onlyB []string) {
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case j == len(b) || (i < len(a) && a[i] < b[j]):
			onlyA = append(onlyA, a[i])
			i++
		case i == len(a) || b[j] < a[i]:
			onlyB = append(onlyB, b[j])
			j++
		default:
			i++
			j++
		}
	}
	return onlyA, onlyB
}
