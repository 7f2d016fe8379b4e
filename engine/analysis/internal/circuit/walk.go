package circuit

// Inspection of single gates and the propositions under a literal, for
// analyses that follow the graph themselves (the factoring reads the
// gates where goal and terminal logic joins the game's parts).

// Kind is what a literal's node is.
type Kind uint8

// The kinds of node, as Node reports them.
const (
	KindConst Kind = iota // LitTrue or LitFalse
	KindBase              // a base proposition (Base gives which)
	KindInput             // an input proposition (Input gives which)
	KindAnd
	KindOr
)

// Node returns the kind of l's node, whether l negates it, and, for a
// gate, its input literals (owned by the circuit: do not modify).
func (c *Circuit) Node(l Lit) (k Kind, negated bool, in []Lit) {
	if l < 0 {
		return KindConst, false, nil
	}
	n := l.node()
	switch c.kind[n] {
	case gBase:
		return KindBase, l.neg(), nil
	case gInput:
		return KindInput, l.neg(), nil
	case gAnd:
		return KindAnd, l.neg(), c.in[n]
	}
	return KindOr, l.neg(), c.in[n]
}

// Base returns the base proposition of l's node, or -1.
func (c *Circuit) Base(l Lit) int {
	if l < 0 {
		return -1
	}
	return c.baseOf[l.node()]
}

// Input returns the input proposition of l's node (all roles' moves in
// role order), or -1.
func (c *Circuit) Input(l Lit) int {
	if l < 0 {
		return -1
	}
	return c.inputOf[l.node()]
}

// ID returns the number of l's node in the network's drawing (WriteDOT's
// nID), or -1 for a constant, to name a gate in a message.
func (c *Circuit) ID(l Lit) int {
	if l < 0 {
		return -1
	}
	return int(l.node())
}

// Walker lists the base and input propositions under literals: the
// support of an output. It belongs to one goroutine and reuses its marks.
type Walker struct {
	c     *Circuit
	stamp []uint32
	gen   uint32
	stack []int32
}

// NewWalker returns a walker over c.
func NewWalker(c *Circuit) *Walker {
	return &Walker{c: c, stamp: make([]uint32, len(c.kind))}
}

// Support calls base for every base proposition and input for every input
// proposition from which a path of gates leads to one of the literals,
// each once.
func (w *Walker) Support(ls []Lit, base, input func(int)) {
	if w.gen++; w.gen == 0 {
		clear(w.stamp)
		w.gen = 1
	}
	w.stack = w.stack[:0]
	for _, l := range ls {
		w.push(l)
	}
	for len(w.stack) > 0 {
		n := w.stack[len(w.stack)-1]
		w.stack = w.stack[:len(w.stack)-1]
		switch w.c.kind[n] {
		case gBase:
			if b := w.c.baseOf[n]; b >= 0 {
				base(b)
			}
		case gInput:
			if i := w.c.inputOf[n]; i >= 0 {
				input(i)
			}
		default:
			for _, l := range w.c.in[n] {
				w.push(l)
			}
		}
	}
}

func (w *Walker) push(l Lit) {
	if l < 0 {
		return
	}
	if n := l.node(); w.stamp[n] != w.gen {
		w.stamp[n] = w.gen
		w.stack = append(w.stack, n)
	}
}
