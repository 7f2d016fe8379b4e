package propnet

import (
	"context"
	"encoding/binary"
	"slices"
)

// optimize simplifies the graph until it stops shrinking: constants are
// folded, gates with one input are bypassed, duplicate gates are merged,
// single-reader gates are inlined into readers of the same kind (through
// De Morgan for negated ones), and nodes that no output depends on are
// dropped.
func (g *graph) optimize(ctx context.Context) (*graph, error) {
	for pass := 0; pass < 8; pass++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		before := g.size()
		ng, err := g.simplify()
		if err != nil {
			return nil, err
		}
		g = ng
		if g.size() == before {
			break
		}
	}
	return g, nil
}

// size is the number of gates plus the number of gate inputs.
func (g *graph) size() int {
	n := 0
	for _, nd := range g.nodes {
		if nd.kind == kAnd || nd.kind == kOr {
			n += 1 + len(nd.in)
		}
	}
	return n
}

// simplifier rebuilds a graph in topological order into a fresh one.
type simplifier struct {
	old    *graph
	g      *graph
	repl   []lit // old node -> lit in the new graph
	reads  []int32
	hashed map[string]lit
	key    []byte
	buf    []lit
}

// simplify returns a simplified copy of g with only the nodes outputs need.
func (g *graph) simplify() (*graph, error) {
	order, ok := g.topoOrder()
	if !ok {
		return nil, errCycle
	}
	// The copy has at most as many nodes as the original; reserving them
	// up front saves re-copying a slice of millions of nodes as it grows.
	s := &simplifier{old: g, g: &graph{nodes: make([]gnode, 0, len(g.nodes))}, repl: make([]lit, len(g.nodes)), hashed: map[string]lit{}}
	s.countReads(order)
	s.g.add(kConst, nil, 0)
	s.g.bases = make([]int32, len(g.bases))
	for i, n := range g.bases {
		s.g.bases[i] = s.g.add(kBase, nil, int32(i))
		s.repl[n] = mkLit(s.g.bases[i], false)
	}
	s.g.inputs = make([]int32, len(g.inputs))
	for i, n := range g.inputs {
		s.g.inputs[i] = s.g.add(kInput, nil, int32(i))
		s.repl[n] = mkLit(s.g.inputs[i], false)
	}
	inlined := s.inlined(order)
	s.g.names = g.names
	for _, n := range order {
		if k := g.nodes[n].kind; (k == kAnd || k == kOr) && !inlined[n] {
			s.repl[n] = s.gate(n)
			s.keepName(n)
		}
	}
	s.g.legal = make([][]lit, len(g.legal))
	for r := range g.legal {
		s.g.legal[r] = make([]lit, len(g.legal[r]))
	}
	s.g.goals = make([][]goalOut, len(g.goals))
	for r := range g.goals {
		s.g.goals[r] = slices.Clone(g.goals[r])
	}
	s.g.next = make([]lit, len(g.next))
	if g.gate != nil {
		s.g.gate = make([][]lit, len(g.gate))
		for r := range g.gate {
			s.g.gate[r] = make([]lit, len(g.gate[r]))
		}
	}
	copyOutputs(g, s.g, func(l lit) lit { return s.mapLit(l) })
	return s.g, nil
}

// copyOutputs sets dst's outputs to src's mapped through f.
func copyOutputs(src, dst *graph, f func(lit) lit) {
	var outs []lit
	src.outputs(func(l *lit) { outs = append(outs, f(*l)) })
	i := 0
	dst.outputs(func(l *lit) { *l = outs[i]; i++ })
}

func (s *simplifier) mapLit(l lit) lit {
	if l.isConst() {
		return l
	}
	return s.repl[l.node()] ^ (l & 1)
}

// countReads counts, for each node, the gates and outputs that read it.
func (s *simplifier) countReads(order []int32) {
	s.reads = make([]int32, len(s.old.nodes))
	for _, n := range order {
		for _, l := range s.old.nodes[n].in {
			s.reads[l.node()]++
		}
	}
	s.old.outputs(func(l *lit) { s.reads[l.node()] += 2 }) // outputs are never inlined
}

