package propnet

import (
	"fmt"
	"slices"
)

// program is a Net's logic as straight-line code: every gate evaluated
// once per step, inputs before readers, with no counters and no events.
// It is read-only and shared by every simulator made from it.
//
// A node's value lives in two slots of a simulator's value array: slot
// 2v holds it and slot 2v+1 its negation, so that a compiled lit
// (node<<1 | negated) indexes its own value directly and no kernel tests
// a negation flag. Node konst, one past the Net's nodes, is the constant:
// slot 2*konst is false and 2*konst+1 true.
type program struct {
	net   *Net
	konst int32
	// stateCode computes the gates that read no input proposition;
	// moveCode, run after the moves are set, the gates that do. goalCode
	// computes the gates only goals read, when a goal is asked for.
	stateCode, moveCode, goalCode code
	// An OR in moveCode that reads input propositions reads instead one
	// pseudo-node (numbered from konst+1) that stands for the OR of them,
	// which simulators compute from the moves set: one move per role is
	// set, so an OR over a hundred moves costs a few updates rather than
	// a hundred reads. Input proposition i feeds the pseudo-nodes
	// sets[setOff[i]:setOff[i+1]].
	pseudo       bool
	pseudos      int32
	setOff, sets []int32
	// Lanes set up to 64 moves of a role at once, and an OR over most of
	// a role's moves (breakthrough's "no move touches this cell") would
	// cost a write for each. Such a pseudo-node's part for that role is
	// computed from its complement instead: a lane plays exactly one move
	// of each role, so the part is the lanes where the role moves less
	// those whose move lies in the complement. For Lanes, input
	// proposition i feeds the pseudo-nodes
	// laneDirect[laneDirectOff[i]:laneDirectOff[i+1]] and lies in the
	// complements of compParts[c] for c in
	// laneComp[laneCompOff[i]:laneCompOff[i+1]].
	laneDirectOff, laneDirect []int32
	laneCompOff, laneComp     []int32
	compParts                 []compPart

	legal    []int32     // per input proposition: its rest's lit
	gate     []int32     // per input proposition: its group gate's lit
	runs     [][]gateRun // per role: its input propositions, in runs that share a gate
	next     []int32     // per base proposition
	terminal int32       // terminal's lit
	goals    [][]int32   // per role, per goal of Net.goals: its lit

	// run holds native kernels for the state, move and goal code
	// (Flat.WithKernels), which Lanes run in place of runWords; nil runs
	// the interpreted code.
	run [3]func(val []uint64)
}

// Indices of program.codes and program.run.
const (
	codeState = iota
	codeMove
	codeGoal
)

// runLanes evaluates code i (codeState, codeMove or codeGoal) on words of
// lanes, natively when the program has kernels.
func (p *program) runLanes(i int, val []uint64) {
	if f := p.run[i]; f != nil {
		f(val)
		return
	}
	runWords(p.code(i), val)
}

// code is a list of gates in an order where every gate follows its inputs,
// in two forms: gates for the generic kernel and segs, the same gates
// sorted by level and grouped by kind and fan-in into homogeneous
// segments for the specialised kernels.
type code struct {
	gates []gate
	ins   []int32 // lits read by gates
	segs  []seg
	ops   []int32 // operands of the segments
}

// gate is one AND (and set) or OR over ins[lo:hi] writing node out. An AND
// of no inputs is true and an OR of none false, which is how constant
// gates are written.
type gate struct {
	out    int32
	lo, hi int32
	and    bool
}

// compileProgram turns a Net into straight-line code. It fails on a gate
// that is neither an AND nor an OR of its inputs, which Build never makes.
// With pseudo set, ORs over moves read pseudo-nodes (see program).
func compileProgram(n *Net, pseudo bool) (*program, error) {
	p := &program{net: n, konst: n.nodes, pseudo: pseudo}
	ins, and, err := n.gateInputs()
	if err != nil {
		return nil, err
	}
	order, err := n.eagerOrder(ins)
	if err != nil {
		return nil, err
	}
	inputOf := make([]int32, n.nodes) // node -> input proposition, or -1
	for i := range inputOf {
		inputOf[i] = -1
	}
	for i, v := range n.inputNode {
		if v >= 0 {
			inputOf[v] = int32(i)
		}
	}
	readers := make([][]int32, len(n.inputNode))
	readsMove := make([]bool, n.nodes)
	for _, v := range order {
		if n.nodeKind[v] == uint8(kInput) {
			readsMove[v] = true
		}
		for _, l := range ins[v] {
			readsMove[v] = readsMove[v] || readsMove[l>>1]
		}
	}
	for _, v := range order {
		k := n.nodeKind[v]
		if k != uint8(kAnd) && k != uint8(kOr) {
			continue
		}
		if !readsMove[v] {
			p.stateCode.add(v, and[v], ins[v])
			continue
		}
		p.moveCode.add(v, and[v], p.gatherMoves(v, and[v], ins[v], inputOf, readers))
	}
	p.flattenReaders(readers)
	p.lazyCode()
	p.stateCode.specialise()
	p.moveCode.specialise()
	p.goalCode.specialise()
	p.outputs()
	return p, nil
}

