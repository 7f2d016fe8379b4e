package propnet

import (
	"bufio"
	"fmt"
	"io"
	"strconv"

	"gdlab/engine/game"
)

// BaseProps returns the facts of the base propositions, indexed by base
// proposition number, in byte order of their text.
func (n *Net) BaseProps() []string { return append([]string(nil), n.facts...) }

// InputProps returns the moves of role's input propositions, indexed by
// move number (game.Move), in byte order of their text.
func (n *Net) InputProps(role int) []string {
	if role < 0 || role >= len(n.roles) {
		return nil
	}
	return append([]string(nil), n.moves[role]...)
}

// GoalValues returns the goal values role can have (the text of each, as
// the rules write it), in byte order of their text.
func (n *Net) GoalValues(role int) []string {
	if role < 0 || role >= len(n.goals) {
		return nil
	}
	out := make([]string, len(n.goals[role]))
	for i, g := range n.goals[role] {
		out[i] = g.text
	}
	return out
}

// OutputKind is the kind of an output of the network.
type OutputKind int

// The kinds of output.
const (
	Legal    OutputKind = iota // (legal Role Move): Role, Index = move
	Goal                       // (goal Role Value): Role, Index into GoalValues(Role)
	Terminal                   // terminal
	Next                       // (next Fact): Index = base proposition
)

// Output names one output of the network.
type Output struct {
	Kind  OutputKind
	Role  int
	Index int
}

// Support is what an output depends on: the base propositions (state
// facts) and, per role, the input propositions (moves) from which a path of
// gates leads to it. Legal, goal and terminal outputs of well-formed rules
// depend on base propositions only.
type Support struct {
	Bases  []int
	Inputs [][]game.Move
}

// Support returns the propositions that output o depends on.
func (n *Net) Support(o Output) (Support, error) { return n.SupportOf([]Output{o}) }

// SupportOf returns the propositions that any of the outputs depends on,
// in one walk of the network (analyses ask for every legal output at once).
func (n *Net) SupportOf(outputs []Output) (Support, error) {
	var roots []clit
	for _, o := range outputs {
		ls, err := n.outputLits(o)
		if err != nil {
			return Support{}, err
		}
		roots = append(roots, ls...)
	}
	in := n.inputsOf()
	seen := make([]bool, n.nodes)
	var stack []int32
	for _, l := range roots {
		if l >= 0 && !seen[l>>1] {
			seen[l>>1] = true
			stack = append(stack, int32(l>>1))
		}
	}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, l := range in[v] {
			if u := int32(l >> 1); !seen[u] {
				seen[u] = true
				stack = append(stack, u)
			}
		}
	}
	return n.supportOf(seen), nil
}

// outputLits returns the compiled lits that make up output o.
func (n *Net) outputLits(o Output) ([]clit, error) {
	bad := fmt.Errorf("propnet: no output %+v", o)
	switch o.Kind {
	case Legal:
		if o.Role < 0 || o.Role >= len(n.roles) || o.Index < 0 || o.Index >= len(n.moves[o.Role]) {
			return nil, bad
		}
		i := n.inputOff[o.Role] + int32(o.Index)
		return []clit{n.legal[i], n.groupGate[n.moveGroup[i]]}, nil
	case Goal:
		if o.Role < 0 || o.Role >= len(n.goals) || o.Index < 0 || o.Index >= len(n.goals[o.Role]) {
			return nil, bad
		}
		return []clit{n.goals[o.Role][o.Index].l}, nil
	case Terminal:
		return []clit{n.terminal}, nil
	case Next:
		if o.Index < 0 || o.Index >= len(n.next) {
			return nil, bad
		}
		return []clit{n.next[o.Index]}, nil
	}
	return nil, bad
}

// inputsOf returns every node's inputs, recovered from the fanout tables
// and the lazy gates' tables.
func (n *Net) inputsOf() [][]clit {
	in := make([][]clit, n.nodes)
	for v := int32(0); v < n.nodes; v++ {
		for _, x := range n.fan[n.fanOff[v]:n.fanOff[v+1]] {
			l := clit(v << 1)
			if x < 0 {
				l |= 1
			}
			t := x & 0x7fffffff
			in[t] = append(in[t], l)
		}
	}
	for i, v := range n.lazyNode {
		in[v] = append(in[v], n.lazyIn[n.lazyOff[i]:n.lazyOff[i+1]]...)
	}
	return in
}

