package propnet

// counts returns the component counts of the nodes in order.
func (g *graph) counts(order []int32) Counts {
	var c Counts
	for _, n := range order {
		nd := &g.nodes[n]
		switch nd.kind {
		case kBase:
			c.Bases++
		case kInput:
			c.Inputs++
		case kAnd:
			c.Ands++
		case kOr:
			c.Ors++
		}
		for _, l := range nd.in {
			c.Links++
			if l.neg() {
				c.Nots++
			}
		}
	}
	g.outputs(func(l *lit) {
		if !l.isConst() {
			c.Outputs++
		}
	})
	return c
}

// allNodes lists every node of the graph but the constant.
func (g *graph) allNodes() []int32 {
	out := make([]int32, 0, len(g.nodes))
	for i := 1; i < len(g.nodes); i++ {
		out = append(out, int32(i))
	}
	return out
}

// compiler flattens an acyclic graph into a Net's tables.
type compiler struct {
	n     *Net
	g     *graph
	order []int32 // the nodes outputs need, inputs first
	eager []bool  // kept up to date by propagation; the rest is evaluated on demand
	newID []int32 // graph node -> Net node, -1 if unused
}

// compile flattens an acyclic graph into the Net's tables. With
// eagerGoals no gate is lazy.
func (n *Net) compile(g *graph, eagerGoals bool) error {
	order, ok := g.topoOrder()
	if !ok {
		return errCycle
	}
	c := &compiler{n: n, g: g, order: order}
	c.markEager(eagerGoals)
	c.number()
	c.initialCounters()
	c.fanouts()
	c.lazyTables()
	c.wireOutputs()
	c.names()
	n.stateReadsMoves = c.stateReadsMoves()
	n.stats.Optimized = g.counts(order)
	n.stats.LazyGates = len(n.lazyNode)
	return nil
}

// stateReadsMoves reports whether a legal, goal or terminal output depends
// on an input proposition.
func (c *compiler) stateReadsMoves() bool {
	g := c.g
	seen := make([]bool, len(g.nodes))
	var stack []int32
	push := func(l lit) {
		if v := l.node(); !seen[v] {
			seen[v] = true
			stack = append(stack, v)
		}
	}
	for r := range g.legal {
		for m := range g.legal[r] {
			push(g.legal[r][m])
			if g.gate != nil {
				push(g.gate[r][m])
			}
		}
		for _, o := range g.goals[r] {
			push(o.l)
		}
	}
	push(g.terminal)
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if g.nodes[v].kind == kInput {
			return true
		}
		for _, l := range g.nodes[v].in {
			push(l)
		}
	}
	return false
}

// names records what each node stands for: the fact or move of a
// proposition, the ground atom a gate computes, or "" for helper gates.
func (c *compiler) names() {
	g, n := c.g, c.n
	n.nodeName = make([]string, n.nodes)
	n.nodeKind = make([]uint8, n.nodes)
	for v, id := range c.newID {
		if id < 0 {
			continue
		}
		nd := &g.nodes[v]
		n.nodeKind[id] = uint8(nd.kind)
		switch nd.kind {
		case kBase:
			n.nodeName[id] = "(true " + n.facts[nd.ref] + ")"
		case kInput:
			r := n.inputRole(nd.ref)
			n.nodeName[id] = "(does " + n.roles[r] + " " + n.moves[r][nd.ref-n.inputOff[r]] + ")"
		default:
			if nd.ref > 0 {
				n.nodeName[id] = g.names[nd.ref-1]
			}
		}
	}
}

// markEager marks the nodes that legal, next or terminal depend on, and
// every proposition. Nodes only goals depend on are lazy: goals are read
// once per playout, so propagating into, say, a piece-counting circuit at
// every move would be wasted. With goals set, goal outputs are marked too
// and nothing is lazy.
func (c *compiler) markEager(goals bool) {
	g := c.g
	c.eager = make([]bool, len(g.nodes))
	var stack []int32
	mark := func(l lit) {
		if v := l.node(); !c.eager[v] {
			c.eager[v] = true
			stack = append(stack, v)
		}
	}
	for _, n := range g.bases {
		mark(mkLit(n, false))
	}
	for _, n := range g.inputs {
		mark(mkLit(n, false))
	}
	for r := range g.legal {
		for m := range g.legal[r] {
			mark(g.legal[r][m])
			if g.gate != nil {
				mark(g.gate[r][m])
			}
		}
	}
	for _, l := range g.next {
		mark(l)
	}
	mark(g.terminal)
	if goals { // Options.EagerGoals: nothing is lazy
		for _, gs := range g.goals {
			for _, o := range gs {
				mark(o.l)
			}
		}
	}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, l := range g.nodes[v].in {
			mark(l)
		}
	}
}

// number gives every used node its index in the flat tables: first the
// nodes that drive a legal or next output, so that a simulator recognises
// them by one comparison; then the other eager nodes; then the lazy ones in
// topological order.
func (c *compiler) number() {
	g, n := c.g, c.n
	c.newID = make([]int32, len(g.nodes))
	for i := range c.newID {
		c.newID[i] = -1
	}
	next := int32(0)
	take := func(l lit) {
		if !l.isConst() && c.newID[l.node()] < 0 {
			c.newID[l.node()] = next
			next++
		}
	}
	for r := range g.legal {
		for _, l := range g.legal[r] {
			take(l)
		}
	}
	for _, l := range g.next {
		take(l)
	}
	n.watched = next
	for _, v := range c.order {
		if v != 0 && c.eager[v] {
			take(mkLit(v, false))
		}
	}
	n.eager = next
	for _, v := range c.order {
		if v != 0 {
			take(mkLit(v, false))
		}
	}
	n.nodes = next
}

