package logic

import "slices"

// Successors appends the successors of vertex v to dst and returns the
// extended slice, leaving dst's elements alone: it is how Components reads
// a graph's edges, one vertex at a time.
type Successors func(v int, dst []int) []int

// Components finds the strongly connected components of the directed graph
// over the vertices 0 to n-1 with Tarjan's algorithm and calls emit with
// each. A component comes after every component it has an edge into, so
// for edges from a rule's head to the relations of its body the order is
// evaluation order. Roots are tried in vertex order and successors in the
// order succ gives them; a component lists its vertices in the order they
// leave Tarjan's stack, the one visited last first. comp is only valid
// during the call. The search keeps its own stack, so a long chain of
// vertices cannot exhaust the goroutine's.
func Components(n int, succ Successors, emit func(comp []int)) {
	num := make([]int, n) // visit number, from 1; 0 while unvisited
	low := make([]int, n)
	onStack := make([]bool, n)
	var stack []int // visited vertices whose component is not complete
	// edges holds the successors of the vertices on the search path, each
	// frame's after its parent's; the top frame's run to the end.
	var edges []int
	type frame struct{ v, base, next int }
	var path []frame
	count := 0
	visit := func(v int) {
		count++
		num[v], low[v] = count, count
		stack = append(stack, v)
		onStack[v] = true
		base := len(edges)
		edges = succ(v, edges)
		path = append(path, frame{v: v, base: base, next: base})
	}
	for root := range n {
		if num[root] != 0 {
			continue
		}
		visit(root)
		for len(path) > 0 {
			f := &path[len(path)-1]
			if f.next < len(edges) {
				w := edges[f.next]
				f.next++
				if num[w] == 0 {
					visit(w)
				} else if onStack[w] {
					low[f.v] = min(low[f.v], num[w])
				}
				continue
			}
			v := f.v
			edges = edges[:f.base]
			path = path[:len(path)-1]
			if len(path) > 0 {
				u := path[len(path)-1].v
				low[u] = min(low[u], low[v])
			}
			if low[v] == num[v] {
				i := len(stack) - 1
				for stack[i] != v {
					i--
				}
				comp := stack[i:]
				slices.Reverse(comp)
				for _, w := range comp {
					onStack[w] = false
				}
				emit(comp)
				stack = stack[:i]
			}
		}
	}
}

// ComponentsOf returns the strongly connected components of the graph whose
// vertex v has the successors adj[v], in the order Components finds them.
func ComponentsOf(adj [][]int) [][]int {
	var out [][]int
	Components(len(adj), func(v int, dst []int) []int { return append(dst, adj[v]...) },
		func(comp []int) { out = append(out, slices.Clone(comp)) })
	return out
}
