package propnet

// topoOrder returns the nodes that some output depends on, each after its
// inputs, or ok false if they form a cycle. It walks iteratively, since
// networks can be deeper than is comfortable for recursion.
func (g *graph) topoOrder() (order []int32, ok bool) {
	const (
		unseen = iota
		active
		done
	)
	state := make([]uint8, len(g.nodes))
	type frame struct {
		n int32
		i int
	}
	var stack []frame
	ok = true
	visit := func(root int32) {
		if state[root] != unseen {
			return
		}
		state[root] = active
		stack = append(stack[:0], frame{root, 0})
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			in := g.nodes[f.n].in
			if f.i < len(in) {
				c := in[f.i].node()
				f.i++
				switch state[c] {
				case unseen:
					state[c] = active
					stack = append(stack, frame{c, 0})
				case active:
					ok = false
				}
				continue
			}
			state[f.n] = done
			order = append(order, f.n)
			stack = stack[:len(stack)-1]
		}
	}
	visit(0)
	g.outputs(func(l *lit) { visit(l.node()) })
	return order, ok
}

// sccs returns the strongly connected components of the graph's nodes
// (edges from a node to its inputs) that contain a cycle.
func (g *graph) cycles() [][]int32 {
	n := len(g.nodes)
	index := make([]int32, n)
	low := make([]int32, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int32
	var out [][]int32
	next := int32(0)
	type frame struct {
		v int32
		i int
	}
	var call []frame
	for root := int32(0); root < int32(n); root++ {
		if index[root] >= 0 {
			continue
		}
		call = append(call[:0], frame{root, 0})
		index[root], low[root] = next, next
		next++
		stack = append(stack, root)
		onStack[root] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			in := g.nodes[f.v].in
			if f.i < len(in) {
				w := in[f.i].node()
				f.i++
				if index[w] < 0 {
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					onStack[w] = true
					call = append(call, frame{w, 0})
				} else if onStack[w] {
					low[f.v] = min(low[f.v], index[w])
				}
				continue
			}
			v := f.v
			call = call[:len(call)-1]
			if len(call) > 0 {
				p := call[len(call)-1].v
				low[p] = min(low[p], low[v])
			}
			if low[v] != index[v] {
				continue
			}
			var scc []int32
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				scc = append(scc, w)
				if w == v {
					break
				}
			}
			if len(scc) > 1 || g.selfLoop(v) {
				out = append(out, scc)
			}
		}
	}
	return out
}

func (g *graph) selfLoop(v int32) bool {
	for _, l := range g.nodes[v].in {
		if l.node() == v {
			return true
		}
	}
	return false
}
