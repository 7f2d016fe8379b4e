package mcts

import "math"

// The power-mean backup (Options.PowerMean; Power-UCT: Dam, Klink,
// D'Eramo, Peters and Pajarinen, "Generalized Mean Estimation in
// Monte-Carlo Tree Search", IJCAI 2020) values a node, for the role that
// chooses there, by the power mean with exponent p of its moves' values
// weighted by their visits, instead of the plain mean of every playout
// through it: p = 1 is the mean (plain UCT), p → ∞ the maximum.
//
// A move's value is the value of the state it leads to, which changes
// retroactively whenever a deeper node's value changes. The tree keeps the
// plain sums as plain UCT does (node.w, and per joint move node.wj) and,
// per node and role, a correction delta: the node's power value minus the
// plain mean of the playouts through it. A joint move's value is its plain
// mean plus its child's correction.
//
// The paper's setting is one agent; with several roles:
//   - where one role chooses, it takes the power mean of its moves' values,
//     and what that gains over their plain mean is taken from the other
//     roles in equal shares: in a two-role constant-sum game, the other
//     role's value is then the constant minus the chooser's, as in
//     negamax. (In a game that is not constant-sum this treats the
//     chooser's gain as the others' loss.) The other roles' values are not
//     weighted by the chooser's preferences (visits·Q^(p−1)): such a
//     weight jumps, where Q is 0, from the visits at p = 1 to nothing at
//     any p above 1, so a reply that lost its one playout would vanish from
//     the other roles' values (measured: at p = 1.0001 such a player lost
//     19 of 20 Connect Four games to plain UCT);
//   - where several roles choose at once, each role takes the power mean
//     over its own moves, a move's value the visit-weighted mean over the
//     joint moves that contain it (decoupled, as selection is).
//
// In a tree this is the paper's recursion, V(s) = PM_p over a of Q(s,a)
// with Q(s,a) = V(s'); in the state graph, with transpositions, a move's
// plain mean stands for the part of a child's value that came through
// other parents. Each correction is computed as (the node's power value −
// the same weighted arithmetic mean of the same move values) + the
// visit-weighted children's corrections, which is the power value minus the
// plain mean; at p = 1 the two means are the same sums computed the same
// way, so every correction is exactly zero and selection is bit for bit
// plain UCT's. Corrections are recomputed bottom-up along each backup's
// path. Selection keeps UCT's exploration term, c·√(ln N / n), unless
// Options.PolyExplore puts the polynomial term in its place (explore.go).

// powerOn reports whether the tree backs up power means.
func (t *tree) powerOn() bool { return t.opt.PowerMean > 0 }

// jointIndex is the joint index of the move indices idx, one per role
// (mixed radix, role 0 least significant).
func jointIndex(nd *node, idx []int) int {
	ji, radix := 0, 1
	for r, i := range idx {
		ji += i * radix
		radix *= len(nd.moves[r])
	}
	return ji
}

// jointMove returns role r's move index in joint index ji.
func jointMove(nd *node, r, ji int) int {
	for q := 0; q < r; q++ {
		ji /= len(nd.moves[q])
	}
	return ji % len(nd.moves[r])
}

// childDelta is the correction of the child by joint index ji for role r,
// 0 when there is none (no child, or a solved or terminal one, whose
// backups already carry its exact value).
func (t *tree) childDelta(nd *node, ji, r int) float64 {
	c := nd.children[ji]
	if c == none {
		return 0
	}
	ch := &t.nodes[c]
	if ch.delta == nil || ch.solved || ch.terminal {
		return 0
	}
	return ch.delta[r]
}

// powerMoveValue is role r's value of its move i at nd on the 0..100
// scale: the move's plain mean plus the visit-weighted corrections of the
// children it leads to.
func (t *tree) powerMoveValue(nd *node, r, i int) float64 {
	n := float64(nd.n[r][i])
	extra := 0.0
	if nd.chooser == r {
		if ji := t.jointOf(nd, r, i); ji >= 0 {
			extra = n * t.childDelta(nd, ji, r)
		}
	} else {
		for ji := range nd.children {
			if nd.nj[ji] > 0 && jointMove(nd, r, ji) == i {
				extra += float64(nd.nj[ji]) * t.childDelta(nd, ji, r)
			}
		}
	}
	return clamp100(nd.w[r][i]/n + extra/n)
}

