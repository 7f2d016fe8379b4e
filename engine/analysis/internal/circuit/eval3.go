package circuit

import "sort"

// Three-valued evaluation of the circuit: every base proposition is true,
// false or unknown, inputs (moves) are unknown unless Evaluator.Inputs
// gives them, and gates follow Kleene's logic. A result that is true or
// false under a partial assignment holds for every completion of it, which
// is what the latch proofs need.

// Value is a three-valued truth value.
type Value uint8

// The three values.
const (
	False   Value = 0
	True    Value = 1
	Unknown Value = 2
)

// Evaluator evaluates literals under a partial assignment of the bases. It
// memoises node values per assignment with a generation stamp. It belongs
// to one goroutine.
type Evaluator struct {
	// Inputs holds a value per input proposition (all roles' moves in role
	// order), or is nil: every input unknown.
	Inputs []Value
	c      *Circuit
	assign []Value // per base
	memo   []Value
	stamp  []uint32
	gen    uint32
}

// NewEvaluator returns an evaluator of c with every input unknown.
func NewEvaluator(c *Circuit) *Evaluator {
	e := &Evaluator{c: c, assign: make([]Value, len(c.Bases)), memo: make([]Value, len(c.kind)), stamp: make([]uint32, len(c.kind))}
	for i := range e.assign {
		e.assign[i] = Unknown
	}
	return e
}

// With evaluates l with the given bases set to the given values (and every
// other base unknown).
func (e *Evaluator) With(l Lit, bases []int, vals []bool) Value {
	for i, b := range bases {
		e.assign[b] = ValueOf(vals[i])
	}
	e.gen++
	if e.gen == 0 { // wrapped: clear the stamps
		clear(e.stamp)
		e.gen = 1
	}
	v := e.lit(l)
	for _, b := range bases {
		e.assign[b] = Unknown
	}
	return v
}

// ValueOf returns True or False.
func ValueOf(b bool) Value {
	if b {
		return True
	}
	return False
}

func (e *Evaluator) lit(l Lit) Value {
	switch l {
	case LitTrue:
		return True
	case LitFalse:
		return False
	}
	v := e.node(l.node())
	if l.neg() && v != Unknown {
		v ^= 1
	}
	return v
}

func (e *Evaluator) node(n int32) Value {
	if e.stamp[n] == e.gen {
		return e.memo[n]
	}
	var v Value
	switch e.c.kind[n] {
	case gBase:
		v = Unknown
		if b := e.c.baseOf[n]; b >= 0 {
			v = e.assign[b]
		}
	case gInput:
		v = Unknown
		if i := e.c.inputOf[n]; e.Inputs != nil && i >= 0 {
			v = e.Inputs[i]
		}
	case gAnd:
		v = True
		for _, l := range e.c.in[n] {
			x := e.lit(l)
			if x == False {
				v = False
				break
			}
			if x == Unknown {
				v = Unknown
			}
		}
	default: // OR
		v = False
		for _, l := range e.c.in[n] {
			x := e.lit(l)
			if x == True {
				v = True
				break
			}
			if x == Unknown {
				v = Unknown
			}
		}
	}
	e.stamp[n], e.memo[n] = e.gen, v
	return v
}

// SupportBases returns the base propositions in the cone of l, in order.
func (c *Circuit) SupportBases(l Lit) []int {
	var out []int
	c.cone(l, func(n int32) {
		if c.kind[n] == gBase && c.baseOf[n] >= 0 {
			out = append(out, c.baseOf[n])
		}
	})
	sort.Ints(out)
	return out
}

// ConeSize returns how many nodes the cone of l holds: what one evaluation
// of l may visit at most.
func (c *Circuit) ConeSize(l Lit) int {
	n := 0
	c.cone(l, func(int32) { n++ })
	return n
}

// cone calls visit once for each node of l's cone.
func (c *Circuit) cone(l Lit, visit func(n int32)) {
	if l < 0 {
		return
	}
	seen := make(map[int32]bool)
	stack := []int32{l.node()}
	seen[l.node()] = true
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		visit(n)
		for _, x := range c.in[n] {
			if m := x.node(); !seen[m] {
				seen[m] = true
				stack = append(stack, m)
			}
		}
	}
}