// gateInputs inverts the fanout lists into each eager gate's inputs and
// recovers its kind from its initial counter. A gate with k true inputs
// out of those the fanout lists (a constant input has no fanout) has
// counter t-1-k for its threshold t, so t follows from the counter with
// every proposition false; t = n makes an AND of its n inputs, t = 1 an
// OR, t <= 0 the constant true and t > n the constant false.
func (n *Net) gateInputs() (ins [][]int32, and []bool, err error) {
	ins = make([][]int32, n.nodes)
	for v := int32(0); v < n.eager; v++ {
		for _, x := range n.fan[n.fanOff[v]:n.fanOff[v+1]] {
			r := x & 0x7fffffff
			l := v << 1
			if x < 0 {
				l |= 1
			}
			ins[r] = append(ins[r], l)
		}
	}
	and = make([]bool, n.nodes)
	for v := int32(0); v < n.eager; v++ {
		k := n.nodeKind[v]
		if k != uint8(kAnd) && k != uint8(kOr) {
			continue
		}
		true0 := int32(0)
		for _, l := range ins[v] {
			if (n.cnt0[l>>1] < 0) != (l&1 != 0) {
				true0++
			}
		}
		t, w := int32(n.cnt0[v])+true0+1, int32(len(ins[v]))
		switch {
		case t <= 0:
			ins[v], and[v] = nil, true
		case t > w:
			ins[v], and[v] = nil, false
		case t == w:
			and[v] = true
		case t == 1:
			and[v] = false
		default:
			return nil, nil, fmt.Errorf("propnet: internal error: node %d is a %d-of-%d threshold gate", v, t, w)
		}
	}
	return ins, and, nil
}

// eagerOrder returns the eager nodes with every node after its inputs.
func (n *Net) eagerOrder(ins [][]int32) ([]int32, error) {
	deg := make([]int32, n.eager)
	var order []int32
	for v := int32(0); v < n.eager; v++ {
		deg[v] = int32(len(ins[v]))
		if deg[v] == 0 {
			order = append(order, v)
		}
	}
	for i := 0; i < len(order); i++ {
		v := order[i]
		for _, x := range n.fan[n.fanOff[v]:n.fanOff[v+1]] {
			r := x & 0x7fffffff
			if deg[r]--; deg[r] == 0 {
				order = append(order, r)
			}
		}
	}
	if len(order) != int(n.eager) {
		return nil, errCycle
	}
	return order, nil
}

// gatherMoves returns the inputs of gate v with, for an OR that reads at
// least two input propositions unnegated, those reads replaced by one
// pseudo-node that each of them feeds (readers, per input proposition).
func (p *program) gatherMoves(v int32, and bool, ins, inputOf []int32, readers [][]int32) []int32 {
	if and || !p.pseudo {
		return ins
	}
	var rest, moves []int32
	for _, l := range ins {
		if i := inputOf[l>>1]; i >= 0 && l&1 == 0 {
			moves = append(moves, i)
		} else {
			rest = append(rest, l)
		}
	}
	if len(moves) < 2 {
		return ins
	}
	ps := p.konst + 1 + p.pseudos
	p.pseudos++
	for _, i := range moves {
		readers[i] = append(readers[i], ps)
	}
	return append(rest, 2*ps)
}

// gateRun is the input propositions lo..hi-1, whose legality shares the
// gate lit gate: where the gate is false, none of them is legal, and a
// move draw skips them all (a role's moves when it is not its turn).
type gateRun struct{ lo, hi, gate int32 }

// compPart is one role's part of a pseudo-node that Lanes computes from
// its complement.
type compPart struct{ ps, role int32 }

// flattenReaders lays out the pseudo-nodes each input proposition feeds,
// and the same for Lanes, with each role's part of a pseudo-node that
// reads more than half the role's moves given by its complement.
func (p *program) flattenReaders(readers [][]int32) {
	p.setOff = make([]int32, len(readers)+1)
	for i, rs := range readers {
		p.sets = append(p.sets, rs...)
		p.setOff[i+1] = int32(len(p.sets))
	}
	moves := make([][]int32, p.pseudos) // pseudo-node - konst - 1 -> its inputs, ascending
	for i, rs := range readers {
		for _, ps := range rs {
			moves[ps-p.konst-1] = append(moves[ps-p.konst-1], int32(i))
		}
	}
	direct := make([][]int32, len(readers))
	comp := make([][]int32, len(readers))
	n := p.net
	for k, ins := range moves {
		ps := p.konst + 1 + int32(k)
		for r := range n.roles {
			lo, hi := n.inputOff[r], n.inputOff[r+1]
			var part []int32
			for _, i := range ins {
				if i >= lo && i < hi {
					part = append(part, i)
				}
			}
			if 2*len(part) <= int(hi-lo) {
				for _, i := range part {
					direct[i] = append(direct[i], ps)
				}
				continue
			}
			c := int32(len(p.compParts))
			p.compParts = append(p.compParts, compPart{ps: ps, role: int32(r)})
			for i, j := lo, 0; i < hi; i++ {
				if j < len(part) && part[j] == i {
					j++
					continue
				}
				comp[i] = append(comp[i], c)
			}
		}
	}
	p.laneDirectOff, p.laneDirect = flatten(direct)
	p.laneCompOff, p.laneComp = flatten(comp)
}

