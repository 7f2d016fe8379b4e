package propnet

// gateLegal factors out of each role's legal outputs the conjunct most of
// them share, such as (true (control white)) in
//
//	legal(white, m) = control(white) AND rest_m
//
// The output becomes the pair (gate, rest): a simulator keeps the list of
// moves whose rest holds, and the list counts only while its gate holds.
// Without this, every change of turn would update every move's AND gate and
// rebuild both roles' legal lists; with it, a change of turn touches
// nothing but the gate. Groups are formed greedily, most common conjunct
// first, while a conjunct is shared by at least two outputs; other outputs
// keep the gate true.
func (g *graph) gateLegal() {
	g.gate = make([][]lit, len(g.legal))
	for r := range g.legal {
		g.gate[r] = make([]lit, len(g.legal[r]))
		for m := range g.gate[r] {
			g.gate[r][m] = litTrue
		}
		grouped := make([]bool, len(g.legal[r]))
		for {
			best, n := g.commonConjunct(g.legal[r], grouped)
			if n < 2 {
				break
			}
			for m, l := range g.legal[r] {
				if !grouped[m] && hasLit(g.conjuncts(l), best) {
					g.legal[r][m] = g.without(l, best)
					g.gate[r][m] = best
					grouped[m] = true
				}
			}
		}
	}
}

// commonConjunct returns the conjunct shared by most ungrouped outputs,
// the smallest lit among equals, and how many share it.
func (g *graph) commonConjunct(outs []lit, grouped []bool) (lit, int) {
	count := map[lit]int{}
	for m, l := range outs {
		if grouped[m] || l.isConst() {
			continue
		}
		for _, c := range g.conjuncts(l) {
			count[c]++
		}
	}
	best, n := lit(-1), 0
	for c, k := range count {
		if k > n || (k == n && c < best) {
			best, n = c, k
		}
	}
	return best, n
}

// conjuncts returns lits whose conjunction is l: the inputs of an AND (or
// the negated inputs of a negated OR), else l itself.
func (g *graph) conjuncts(l lit) []lit {
	nd := &g.nodes[l.node()]
	switch {
	case nd.kind == kAnd && !l.neg():
		return nd.in
	case nd.kind == kOr && l.neg():
		out := make([]lit, len(nd.in))
		for i, x := range nd.in {
			out[i] = x.not()
		}
		return out
	}
	return []lit{l}
}

func hasLit(ls []lit, x lit) bool {
	for _, l := range ls {
		if l == x {
			return true
		}
	}
	return false
}

// without returns the conjunction of l's conjuncts other than x.
func (g *graph) without(l, x lit) lit {
	var rest []lit
	for _, c := range g.conjuncts(l) {
		if c != x {
			rest = append(rest, c)
		}
	}
	switch len(rest) {
	case 0:
		return litTrue
	case 1:
		return rest[0]
	}
	return mkLit(g.add(kAnd, rest, 0), false)
}