// keepName passes old gate n's name to the node that now computes it.
func (s *simplifier) keepName(n int32) {
	ref, l := s.old.nodes[n].ref, s.repl[n]
	if ref == 0 || l.isConst() || l.neg() {
		return
	}
	if nd := &s.g.nodes[l.node()]; (nd.kind == kAnd || nd.kind == kOr) && nd.ref == 0 {
		nd.ref = ref
	}
}

// inlined marks the gates that their only reader absorbs: a gate read
// positively by a gate of its kind, or negated by a gate of the other kind.
func (s *simplifier) inlined(order []int32) []bool {
	out := make([]bool, len(s.old.nodes))
	for _, p := range order {
		pk := s.old.nodes[p].kind
		if pk != kAnd && pk != kOr {
			continue
		}
		for _, l := range s.old.nodes[p].in {
			c := l.node()
			if s.reads[c] == 1 && s.inlines(pk, l) {
				out[c] = true
			}
		}
	}
	return out
}

// inlines reports whether a gate of kind pk absorbs its input l (a gate read
// by nothing else).
func (s *simplifier) inlines(pk kind, l lit) bool {
	ck := s.old.nodes[l.node()].kind
	return (ck == kAnd || ck == kOr) && (ck == pk) == !l.neg()
}

// gate builds old node n in the new graph and returns the lit standing for it.
func (s *simplifier) gate(n int32) lit {
	nd := &s.old.nodes[n]
	isAnd := nd.kind == kAnd
	// An AND is an OR with inputs and output negated: work on ORs only.
	ins := s.buf[:0]
	for _, l := range nd.in {
		ins = s.collect(ins, l, isAnd)
	}
	ins, out, ok := s.orOf(ins)
	s.buf = ins
	if !ok {
		out = s.intern(ins)
	}
	if isAnd {
		out = out.not()
	}
	return out
}

// collect appends the inputs of an OR (inputs of an AND negated when
// negate is set) for old lit l, inlining single-reader gates of the same
// polarity.
func (s *simplifier) collect(dst []lit, l lit, negate bool) []lit {
	if negate {
		l = l.not()
	}
	nd := &s.old.nodes[l.node()]
	if s.reads[l.node()] != 1 || !s.inlines(kOr, l) {
		return append(dst, s.mapLit(l))
	}
	// l is OR(x...) or NOT AND(x...) = OR(NOT x...).
	for _, x := range nd.in {
		dst = s.collect(dst, x, nd.kind == kAnd)
	}
	return dst
}

// orOf simplifies an OR of ins (sorted and compacted in place) and returns
// its value when it is a constant or a single lit.
func (s *simplifier) orOf(ins []lit) ([]lit, lit, bool) {
	slices.Sort(ins)
	w := 0
	for i, x := range ins {
		switch {
		case x == litTrue:
			return ins, litTrue, true
		case x == litFalse:
			continue
		case w > 0 && ins[w-1] == x:
			continue
		case w > 0 && ins[w-1] == x.not():
			return ins, litTrue, true
		}
		ins[w] = ins[i]
		w++
	}
	ins = ins[:w]
	switch w {
	case 0:
		return ins, litFalse, true
	case 1:
		return ins, ins[0], true
	}
	return ins, 0, false
}

// intern returns the gate OR(s.buf), reusing an identical one. An OR whose
// inputs are all negated is stored as NOT AND of the positive inputs, which
// keeps the network's gates close to the rules.
func (s *simplifier) intern(ins []lit) lit {
	allNeg := true
	for _, x := range ins {
		allNeg = allNeg && x.neg()
	}
	k := kOr
	if allNeg {
		k = kAnd
		for i := range ins {
			ins[i] = ins[i].not()
		}
		slices.Sort(ins)
	}
	key := s.key[:0]
	key = append(key, byte(k))
	for _, x := range ins {
		key = binary.LittleEndian.AppendUint32(key, uint32(x))
	}
	s.key = key
	out, found := s.hashed[string(key)]
	if !found {
		out = mkLit(s.g.add(k, slices.Clone(ins), 0), false)
		s.hashed[string(key)] = out
	}
	if k == kAnd {
		return out.not()
	}
	return out
}