// supportOf lists the propositions among the marked nodes.
func (n *Net) supportOf(seen []bool) Support {
	s := Support{Inputs: make([][]game.Move, len(n.roles))}
	for b, v := range n.baseNode {
		if v >= 0 && seen[v] {
			s.Bases = append(s.Bases, b)
		}
	}
	for i, v := range n.inputNode {
		if v >= 0 && seen[v] {
			r := n.inputRole(int32(i))
			s.Inputs[r] = append(s.Inputs[r], game.Move(int32(i)-n.inputOff[r]))
		}
	}
	return s
}

// DefaultMaxDOTNodes bounds the networks WriteDOT renders.
const DefaultMaxDOTNodes = 2000

// WriteDOT writes the network in Graphviz DOT: base propositions as boxes,
// input propositions as diamonds, AND and OR gates as labelled ellipses,
// negated connections with a hollow-dot arrowhead, and the outputs (legal,
// goal, terminal, next) as double circles. Networks of more than maxNodes
// nodes (0 means DefaultMaxDOTNodes) are refused: their drawings are
// unreadable.
func (n *Net) WriteDOT(w io.Writer, maxNodes int) error {
	if maxNodes <= 0 {
		maxNodes = DefaultMaxDOTNodes
	}
	if int(n.nodes) > maxNodes {
		return fmt.Errorf("propnet: the network has %d nodes, more than the %d a drawing may have", n.nodes, maxNodes)
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, "digraph propnet {\n  rankdir=LR;\n  node [fontsize=10];")
	for v := int32(0); v < n.nodes; v++ {
		fmt.Fprintf(bw, "  n%d [%s];\n", v, n.dotNode(v))
	}
	in := n.inputsOf()
	for v := range in {
		for _, l := range in[v] {
			n.dotEdge(bw, "n"+strconv.Itoa(int(l>>1)), "n"+strconv.Itoa(v), l&1 != 0)
		}
	}
	for i, o := range n.dotOutputs() {
		fmt.Fprintf(bw, "  o%d [shape=doublecircle, label=%q];\n", i, o.label)
		for _, l := range o.lits {
			n.dotEdge(bw, litNode(l), "o"+strconv.Itoa(i), l >= 0 && l&1 != 0)
		}
	}
	fmt.Fprintln(bw, "}")
	return bw.Flush()
}

func (n *Net) dotNode(v int32) string {
	switch kind(n.nodeKind[v]) {
	case kBase:
		return fmt.Sprintf("shape=box, label=%q", n.nodeName[v])
	case kInput:
		return fmt.Sprintf("shape=diamond, label=%q", n.nodeName[v])
	case kAnd:
		return fmt.Sprintf("label=%q", "AND\n"+n.nodeName[v])
	}
	return fmt.Sprintf("label=%q", "OR\n"+n.nodeName[v])
}

func (n *Net) dotEdge(w io.Writer, from, to string, neg bool) {
	if neg {
		fmt.Fprintf(w, "  %s -> %s [arrowhead=odot];\n", from, to)
	} else {
		fmt.Fprintf(w, "  %s -> %s;\n", from, to)
	}
}

// litNode names the DOT node of a compiled lit; constants get their own.
func litNode(l clit) string {
	switch l {
	case clTrue:
		return `"TRUE"`
	case clFalse:
		return `"FALSE"`
	}
	return "n" + strconv.Itoa(int(l>>1))
}

type dotOutput struct {
	label string
	lits  []clit
}

// dotOutputs lists the outputs to draw, in a stable order.
func (n *Net) dotOutputs() []dotOutput {
	var out []dotOutput
	for r, role := range n.roles {
		for m, text := range n.moves[r] {
			lits, _ := n.outputLits(Output{Kind: Legal, Role: r, Index: m})
			out = append(out, dotOutput{"(legal " + role + " " + text + ")", lits})
		}
		for i, g := range n.goals[r] {
			out = append(out, dotOutput{"(goal " + role + " " + g.text + ")", []clit{n.goals[r][i].l}})
		}
	}
	out = append(out, dotOutput{"terminal", []clit{n.terminal}})
	for b, f := range n.facts {
		out = append(out, dotOutput{"(next " + f + ")", []clit{n.next[b]}})
	}
	return out
}
