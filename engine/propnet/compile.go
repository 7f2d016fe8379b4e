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

// compile flattens an acyclic graph into the Net's tables.
func (n *Net) compile(g *graph) error {
	order, ok := g.topoOrder()
	if !ok {
		return errCycle
	}
	newID := n.number(g, order)
	n.initialCounters(g, order, newID)
	n.fanouts(g, order, newID)
	n.wireOutputs(g, newID)
	n.stats.Optimized = g.counts(order)
	return nil
}

// number gives every used node its index in the flat tables: the nodes that
// drive a legal or next output first, so that a simulator recognises them
// by a single comparison.
func (n *Net) number(g *graph, order []int32) []int32 {
	newID := make([]int32, len(g.nodes))
	for i := range newID {
		newID[i] = -1
	}
	next := int32(0)
	take := func(l lit) {
		if !l.isConst() && newID[l.node()] < 0 {
			newID[l.node()] = next
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
	for _, v := range order {
		if v != 0 {
			take(mkLit(v, false))
		}
	}
	n.nodes = next
	return newID
}

// initialCounters evaluates the network with every proposition false.
func (n *Net) initialCounters(g *graph, order []int32, newID []int32) {
	n.cnt0 = make([]int32, n.nodes)
	val := make([]bool, len(g.nodes)) // node 0, the constant, stays false
	for _, v := range order {
		nd := &g.nodes[v]
		if nd.kind != kAnd && nd.kind != kOr {
			continue
		}
		thr := int32(1)
		if nd.kind == kAnd {
			thr = int32(len(nd.in))
		}
		c := thr - 1
		for _, l := range nd.in {
			if val[l.node()] != l.neg() {
				c--
			}
		}
		n.cnt0[newID[v]] = c
		val[v] = c < 0
	}
}

// fanouts lays out, for every node, the nodes that read it.
func (n *Net) fanouts(g *graph, order []int32, newID []int32) {
	cnt := make([]int32, 2*n.nodes+1)
	for _, v := range order {
		for _, l := range g.nodes[v].in {
			slot := 2 * newID[l.node()]
			if l.neg() {
				slot++
			}
			cnt[slot+1]++
		}
	}
	for i := 1; i < len(cnt); i++ {
		cnt[i] += cnt[i-1]
	}
	n.fanOff = cnt
	n.fan = make([]int32, cnt[len(cnt)-1])
	fill := append([]int32(nil), cnt...)
	for _, v := range order {
		for _, l := range g.nodes[v].in {
			slot := 2 * newID[l.node()]
			if l.neg() {
				slot++
			}
			n.fan[fill[slot]] = newID[v]
			fill[slot]++
		}
	}
}

// wireOutputs compiles the outputs and the watchers of legal and next.
func (n *Net) wireOutputs(g *graph, newID []int32) {
	cl := func(l lit) clit {
		switch {
		case l == litFalse:
			return clFalse
		case l == litTrue:
			return clTrue
		}
		c := clit(newID[l.node()] << 1)
		if l.neg() {
			c |= 1
		}
		return c
	}
	n.baseNode = make([]int32, len(g.bases))
	for i, v := range g.bases {
		n.baseNode[i] = newID[v]
	}
	n.inputNode = make([]int32, len(g.inputs))
	for i, v := range g.inputs {
		n.inputNode[i] = newID[v]
	}
	watchers := make([][]int32, n.watched)
	n.legal = make([]clit, len(g.inputs))
	n.flatRole = make([]int32, len(g.inputs))
	for r := range g.legal {
		for m, l := range g.legal[r] {
			i := n.inputOff[r] + int32(m)
			n.legal[i], n.flatRole[i] = cl(l), int32(r)
			if c := n.legal[i]; c >= 0 {
				watchers[c>>1] = append(watchers[c>>1], i<<2|int32(c&1)<<1)
			}
		}
	}
	n.next = make([]clit, len(g.next))
	for b, l := range g.next {
		n.next[b] = cl(l)
		if c := n.next[b]; c >= 0 {
			watchers[c>>1] = append(watchers[c>>1], int32(b)<<2|int32(c&1)<<1|1)
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
			n.goals[r] = append(n.goals[r], goalLit{value: o.value, text: o.text, ok: o.ok, l: cl(o.l)})
		}
	}
	n.terminal = cl(g.terminal)
}
