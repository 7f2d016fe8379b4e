package analysis

import "sort"

// Three-valued evaluation of the circuit: every base proposition is true,
// false or unknown, inputs (moves) are unknown, and gates follow Kleene's
// logic. A result that is true or false under a partial assignment holds
// for every completion of it, which is what the latch proofs need.

const (
	vFalse   uint8 = 0
	vTrue    uint8 = 1
	vUnknown uint8 = 2
)

// evaluator evaluates lits under a partial assignment of the bases. It
// memoises node values per assignment with a generation stamp.
type evaluator struct {
	c      *circuit
	assign []uint8 // per base
	inputs []uint8 // per input proposition, or nil: every input unknown
	memo   []uint8
	stamp  []uint32
	gen    uint32
}

func newEvaluator(c *circuit) *evaluator {
	e := &evaluator{c: c, assign: make([]uint8, len(c.bases)), memo: make([]uint8, len(c.kind)), stamp: make([]uint32, len(c.kind))}
	for i := range e.assign {
		e.assign[i] = vUnknown
	}
	return e
}

// with evaluates l with the given bases set to the given values (and every
// other base unknown).
func (e *evaluator) with(l lit, bases []int, vals []bool) uint8 {
	for i, b := range bases {
		e.assign[b] = b2v(vals[i])
	}
	e.gen++
	if e.gen == 0 { // wrapped: clear the stamps
		clear(e.stamp)
		e.gen = 1
	}
	v := e.lit(l)
	for _, b := range bases {
		e.assign[b] = vUnknown
	}
	return v
}

func b2v(b bool) uint8 {
	if b {
		return vTrue
	}
	return vFalse
}

func (e *evaluator) lit(l lit) uint8 {
	switch l {
	case litTrue:
		return vTrue
	case litFalse:
		return vFalse
	}
	v := e.node(l.node())
	if l.neg() && v != vUnknown {
		v ^= 1
	}
	return v
}

func (e *evaluator) node(n int32) uint8 {
	if e.stamp[n] == e.gen {
		return e.memo[n]
	}
	var v uint8
	switch e.c.kind[n] {
	case gBase:
		v = vUnknown
		if b := e.c.baseOf[n]; b >= 0 {
			v = e.assign[b]
		}
	case gInput:
		v = vUnknown
		if i := e.c.inputOf[n]; e.inputs != nil && i >= 0 {
			v = e.inputs[i]
		}
	case gAnd:
		v = vTrue
		for _, l := range e.c.in[n] {
			x := e.lit(l)
			if x == vFalse {
				v = vFalse
				break
			}
			if x == vUnknown {
				v = vUnknown
			}
		}
	default: // OR
		v = vFalse
		for _, l := range e.c.in[n] {
			x := e.lit(l)
			if x == vTrue {
				v = vTrue
				break
			}
			if x == vUnknown {
				v = vUnknown
			}
		}
	}
	e.stamp[n], e.memo[n] = e.gen, v
	return v
}

// supportBases returns the base propositions in the cone of l, in order.
func (c *circuit) supportBases(l lit) []int {
	if l < 0 {
		return nil
	}
	seen := make(map[int32]bool)
	stack := []int32{l.node()}
	seen[l.node()] = true
	var out []int
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if c.kind[n] == gBase && c.baseOf[n] >= 0 {
			out = append(out, c.baseOf[n])
		}
		for _, x := range c.in[n] {
			if m := x.node(); !seen[m] {
				seen[m] = true
				stack = append(stack, m)
			}
		}
	}
	sort.Ints(out)
	return out
}
