// Package circuit owns the gate graph of a propositional network as the
// analyses read it, through the network's exported drawing (WriteDOT), and
// its three-valued evaluation under a partial assignment of the base
// propositions. The latch analysis and the move-distance metric share it.
package circuit

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"

	"gdlab/engine/propnet"
)

// Lit is a literal of the circuit: node<<1 | negated, or one of the
// constants LitTrue and LitFalse.
type Lit int32

// The constant literals.
const (
	LitFalse Lit = -2
	LitTrue  Lit = -1
)

func (l Lit) node() int32 { return int32(l >> 1) }
func (l Lit) neg() bool   { return l&1 != 0 }

// gate kinds of the circuit.
const (
	gBase uint8 = iota
	gInput
	gAnd
	gOr
)

// Goal is one (goal R V) output.
type Goal struct {
	Value int    // the goal value, when OK
	Text  string // the goal value as written
	OK    bool   // Text is an integer
	Lit   Lit    // the output's literal
}

// Circuit is the gate graph of a propnet.Net, read through its exported
// introspection (WriteDOT), so that the analyses need nothing private.
type Circuit struct {
	kind     []uint8
	in       [][]Lit
	baseOf   []int    // node -> base proposition, or -1
	inputOf  []int    // node -> input proposition (all roles' moves in role order), or -1
	Bases    []string // the base propositions' fact texts (Net.BaseProps)
	Roles    []string
	Next     []Lit    // per base proposition: its next output
	Legal    [][]Lit  // per input proposition (all roles' moves in role order): the literals its legal output conjoins
	Goals    [][]Goal // per role: its goal outputs
	Terminal Lit      // the terminal output
}

// outSlot is an output of the DOT drawing.
type outSlot struct {
	kind  int // 0 legal, 1 goal, 2 terminal, 3 next
	role  int
	index int
}

// Read recovers the gate graph of net. A legal output, which WriteDOT
// draws as several literals, is kept as the list of them (Legal).
func Read(ctx context.Context, net *propnet.Net) (*Circuit, error) {
	var buf bytes.Buffer
	if err := net.WriteDOT(&buf, 1<<30); err != nil {
		return nil, err
	}
	c := &Circuit{Bases: net.BaseProps(), Roles: net.Roles()}
	baseIndex := make(map[string]int, len(c.Bases))
	for i, f := range c.Bases {
		baseIndex["(true "+f+")"] = i
	}
	inputIndex := map[string]int{}
	for r, role := range c.Roles {
		for _, m := range net.InputProps(r) {
			inputIndex["(does "+role+" "+m+")"] = len(inputIndex)
		}
	}
	// The outputs come in a fixed order: per role its legal moves and its
	// goals, then terminal, then next per base proposition.
	var slots []outSlot
	c.Goals = make([][]Goal, len(c.Roles))
	for r := range c.Roles {
		for range net.InputProps(r) {
			slots = append(slots, outSlot{0, r, len(c.Legal)})
			c.Legal = append(c.Legal, nil)
		}
		for i, t := range net.GoalValues(r) {
			v, err := strconv.Atoi(t)
			c.Goals[r] = append(c.Goals[r], Goal{Value: v, Text: t, OK: err == nil, Lit: LitFalse})
			slots = append(slots, outSlot{1, r, i})
		}
	}
	slots = append(slots, outSlot{2, 0, 0})
	c.Next = make([]Lit, len(c.Bases))
	for b := range c.Bases {
		c.Next[b] = LitFalse
		slots = append(slots, outSlot{3, 0, b})
	}
	c.Terminal = LitFalse
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
func (c *Circuit) node(line string, baseIndex, inputIndex map[string]int) error {
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
func (c *Circuit) edge(line string, arrow int, slots []outSlot, seenOut []int) error {
	from := line[:arrow]
	rest := line[arrow+4:]
	neg := strings.Contains(rest, "odot")
	if i := strings.IndexAny(rest, " ;["); i >= 0 {
		rest = rest[:i]
	}
	var l Lit
	switch from {
	case `"TRUE"`:
		l = LitTrue
	case `"FALSE"`:
		l = LitFalse
	default:
		v, err := strconv.Atoi(strings.TrimPrefix(from, "n"))
		if err != nil {
			return fmt.Errorf("analysis: bad edge %q", line)
		}
		l = Lit(v << 1)
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
	case 0:
		c.Legal[s.index] = append(c.Legal[s.index], l)
	case 1:
		c.Goals[s.role][s.index].Lit = l
	case 2:
		c.Terminal = l
	case 3:
		c.Next[s.index] = l
	}
	return nil
}

// Structural reports whether l is base proposition b itself (X), or an OR
// (pos) / AND (not pos) gate, possibly nested, with X among its direct
// inputs: the textbook shape of a positive or negative latch. Negations
// are read through De Morgan's laws, so NOT(NOT X OR …) counts as X AND ….
func (c *Circuit) Structural(l Lit, b int, pos bool) bool { return c.structuralUnder(l, b, pos, false) }

func (c *Circuit) structuralUnder(l Lit, b int, pos, negated bool) bool {
	if l < 0 {
		return false
	}
	n, e := l.node(), l.neg() != negated
	if c.kind[n] == gBase {
		return c.baseOf[n] == b && !e
	}
	if c.kind[n] != gAnd && c.kind[n] != gOr {
		return false
	}
	isOr := (c.kind[n] == gOr) != e // the gate's kind once the negation is pushed in
	if isOr != pos {
		return false
	}
	for _, x := range c.in[n] {
		if c.structuralUnder(x, b, pos, e) {
			return true
		}
	}
	return false
}

// Props lists the facts of an index of base propositions by their
// numbers: the inverse of the index.
func Props(index map[string]int) []string {
	props := make([]string, len(index))
	for f, i := range index {
		props[i] = f
	}
	return props
}
