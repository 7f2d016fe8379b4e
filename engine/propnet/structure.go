package propnet

import (
	"errors"
	"fmt"
	"slices"
)

// Disjunct is one conjunction of a disjunctive normal form over base
// propositions: it holds when every base proposition in Pos is true and
// every one in Neg is false. Both lists are sorted.
type Disjunct struct {
	Pos []int
	Neg []int
}

// ErrTooManyDisjuncts is returned by Disjuncts when the normal form has
// more disjuncts than the caller allows.
var ErrTooManyDisjuncts = errors.New("propnet: the output's normal form has too many disjuncts")

// Disjuncts returns output o (a goal or terminal output; legal and next
// outputs work too) as a disjunctive normal form over base propositions,
// expanding the network's AND and OR gates and pushing negations inwards.
// Input propositions (which goal and terminal outputs of valid rules never
// read) are dropped, as if they could always be made to hold. Disjuncts
// that contradict themselves are left out; duplicates are kept only once.
// The expansion stops with ErrTooManyDisjuncts as soon as any intermediate
// form has more than max disjuncts, because normal forms can be exponential.
func (n *Net) Disjuncts(o Output, max int) ([]Disjunct, error) {
	roots, err := n.outputLits(o)
	if err != nil {
		return nil, err
	}
	x := &expander{net: n, in: n.inputsOf(), max: max, memo: map[clit][][]int32{}}
	x.baseOf = make([]int32, n.nodes)
	for i := range x.baseOf {
		x.baseOf[i] = -1
	}
	for b, v := range n.baseNode {
		if v >= 0 {
			x.baseOf[v] = int32(b)
		}
	}
	acc := [][]int32{{}} // the empty conjunction: true
	for _, l := range roots {
		f, err := x.lit(l)
		if err != nil {
			return nil, err
		}
		if acc, err = x.and(acc, f); err != nil {
			return nil, err
		}
	}
	out := make([]Disjunct, len(acc))
	for i, c := range acc {
		for _, l := range c {
			if l&1 == 0 {
				out[i].Pos = append(out[i].Pos, int(l>>1))
			} else {
				out[i].Neg = append(out[i].Neg, int(l>>1))
			}
		}
	}
	return out, nil
}

// expander computes normal forms; a conjunction is a sorted list of base
// literals (base<<1 | negated).
type expander struct {
	net    *Net
	in     [][]clit
	baseOf []int32
	max    int
	memo   map[clit][][]int32
}

// lit returns the normal form of a compiled lit.
func (x *expander) lit(l clit) ([][]int32, error) {
	switch l {
	case clTrue:
		return [][]int32{{}}, nil
	case clFalse:
		return nil, nil
	}
	if f, ok := x.memo[l]; ok {
		return f, nil
	}
	f, err := x.node(l>>1, l&1 != 0)
	if err != nil {
		return nil, err
	}
	x.memo[l] = f
	return f, nil
}

// node returns the normal form of node v, negated when neg is set.
func (x *expander) node(v clit, neg bool) ([][]int32, error) {
	negBit := int32(0)
	if neg {
		negBit = 1
	}
	switch kind(x.net.nodeKind[v]) {
	case kBase:
		return [][]int32{{x.baseOf[v]<<1 | negBit}}, nil
	case kInput:
		return [][]int32{{}}, nil
	case kConst:
		if neg {
			return [][]int32{{}}, nil
		}
		return nil, nil
	}
	// De Morgan: a negated AND is an OR of negated inputs, and so on.
	isAnd := (kind(x.net.nodeKind[v]) == kAnd) != neg
	acc := [][]int32{{}}
	if !isAnd {
		acc = nil
	}
	for _, in := range x.in[v] {
		l := in
		if neg {
			l ^= 1
		}
		f, err := x.lit(l)
		if err != nil {
			return nil, err
		}
		if isAnd {
			acc, err = x.and(acc, f)
		} else {
			acc, err = x.or(acc, f)
		}
		if err != nil {
			return nil, err
		}
	}
	return acc, nil
}

// or returns the union of two forms.
func (x *expander) or(a, b [][]int32) ([][]int32, error) {
	out := slices.Clone(a)
	seen := conjSet(out)
	for _, c := range b {
		if k := conjKey(c); !seen[k] {
			seen[k] = true
			out = append(out, c)
		}
	}
	if len(out) > x.max {
		return nil, ErrTooManyDisjuncts
	}
	return out, nil
}

// and returns the product of two forms.
func (x *expander) and(a, b [][]int32) ([][]int32, error) {
	if len(a)*len(b) > x.max {
		return nil, ErrTooManyDisjuncts
	}
	var out [][]int32
	seen := map[string]bool{}
	for _, ca := range a {
		for _, cb := range b {
			c, ok := mergeConj(ca, cb)
			if k := conjKey(c); ok && !seen[k] {
				seen[k] = true
				out = append(out, c)
			}
		}
	}
	return out, nil
}

// mergeConj returns the conjunction of two sorted conjunctions, or false
// when one holds a literal the other negates.
func mergeConj(a, b []int32) ([]int32, bool) {
	out := make([]int32, 0, len(a)+len(b))
	out = append(append(out, a...), b...)
	slices.Sort(out)
	out = slices.Compact(out)
	for i := 1; i < len(out); i++ {
		if out[i]>>1 == out[i-1]>>1 {
			return nil, false
		}
	}
	return out, true
}

// conjKey is a map key for a conjunction.
func conjKey(c []int32) string {
	b := make([]byte, 0, 4*len(c))
	for _, l := range c {
		b = append(b, byte(l), byte(l>>8), byte(l>>16), byte(l>>24))
	}
	return string(b)
}

func conjSet(f [][]int32) map[string]bool {
	m := make(map[string]bool, len(f))
	for _, c := range f {
		m[conjKey(c)] = true
	}
	return m
}

// Save appends the current state's bits to dst[:0] and returns the
// extended slice; Restore brings the state back. Together they let a
// search undo moves without allocating states.
func (s *Sim) Save(dst []uint64) []uint64 { return append(dst[:0], s.state...) }

// Restore makes bits, taken by Save from a simulator of the same Net,
// the current state, with no moves set. It changes only the propositions
// that differ.
func (s *Sim) Restore(bits []uint64) error {
	if len(bits) != len(s.state) {
		return errForeignState
	}
	s.clearMoves()
	s.load(bits)
	return nil
}

// Hash returns the hash of the current state, equal to State().Hash(),
// without allocating.
func (s *Sim) Hash() uint64 { return hashBits(s.state) }

// StateOf returns the state holding exactly the given facts (canonical
// text, as BaseProps gives them), for constructing positions. It fails on
// a fact that is not a base proposition.
func (n *Net) StateOf(facts []string) (*State, error) {
	bs := make([]uint64, n.words)
	for _, f := range facts {
		b, ok := n.factIdx[f]
		if !ok {
			return nil, fmt.Errorf("propnet: %q is not a base proposition", f)
		}
		bs[b>>6] |= 1 << uint(b&63)
	}
	return n.newState(bs), nil
}