// initialCounters evaluates the network with every proposition false. Lazy
// nodes hold their value as a proposition does: -1 for true, 0 for false.
func (c *compiler) initialCounters() {
	g, n := c.g, c.n
	n.cnt0 = make([]counter, n.nodes)
	val := make([]bool, len(g.nodes)) // node 0, the constant, stays false
	for _, v := range c.order {
		nd := &g.nodes[v]
		if nd.kind != kAnd && nd.kind != kOr {
			continue
		}
		thr := int32(1)
		if nd.kind == kAnd {
			thr = int32(len(nd.in))
		}
		k := thr - 1
		for _, l := range nd.in {
			if val[l.node()] != l.neg() {
				k--
			}
		}
		val[v] = k < 0
		if !c.eager[v] {
			k = 0
			if val[v] {
				k = -1
			}
		}
		n.cnt0[c.newID[v]] = counter(k)
	}
}

// fanouts lays out, for every eager node, the eager gates that read it,
// with the sign bit set on those that read it negated.
func (c *compiler) fanouts() {
	g, n := c.g, c.n
	// Constant inputs (left by an unoptimised build) never change: their
	// value is in the initial counters and they need no fanout.
	cnt := make([]int32, n.nodes+1)
	for _, v := range c.order {
		if c.eager[v] {
			for _, l := range g.nodes[v].in {
				if !l.isConst() {
					cnt[c.newID[l.node()]+1]++
				}
			}
		}
	}
	for i := 1; i < len(cnt); i++ {
		cnt[i] += cnt[i-1]
	}
	n.fanOff = cnt
	n.fan = make([]int32, cnt[len(cnt)-1])
	fill := append([]int32(nil), cnt...)
	for _, v := range c.order {
		if c.eager[v] {
			for _, l := range g.nodes[v].in {
				if l.isConst() {
					continue
				}
				src := c.newID[l.node()]
				x := c.newID[v]
				if l.neg() {
					x |= negReader
				}
				n.fan[fill[src]] = x
				fill[src]++
			}
		}
	}
}

// lazyTables lists the lazy gates in topological order with their inputs.
func (c *compiler) lazyTables() {
	g, n := c.g, c.n
	n.lazyOff = []int32{0}
	for _, v := range c.order {
		nd := &g.nodes[v]
		if c.eager[v] || (nd.kind != kAnd && nd.kind != kOr) {
			continue
		}
		n.lazyNode = append(n.lazyNode, c.newID[v])
		n.lazyAnd = append(n.lazyAnd, nd.kind == kAnd)
		for _, l := range nd.in {
			n.lazyIn = append(n.lazyIn, c.clit(l))
		}
		n.lazyOff = append(n.lazyOff, int32(len(n.lazyIn)))
	}
}

func (c *compiler) clit(l lit) clit {
	switch {
	case l == litFalse:
		return clFalse
	case l == litTrue:
		return clTrue
	}
	x := clit(c.newID[l.node()] << 1)
	if l.neg() {
		x |= 1
	}
	return x
}

// wireOutputs compiles the outputs, the legal groups and the watchers of
// legal and next.
func (c *compiler) wireOutputs() {
	g, n := c.g, c.n
	n.baseNode = make([]int32, len(g.bases))
	for i, v := range g.bases {
		n.baseNode[i] = c.newID[v]
	}
	n.inputNode = make([]int32, len(g.inputs))
	for i, v := range g.inputs {
		n.inputNode[i] = c.newID[v]
	}
	watchers := make([][]int32, n.watched)
	c.legalGroups()
	for i, l := range n.legal {
		if l >= 0 {
			watchers[l>>1] = append(watchers[l>>1], int32(i)<<2|int32(l&1)<<1)
		}
	}
	n.next = make([]clit, len(g.next))
	for b, l := range g.next {
		n.next[b] = c.clit(l)
		if x := n.next[b]; x >= 0 {
			watchers[x>>1] = append(watchers[x>>1], int32(b)<<2|int32(x&1)<<1|1)
		}
	}
	n.watchOff = make([]int32, n.watched+1)
	for v, ws := range watchers {
		n.watch = append(n.watch, ws...)
		n.watchOff[v+1] = int32(len(n.watch))
	}
	n.goals = make([][]goalLit, len(g.goals))
	for r, gs := range g.goals {
		for _, o := range gs {
			n.goals[r] = append(n.goals[r], goalLit{value: o.value, text: o.text, ok: o.ok, l: c.clit(o.l)})
		}
	}
	n.terminal = c.clit(g.terminal)
}

// legalGroups compiles the legal outputs: per move the lit of its rest and
// its group, per role a range of groups, each with its gate.
func (c *compiler) legalGroups() {
	g, n := c.g, c.n
	n.legal = make([]clit, len(g.inputs))
	n.moveGroup = make([]int32, len(g.inputs))
	n.groupOff = make([]int32, len(g.legal)+1)
	for r := range g.legal {
		n.groupOff[r] = int32(len(n.groupGate))
		index := map[lit]int32{}
		for m, l := range g.legal[r] {
			i := n.inputOff[r] + int32(m)
			gate := litTrue
			if g.gate != nil {
				gate = g.gate[r][m]
			}
			grp, ok := index[gate]
			if !ok {
				grp = int32(len(n.groupGate))
				index[gate] = grp
				n.groupGate = append(n.groupGate, c.clit(gate))
				n.groupRole = append(n.groupRole, int32(r))
			}
			n.legal[i], n.moveGroup[i] = c.clit(l), grp
		}
	}
	n.groupOff[len(g.legal)] = int32(len(n.groupGate))
}
