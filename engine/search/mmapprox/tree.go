package mmapprox

import (
	"math"

	"gdlab/engine/game"
	"gdlab/engine/heuristic"
	"gdlab/engine/search"
)

// kind says how a node combines its children's values.
type kind uint8

const (
	maxNode kind = iota // the searching role chooses: M_p
	minNode             // the coalition chooses: M_−p
)

// node is one vertex of the search tree. Nodes live in one slice and refer
// to each other by index, so growing the tree allocates nothing per node;
// a node's children are contiguous.
type node struct {
	state    game.State // nil for a choice node: the role's move, before the coalition answers
	v        float64    // ln(ṽ + 1): the backed-up value, mapped to a positive real, in the log domain
	pi       float64    // π: penalty of the least-penalty expandable tip below, relative to this node; +Inf when none
	parent   int32      // -1 at the root
	first    int32      // first child; -1 while the node is a tip
	count    int32      // number of children
	best     int32      // a: the child on the way to that tip; -1 when none
	mv       game.Move  // the move that distinguishes this node among its siblings (see mover)
	depth    int16      // joint moves from the root
	mover    int8       // the role whose move mv is; -1 for a joint reply of several roles
	kind     kind       // how the children combine
	terminal bool
}

// expanded reports whether n has children.
func (n *node) expanded() bool { return n.first >= 0 }

// tree is one turn's search: the metered machine, the scheme's settings,
// the nodes and the scratch buffers that keep expansion allocation-free.
type tree struct {
	c       *search.Counter
	eval    heuristic.Evaluator
	role    int
	p       float64
	reverse bool
	penalty float64
	limit   int // most nodes the tree may hold

	nodes  []node
	legal  [][]game.Move // per role, scratch
	idx    []int         // odometer over the coalition's moves
	joint  []game.Move
	varied int // the coalition role whose move tells replies apart, -1 if several
}

// errTreeFull stops a search whose tree reached its node limit.
type errTreeFull struct{}

func (errTreeFull) Error() string { return "mmapprox: tree reached its node limit" }

// value maps a goal-scale value to the log of a positive real.
func value(v float64) float64 { return math.Log(v + 1) }

// unvalue maps back, rounded to 1e-9 so that goals come back exact.
func unvalue(l float64) float64 { return math.Round((math.Exp(l)-1)*1e9) / 1e9 }

// reset starts a new tree at s.
func (t *tree) reset(s game.State) {
	n := len(t.c.Roles())
	if len(t.legal) != n {
		t.legal = make([][]game.Move, n)
		t.idx = make([]int, n)
		t.joint = make([]game.Move, n)
	}
	t.nodes = append(t.nodes[:0], node{state: s, parent: -1, first: -1, best: -1, mv: game.NoMove, mover: -1})
}

// step descends to the least-penalty tip, expands it and backs up. It
// returns false when nothing is left to expand.
func (t *tree) step(rootMoves []game.Move) (bool, error) {
	if t.nodes[0].expanded() && math.IsInf(t.nodes[0].pi, 1) {
		return false, nil
	}
	i := int32(0)
	for t.nodes[i].expanded() {
		i = t.nodes[i].best
	}
	var order []game.Move
	if i == 0 {
		order = rootMoves
	}
	if err := t.expand(i, order); err != nil {
		return true, err
	}
	for ; i >= 0; i = t.nodes[i].parent {
		t.backup(i)
	}
	return true, nil
}

// expand gives tip i its children, in the order given for the role's moves
// (nil: the machine's order), calling Next once per joint move. On failure
// the tip is left as it was.
func (t *tree) expand(i int32, order []game.Move) error {
	if err := t.c.Expand(); err != nil {
		return err
	}
	s := t.nodes[i].state
	mine, replies, err := t.moves(s, order)
	if err != nil {
		return err
	}
	need := len(mine) * replies
	if len(mine) > 1 && replies > 1 {
		need += len(mine)
	}
	if len(t.nodes)+need > t.limit {
		return errTreeFull{}
	}
	mark := len(t.nodes)
	if err := t.children(i, s, mine, replies); err != nil {
		t.nodes = t.nodes[:mark]
		t.nodes[i].first, t.nodes[i].count = -1, 0
		return err
	}
	return nil
}

// moves fills the scratch legal lists and returns the role's moves and the
// number of the coalition's joint replies.
func (t *tree) moves(s game.State, order []game.Move) ([]game.Move, int, error) {
	replies := 1
	t.varied = -1
	several := false
	for r := range t.legal {
		if r == t.role {
			continue
		}
		ms, err := t.c.Legal(s, r, t.legal[r][:0])
		t.legal[r] = ms
		if err != nil {
			return nil, 0, err
		}
		if len(ms) == 0 {
			return nil, 0, &game.NoLegalMoveError{Role: t.c.Roles()[r]}
		}
		if len(ms) > 1 {
			several = several || t.varied >= 0
			t.varied = r
		}
		replies *= len(ms)
	}
	if several {
		t.varied = -1
	}
	if order != nil {
		t.legal[t.role] = append(t.legal[t.role][:0], order...)
		return t.legal[t.role], replies, nil
	}
	ms, err := t.c.Legal(s, t.role, t.legal[t.role][:0])
	t.legal[t.role] = ms
	if err == nil && len(ms) == 0 {
		err = &game.NoLegalMoveError{Role: t.c.Roles()[t.role]}
	}
	return ms, replies, err
}

