package propnet

// lit is a reference to a node's value, possibly negated: node<<1 | neg.
// Node 0 is the constant false, so lit 0 is false and lit 1 is true.
type lit int32

const (
	litFalse lit = 0
	litTrue  lit = 1
)

func mkLit(node int32, neg bool) lit {
	l := lit(node << 1)
	if neg {
		l |= 1
	}
	return l
}

func (l lit) node() int32   { return int32(l >> 1) }
func (l lit) neg() bool     { return l&1 != 0 }
func (l lit) not() lit      { return l ^ 1 }
func (l lit) isConst() bool { return l>>1 == 0 }

// kind is what a node of the graph is.
type kind uint8

const (
	kConst kind = iota // node 0 only: false
	kBase              // a base proposition: (true F)
	kInput             // an input proposition: (does R M)
	kAnd               // true when every input is
	kOr                // true when some input is
)

// gnode is a node of the mutable graph the builder and the optimiser work on.
type gnode struct {
	kind kind
	in   []lit
	ref  int32 // kBase: base index; kInput: input index; gates: 1 + index into graph.names, or 0
}

// goalOut is one (goal R V) output.
type goalOut struct {
	value int // the goal value; meaningful when text parses as an integer
	text  string
	ok    bool // text is an integer
	l     lit
}

// graph is the propositional network before compilation: nodes with their
// inputs, and the outputs that give the network its meaning.
type graph struct {
	nodes    []gnode
	legal    [][]lit     // per role, per move
	gate     [][]lit     // per role, per move: a conjunct factored out of legal (see gate.go); nil until then
	goals    [][]goalOut // per role
	terminal lit
	next     []lit    // per base proposition
	bases    []int32  // node of each base proposition
	inputs   []int32  // node of each input proposition (role moves, flattened)
	names    []string // names of gates that compute a ground atom, for introspection
}

func (g *graph) add(k kind, in []lit, ref int32) int32 {
	g.nodes = append(g.nodes, gnode{kind: k, in: in, ref: ref})
	return int32(len(g.nodes) - 1)
}

// outputs calls fn on every output lit, so that passes can rewrite them.
func (g *graph) outputs(fn func(*lit)) {
	for r := range g.legal {
		for m := range g.legal[r] {
			fn(&g.legal[r][m])
		}
	}
	for r := range g.gate {
		for m := range g.gate[r] {
			fn(&g.gate[r][m])
		}
	}
	for r := range g.goals {
		for i := range g.goals[r] {
			fn(&g.goals[r][i].l)
		}
	}
	fn(&g.terminal)
	for b := range g.next {
		fn(&g.next[b])
	}
}

// splitWide replaces every gate with more than max inputs by a gate of the
// same kind over gates of at most max inputs each, so that no counter can
// overflow.
func (g *graph) splitWide(max int) {
	for v := 0; v < len(g.nodes); v++ {
		nd := g.nodes[v]
		if (nd.kind != kAnd && nd.kind != kOr) || len(nd.in) <= max {
			continue
		}
		var parts []lit
		for lo := 0; lo < len(nd.in); lo += max {
			hi := min(lo+max, len(nd.in))
			parts = append(parts, mkLit(g.add(nd.kind, nd.in[lo:hi:hi], 0), false))
		}
		g.nodes[v].in = parts // may still be wide: the loop reaches it again
		v--
	}
}