// flatten lays lists end to end: list i is out[off[i]:off[i+1]].
func flatten(lists [][]int32) (off, out []int32) {
	off = make([]int32, len(lists)+1)
	for i, l := range lists {
		out = append(out, l...)
		off[i+1] = int32(len(out))
	}
	return off, out
}

// slots returns the length of a simulator's value array.
func (p *program) slots() int { return int(2 * (p.konst + 1 + p.pseudos)) }

// add appends a gate.
func (c *code) add(out int32, and bool, ins []int32) {
	lo := int32(len(c.ins))
	c.ins = append(c.ins, ins...)
	c.gates = append(c.gates, gate{out: out, lo: lo, hi: int32(len(c.ins)), and: and})
}

// lazyCode compiles the lazy gates, which the Net keeps in topological
// order, into goalCode.
func (p *program) lazyCode() {
	n := p.net
	buf := []int32{}
	for i, v := range n.lazyNode {
		buf = buf[:0]
		for _, l := range n.lazyIn[n.lazyOff[i]:n.lazyOff[i+1]] {
			buf = append(buf, p.lit(l))
		}
		p.goalCode.add(v, n.lazyAnd[i], buf)
	}
}

// lit turns a compiled output into a value slot.
func (p *program) lit(l clit) int32 {
	switch l {
	case clFalse:
		return 2 * p.konst
	case clTrue:
		return 2*p.konst + 1
	}
	return int32(l)
}

// outputs compiles the legal, next, terminal and goal outputs.
func (p *program) outputs() {
	n := p.net
	p.legal = make([]int32, len(n.legal))
	p.gate = make([]int32, len(n.legal))
	for i, l := range n.legal {
		p.legal[i] = p.lit(l)
		p.gate[i] = p.lit(n.groupGate[n.moveGroup[i]])
	}
	p.runs = make([][]gateRun, len(n.roles))
	for r := range n.roles {
		for i := n.inputOff[r]; i < n.inputOff[r+1]; i++ {
			k := len(p.runs[r]) - 1
			if k >= 0 && p.runs[r][k].gate == p.gate[i] && p.runs[r][k].hi == i {
				p.runs[r][k].hi++
				continue
			}
			p.runs[r] = append(p.runs[r], gateRun{lo: i, hi: i + 1, gate: p.gate[i]})
		}
	}
	p.next = make([]int32, len(n.next))
	for b, l := range n.next {
		p.next[b] = p.lit(l)
	}
	p.terminal = p.lit(n.terminal)
	p.goals = make([][]int32, len(n.goals))
	for r, gs := range n.goals {
		for _, g := range gs {
			p.goals[r] = append(p.goals[r], p.lit(g.l))
		}
	}
}

// Segment kinds of the specialised kernels.
const (
	segAnd2 uint8 = iota // ops: out, a, b per gate
	segOr2
	segAnd // ops: out, n, then n inputs per gate
	segOr
)

// seg is a run of gates of one kind: ops[lo:hi].
type seg struct {
	kind   uint8
	lo, hi int32
}

// specialise lays out the gates as segments: gates are sorted by level
// (one more than their deepest input's within this code), and gates of
// one level by kind, so that each segment runs one loop without a switch.
// Gates of one level read no gate of the same level, so any order within
// a level is an order inputs-first, and a segment may run on across
// levels while its kind does not change.
func (c *code) specialise() {
	level := map[int32]int32{}
	lv := make([]int32, len(c.gates))
	for i, g := range c.gates {
		l := int32(0)
		for _, x := range c.ins[g.lo:g.hi] {
			if d, ok := level[x>>1]; ok && d+1 > l {
				l = d + 1
			}
		}
		lv[i] = l
		level[g.out] = l
	}
	idx := make([]int, len(c.gates))
	for i := range idx {
		idx[i] = i
	}
	kind := func(g gate) uint8 {
		switch {
		case g.hi-g.lo == 2 && g.and:
			return segAnd2
		case g.hi-g.lo == 2:
			return segOr2
		case g.and:
			return segAnd
		}
		return segOr
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		if lv[a] != lv[b] {
			return int(lv[a] - lv[b])
		}
		return int(kind(c.gates[a])) - int(kind(c.gates[b]))
	})
	for _, i := range idx {
		g := c.gates[i]
		k := kind(g)
		if len(c.segs) == 0 || c.segs[len(c.segs)-1].kind != k {
			c.segs = append(c.segs, seg{kind: k, lo: int32(len(c.ops)), hi: int32(len(c.ops))})
		}
		c.ops = append(c.ops, 2*g.out)
		if k == segAnd || k == segOr {
			c.ops = append(c.ops, g.hi-g.lo)
		}
		c.ops = append(c.ops, c.ins[g.lo:g.hi]...)
		c.segs[len(c.segs)-1].hi = int32(len(c.ops))
	}
}
