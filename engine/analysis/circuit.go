package analysis

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"

	"gdlab/engine/propnet"
)

// lit is a literal of the circuit: node<<1 | negated, or one of the
// constants litTrue and litFalse.
type lit int32

const (
	litFalse lit = -2
	litTrue  lit = -1
)

func (l lit) node() int32 { return int32(l >> 1) }
func (l lit) neg() bool   { return l&1 != 0 }

// gate kinds of the circuit.
const (
	gBase uint8 = iota
	gInput
	gAnd
	gOr
)

// goalOut is one (goal R V) output.
type goalOut struct {
	value int
	text  string
	ok    bool // text is an integer
	l     lit
}

// circuit is the gate graph of a propnet.Net, read through its exported
// introspection (WriteDOT), so that the analysis needs nothing private.
type circuit struct {
	kind     []uint8
	in       [][]lit
	baseOf   []int // node -> base proposition, or -1
	inputOf  []int // node -> input proposition (all roles' moves in role order), or -1
	bases    []string
	roles    []string
	next     []lit       // per base proposition
	goals    [][]goalOut // per role
	terminal lit
}

// outSlot is an output of the DOT drawing.
type outSlot struct {
	kind  int // 0 legal, 1 goal, 2 terminal, 3 next
	role  int
	index int
}

// readCircuit recovers the gate graph of net. Outputs that WriteDOT draws
// as several lits (legal outputs) are not needed and are skipped.
func readCircuit(ctx context.Context, net *propnet.Net) (*circuit, error) {
	var buf bytes.Buffer
	if err := net.WriteDOT(&buf, 1<<30); err != nil {
		return nil, err
	}
	c := &circuit{bases: net.BaseProps(), roles: net.Roles()}
	baseIndex := make(map[string]int, len(c.bases))
	for i, f := range c.bases {
		baseIndex["(true "+f+")"] = i
	}
	inputIndex := map[string]int{}
	for r, role := range c.roles {
		for _, m := range net.InputProps(r) {
			inputIndex["(does "+role+" "+m+")"] = len(inputIndex)
		}
	}
	// The outputs come in a fixed order: per role its legal moves and its
	// goals, then terminal, then next per base proposition.
	var slots []outSlot
	c.goals = make([][]goalOut, len(c.roles))
	for r := range c.roles {
		for i := range net.InputProps(r) {
			slots = append(slots, outSlot{0, r, i})
		}
		for i, t := range net.GoalValues(r) {
			v, err := strconv.Atoi(t)
			c.goals[r] = append(c.goals[r], goalOut{value: v, text: t, ok: err == nil, l: litFalse})
			slots = append(slots, outSlot{1, r, i})
		}
	}
	slots = append(slots, outSlot{2, 0, 0})
	c.next = make([]lit, len(c.bases))
	for b := range c.bases {
		c.next[b] = litFalse
		slots = append(slots, outSlot{3, 0, b})
	}
	c.terminal = litFalse
	seenOut := make([]int, len(slots))

	sc := bufio.NewScanner(&buf)
	sc.Buffer(make([]byte, 1<<16), 1<<26)
	lines := 0
	for sc.Scan() {
		if lines++; lines&0xffff == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		line := strings.TrimSpace(sc.Text())
		if arrow := strings.Index(line, " -> "); arrow >= 0 {
			if err := c.edge(line, arrow, slots, seenOut); err != nil {
				return nil, err
			}
			continue
		}
		if strings.HasPrefix(line, "n") {
			if err := c.node(line, baseIndex, inputIndex); err != nil {
				return nil, err
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	for i, s := range slots {
		if s.kind != 0 && seenOut[i] > 1 {
			return nil, fmt.Errorf("analysis: output %d has %d inputs", i, seenOut[i])
		}
	}
	return c, nil
}

// node parses `nID [attrs];`.
func (c *circuit) node(line string, baseIndex, inputIndex map[string]int) error {
	sp := strings.IndexByte(line, ' ')
	if sp < 0 {
		return nil
	}
	id, err := strconv.Atoi(line[1:sp])
	if err != nil {
		return nil // not a node line
	}
	for len(c.kind) <= id {
		c.kind = append(c.kind, gOr)
		c.in = append(c.in, nil)
		c.baseOf = append(c.baseOf, -1)
		c.inputOf = append(c.inputOf, -1)
	}
	li := strings.Index(line, "label=")
	if li < 0 {
		return fmt.Errorf("analysis: node without label: %s", line)
	}
	q := line[li+len("label="):]
	q = strings.TrimSuffix(strings.TrimSuffix(q, ";"), "]")
	label, err := strconv.Unquote(q)
	if err != nil {
		return fmt.Errorf("analysis: bad label %s: %v", q, err)
	}
	switch {
	case strings.Contains(line, "shape=box"):
		c.kind[id] = gBase
		if b, ok := baseIndex[label]; ok {
			c.baseOf[id] = b
		}
	case strings.Contains(line, "shape=diamond"):
		c.kind[id] = gInput
		if i, ok := inputIndex[label]; ok {
			c.inputOf[id] = i
		}
	case strings.HasPrefix(label, "AND\n"):
		c.kind[id] = gAnd
	default:
		c.kind[id] = gOr
	}
	return nil
}

// edge parses `from -> to;` or `from -> to [arrowhead=odot];`.
func (c *circuit) edge(line string, arrow int, slots []outSlot, seenOut []int) error {
	from := line[:arrow]
	rest := line[arrow+4:]
	neg := strings.Contains(rest, "odot")
	if i := strings.IndexAny(rest, " ;["); i >= 0 {
		rest = rest[:i]
	}
	var l lit
	switch from {
	case `"TRUE"`:
		l = litTrue
	case `"FALSE"`:
		l = litFalse
	default:
		v, err := strconv.Atoi(strings.TrimPrefix(from, "n"))
		if err != nil {
			return fmt.Errorf("analysis: bad edge %q", line)
		}
		l = lit(v << 1)
		if neg {
			l |= 1
		}
	}
	to, err := strconv.Atoi(rest[1:])
	if err != nil {
		return fmt.Errorf("analysis: bad edge %q", line)
	}
	if rest[0] == 'n' {
		if l < 0 || to >= len(c.in) {
			return fmt.Errorf("analysis: bad edge %q", line)
		}
		c.in[to] = append(c.in[to], l)
		return nil
	}
	if to >= len(slots) {
		return fmt.Errorf("analysis: output %d out of range", to)
	}
	seenOut[to]++
	s := slots[to]
	switch s.kind {
	case 1:
		c.goals[s.role][s.index].l = l
	case 2:
		c.terminal = l
	case 3:
		c.next[s.index] = l
	}
	return nil
}
