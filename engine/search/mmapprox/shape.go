package mmapprox

import (
	"fmt"
	"math"
)

// Shape describes the tree of a player's last search, so that a notebook
// can show how p shapes it: small p grows broad trees, large p narrow deep
// ones.
type Shape struct {
	Nodes        int       // states in the tree, the root included
	Choices      int       // choice nodes (the role's move before simultaneous replies)
	Expanded     int       // states with children
	Tips         int       // states without children, terminal or not
	Terminal     int       // terminal states
	MaxDepth     int       // depth of the deepest state, in joint moves
	MeanTipDepth float64   // mean depth of the tips
	Depths       []int     // states per depth: Depths[d] is the number at depth d
	PV           []string  // principal variation: the moves along the best backed-up values from the root
	Value        float64   // the root's backed-up value, 0..100; -1 before any expansion
	RootValues   []float64 // the backed-up value of each root child, in the order searched
	Solved       bool      // every line reached a terminal state
}

// Shape returns the shape of the tree grown by the last call of Play; the
// zero Shape when Play has not searched (a single legal move, say).
func (pl *Player) Shape() Shape {
	t := &pl.t
	if len(t.nodes) == 0 || t.c == nil {
		return Shape{}
	}
	sh := Shape{Value: -1, Solved: t.solved()}
	tipDepths := 0
	for i := range t.nodes {
		n := &t.nodes[i]
		if n.state == nil {
			sh.Choices++
			continue
		}
		sh.Nodes++
		d := int(n.depth)
		for len(sh.Depths) <= d {
			sh.Depths = append(sh.Depths, 0)
		}
		sh.Depths[d]++
		sh.MaxDepth = max(sh.MaxDepth, d)
		switch {
		case n.expanded():
			sh.Expanded++
		default:
			sh.Tips++
			tipDepths += d
			if n.terminal {
				sh.Terminal++
			}
		}
	}
	if sh.Tips > 0 {
		sh.MeanTipDepth = float64(tipDepths) / float64(sh.Tips)
	}
	root := &t.nodes[0]
	if root.expanded() {
		sh.Value = unvalue(root.v)
		for c := root.first; c < root.first+root.count; c++ {
			sh.RootValues = append(sh.RootValues, unvalue(t.nodes[c].v))
		}
	}
	sh.PV = pl.pv()
	return sh
}

// pv follows the best backed-up values from the root: the highest child at
// max nodes, the lowest at min nodes.
func (pl *Player) pv() []string {
	t := &pl.t
	var out []string
	for i := int32(0); t.nodes[i].expanded(); {
		n := &t.nodes[i]
		best := n.first
		for c := n.first + 1; c < n.first+n.count; c++ {
			v := t.nodes[c].v
			if (n.kind == maxNode && v > t.nodes[best].v) || (n.kind == minNode && v < t.nodes[best].v) {
				best = c
			}
		}
		ch := &t.nodes[best]
		switch {
		case ch.mover >= 0 && ch.mv >= 0:
			out = append(out, pl.m.Roles()[ch.mover]+" "+pl.m.MoveText(int(ch.mover), ch.mv))
		default:
			out = append(out, fmt.Sprintf("reply %d", best-n.first))
		}
		i = best
	}
	return out
}

// Weights returns the weights w(c) = −ln D + Penalty of the children of the
// root of the last search, in the order searched, and the index of the
// child on the way to the least-penalty tip (-1 when none): what the next
// expansion would follow. It is nil before any expansion.
func (pl *Player) Weights() ([]float64, int) {
	t := &pl.t
	if len(t.nodes) == 0 || !t.nodes[0].expanded() {
		return nil, -1
	}
	return t.weights(0), int(t.nodes[0].best - t.nodes[0].first)
}

// weights returns the weights of node i's children.
func (t *tree) weights(i int32) []float64 {
	n := &t.nodes[i]
	kids := t.nodes[n.first : n.first+n.count]
	q := t.p
	if n.kind == minNode {
		q = -q
	}
	lm, _ := t.logMean(q, kids, n.kind)
	out := make([]float64, len(kids))
	lnn := math.Log(float64(len(kids)))
	for k := range kids {
		out[k] = t.weight(q, lnn, lm, kids[k].v, len(kids))
	}
	return out
}