// jointOf is the joint index of the sole chooser r's move i, or -1 when
// it is not stored.
func (t *tree) jointOf(nd *node, r, i int) int {
	radix := 1
	for q := 0; q < r; q++ {
		radix *= len(nd.moves[q])
	}
	if ji := i * radix; ji < len(nd.children) {
		return ji
	}
	return -1
}

// updateDelta recomputes nd's corrections from its statistics and its
// children's corrections.
func (t *tree) updateDelta(nd *node) {
	if nd.chooser >= 0 {
		t.updateChooserDelta(nd)
		return
	}
	p := t.opt.PowerMean
	for r := 0; r < t.roles; r++ {
		var total, am, carried float64
		for i := range nd.moves[r] {
			total += float64(nd.n[r][i])
		}
		if total == 0 {
			nd.delta[r] = 0
			continue
		}
		ws, qs := t.powerScratch(len(nd.moves[r])), t.powerScratch2(len(nd.moves[r]))
		for i := range nd.moves[r] {
			if nd.n[r][i] == 0 {
				continue
			}
			ws[i] = float64(nd.n[r][i]) / total
			qs[i] = t.powerMoveValue(nd, r, i)
			am += ws[i] * qs[i]
		}
		for ji := range nd.children {
			carried += float64(nd.nj[ji]) * t.childDelta(nd, ji, r) / total
		}
		nd.delta[r] = powerMean(ws, qs, p, am) - am + carried
	}
}

// updateChooserDelta is updateDelta where one role chooses (its joint
// moves are its moves): the chooser's power mean, its gain over the plain
// mean taken from the others.
func (t *tree) updateChooserDelta(nd *node) {
	b, p := nd.chooser, t.opt.PowerMean
	var total float64
	for _, n := range nd.nj {
		total += float64(n)
	}
	if total == 0 {
		clear(nd.delta)
		return
	}
	// The chooser's power mean, and the weights it puts on the moves.
	ws, qs := t.powerScratch(len(nd.nj)), t.powerScratch2(len(nd.nj))
	var am float64
	for ji, n := range nd.nj {
		if n == 0 {
			continue
		}
		ws[ji] = float64(n) / total
		qs[ji] = t.jointValue(nd, ji, b)
		am += ws[ji] * qs[ji]
	}
	gain := powerMean(ws, qs, p, am) - am
	share := gain / float64(max(t.roles-1, 1))
	for r := 0; r < t.roles; r++ {
		carried := 0.0
		for ji, n := range nd.nj {
			carried += float64(n) * t.childDelta(nd, ji, r) / total
		}
		if r == b {
			nd.delta[r] = gain + carried
		} else {
			nd.delta[r] = carried - share
		}
	}
}

// jointValue is role r's value of joint move ji at nd: its plain mean plus
// its child's correction.
func (t *tree) jointValue(nd *node, ji, r int) float64 {
	return clamp100(nd.wj[r][ji]/float64(nd.nj[ji]) + t.childDelta(nd, ji, r))
}

// powerScratch and powerScratch2 return the tree's two scratch slices, k
// zeros each.
func (t *tree) powerScratch(k int) []float64  { return zeros(&t.psum[0], k) }
func (t *tree) powerScratch2(k int) []float64 { return zeros(&t.psum[1], k) }

func zeros(buf *[]float64, k int) []float64 {
	if cap(*buf) < k {
		*buf = make([]float64, k)
	}
	s := (*buf)[:k]
	clear(s)
	return s
}

// powerMean returns the weighted power mean with exponent p ≥ 1 of values
// in 0..100, the weights summing to 1, given their arithmetic mean am (the
// power mean at p = 1, returned as it is). The values are scaled by the
// largest, so that no power overflows or underflows to zero whatever p.
func powerMean(weights, values []float64, p, am float64) float64 {
	if p == 1 {
		return am
	}
	top := 0.0
	for i, v := range values {
		if weights[i] > 0 {
			top = max(top, v)
		}
	}
	if top == 0 {
		return 0
	}
	var s float64
	for i, v := range values {
		if weights[i] > 0 {
			s += weights[i] * math.Pow(v/top, p)
		}
	}
	return top * math.Pow(s, 1/p)
}

func clamp100(v float64) float64 {
	switch {
	case v < 0:
		return 0
	case v > 100:
		return 100
	}
	return v
}
