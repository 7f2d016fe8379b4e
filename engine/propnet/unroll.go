package propnet

import (
	"context"
	"fmt"
)

// unroll replaces every cycle of the graph (ground recursion, such as a
// path relation over the board) by an acyclic circuit computing its least
// fixpoint: the cycle's nodes are copied once per iteration, each copy
// reading the previous iteration's copies, starting from false. A positive
// cycle with k OR nodes reaches its fixpoint within k iterations, as each
// iteration that changes anything makes another OR node true. maxNodes
// bounds the result.
// It returns how many cycles it unrolled, or ctx's error when cancelled.
func (g *graph) unroll(ctx context.Context, maxNodes int) (int, error) {
	cycles := g.cycles()
	for _, scc := range cycles {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		if err := g.unrollOne(scc, maxNodes); err != nil {
			return 0, err
		}
	}
	return len(cycles), nil
}

func (g *graph) unrollOne(scc []int32, maxNodes int) error {
	in := map[int32]int32{} // node -> position in scc
	ors := 0
	for i, n := range scc {
		in[n] = int32(i)
		if g.nodes[n].kind == kOr {
			ors++
		}
	}
	for _, n := range scc {
		for _, l := range g.nodes[n].in {
			if _, ok := in[l.node()]; ok && l.neg() {
				return fmt.Errorf("propnet: a cycle of the network goes through negation")
			}
		}
	}
	if size := len(g.nodes) + ors*len(scc); size > maxNodes {
		return &SizeError{Limit: maxNodes, Reached: size, Where: fmt.Sprintf("unrolling a recursive cycle of %d nodes %d times", len(scc), ors)}
	}
	prev := make([]lit, len(scc)) // the last iteration's copies; false at first
	cur := make([]lit, len(scc))
	for it := 0; it < ors; it++ {
		// ANDs read the previous iteration's ORs; ORs read this iteration's ANDs.
		for _, pass := range []kind{kAnd, kOr} {
			for i, n := range scc {
				nd := g.nodes[n]
				if nd.kind != pass {
					continue
				}
				ins := make([]lit, len(nd.in))
				for j, l := range nd.in {
					ins[j] = l
					if k, ok := in[l.node()]; ok {
						src := prev[k]
						if g.nodes[l.node()].kind == kAnd {
							src = cur[k]
						}
						ins[j] = src
					}
				}
				cur[i] = mkLit(g.add(pass, ins, 0), false)
			}
		}
		copy(prev, cur)
	}
	for i, n := range scc {
		g.nodes[n] = gnode{kind: kOr, in: []lit{prev[i]}}
	}
	return nil
}