// children creates the children of node i. With several moves on both
// sides the role's moves become choice nodes whose children are the states;
// otherwise the level with a single choice is folded away.
func (t *tree) children(i int32, s game.State, mine []game.Move, replies int) error {
	d := t.nodes[i].depth
	switch {
	case len(mine) > 1 && replies > 1:
		first := t.link(i, maxNode, len(mine))
		for _, m := range mine {
			t.nodes = append(t.nodes, node{parent: i, first: -1, best: -1, mv: m, mover: int8(t.role), depth: d, kind: minNode, count: int32(replies)})
		}
		for k, m := range mine {
			ci := first + int32(k)
			if err := t.states(ci, s, m, d+1, false); err != nil {
				return err
			}
			t.backup(ci)
		}
	case len(mine) > 1:
		t.link(i, maxNode, len(mine))
		for _, m := range mine {
			if err := t.states(i, s, m, d+1, true); err != nil {
				return err
			}
		}
	default:
		t.link(i, minNode, replies)
		return t.states(i, s, mine[0], d+1, false)
	}
	return nil
}

// link makes the next count nodes to be appended the children of node i.
func (t *tree) link(i int32, k kind, count int) int32 {
	n := &t.nodes[i]
	n.kind, n.count, n.first = k, int32(count), int32(len(t.nodes))
	return n.first
}

// states appends the successors of s after the role's move m, one per
// joint reply (just one when byMine), as children of parent; it links a
// choice node, whose children come after all its siblings, to its first
// state.
func (t *tree) states(parent int32, s game.State, m game.Move, depth int16, byMine bool) error {
	if t.nodes[parent].first < 0 {
		t.nodes[parent].first = int32(len(t.nodes))
	}
	for r := range t.idx {
		t.idx[r] = 0
	}
	for {
		for r := range t.joint {
			if r == t.role {
				t.joint[r] = m
			} else {
				t.joint[r] = t.legal[r][t.idx[r]]
			}
		}
		ns, err := t.c.Next(s, t.joint)
		if err != nil {
			return err
		}
		n := node{state: ns, parent: parent, first: -1, best: -1, depth: depth, mv: m, mover: int8(t.role)}
		if !byMine {
			n.mv, n.mover = game.NoMove, int8(t.varied)
			if t.varied >= 0 {
				n.mv = t.joint[t.varied]
			}
		}
		if err := t.settle(&n); err != nil {
			return err
		}
		t.nodes = append(t.nodes, n)
		if !t.nextReply() {
			return nil
		}
	}
}

// nextReply advances the odometer over the coalition's moves; false when
// every joint reply has been made.
func (t *tree) nextReply() bool {
	for r := len(t.idx) - 1; r >= 0; r-- {
		if r == t.role {
			continue
		}
		if t.idx[r]++; t.idx[r] < len(t.legal[r]) {
			return true
		}
		t.idx[r] = 0
	}
	return false
}

// settle gives a new tip its value and penalty: the goal of a terminal
// state (0 where undefined) with π = ∞, or the evaluation with π = 0.
func (t *tree) settle(n *node) error {
	term, err := t.c.Terminal(n.state)
	if err != nil {
		return err
	}
	if term {
		g, err := t.c.Goal(n.state, t.role)
		if err != nil {
			g = 0
		}
		n.terminal, n.v, n.pi = true, value(float64(g)), math.Inf(1)
		return nil
	}
	t.c.CountEval()
	v, err := heuristic.Eval(t.eval, t.c, n.state, t.role)
	if err != nil {
		return err
	}
	n.v, n.pi = value(v), 0
	return nil
}

// backup recomputes ṽ, a and π of the expanded node i from its children.
func (t *tree) backup(i int32) {
	n := &t.nodes[i]
	kids := t.nodes[n.first : n.first+n.count]
	q := t.p
	if n.kind == minNode {
		q = -q
	}
	lm, ext := t.logMean(q, kids, n.kind)
	if t.reverse {
		n.v = ext
	} else {
		n.v = lm
	}
	lnn := math.Log(float64(len(kids)))
	n.pi, n.best = math.Inf(1), -1
	for k := range kids {
		c := &kids[k]
		if math.IsInf(c.pi, 1) {
			continue
		}
		if w := t.weight(q, lnn, lm, c.v, len(kids)); w+c.pi < n.pi {
			n.pi, n.best = w+c.pi, n.first+int32(k)
		}
	}
}

// weight returns −ln D + penalty for a child of value v (log domain) among
// n children whose mean is lm, lnn being ln n: −ln D = ln n − (q−1)(v − lm).
// A lone child's derivative is 1, its weight the penalty alone.
func (t *tree) weight(q, lnn, lm, v float64, n int) float64 {
	if n == 1 {
		return t.penalty
	}
	return t.penalty + lnn - (q-1)*(v-lm)
}

// logMean returns ln M_q of the children's values and their extreme (max
// at a max node, min at a min node), both in the log domain.
func (t *tree) logMean(q float64, kids []node, k kind) (lm, ext float64) {
	ext = kids[0].v
	top := q * kids[0].v
	for c := 1; c < len(kids); c++ {
		v := kids[c].v
		if (k == maxNode && v > ext) || (k == minNode && v < ext) {
			ext = v
		}
		top = math.Max(top, q*v)
	}
	n := float64(len(kids))
	if q == 0 {
		sum := 0.0
		for c := range kids {
			sum += kids[c].v
		}
		return sum / n, ext
	}
	sum := 0.0
	for c := range kids {
		sum += math.Exp(q*kids[c].v - top)
	}
	return (top + math.Log(sum) - math.Log(n)) / q, ext
}
