package propnet

import "gdlab/engine/logic"

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

// cycles returns the strongly connected components of the graph's nodes
// (edges from a node to its inputs) that contain a cycle.
func (g *graph) cycles() [][]int32 {
	var out [][]int32
	inputs := func(v int, dst []int) []int {
		for _, l := range g.nodes[v].in {
			dst = append(dst, int(l.node()))
		}
		return dst
	}
	logic.Components(len(g.nodes), inputs, func(comp []int) {
		if len(comp) == 1 && !g.selfLoop(int32(comp[0])) {
			return
		}
		scc := make([]int32, len(comp))
		for i, v := range comp {
			scc[i] = int32(v)
		}
		out = append(out, scc)
	})
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
