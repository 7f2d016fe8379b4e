package factor

import (
	"context"
	"fmt"
	"slices"

	"gdlab/engine/game"
)

// parts is a union-find over base propositions that remembers why two
// parts were joined.
type parts struct {
	parent, size []int
	joins        []Coupling
}

func newParts(n int) *parts {
	p := &parts{parent: make([]int, n), size: make([]int, n)}
	for i := range p.parent {
		p.parent[i], p.size[i] = i, 1
	}
	return p
}

func (p *parts) find(x int) int {
	for p.parent[x] != x {
		p.parent[x] = p.parent[p.parent[x]]
		x = p.parent[x]
	}
	return x
}

// join merges the parts of x and y; why is called only when they were
// apart, to name the dependency.
func (p *parts) join(x, y int, why func() string) {
	x, y = p.find(x), p.find(y)
	if x == y {
		return
	}
	sx, sy := p.size[x], p.size[y]
	p.joins = append(p.joins, Coupling{Why: why(), Sizes: [2]int{max(sx, sy), min(sx, sy)}})
	if sx < sy {
		x, y = y, x
	}
	p.parent[y] = x
	p.size[x] += p.size[y]
}

// partition joins the candidate base propositions along the graph's
// dependencies and fills the factors, noops, joint moves and couplings.
func (a *Analysis) partition(ctx context.Context, g *graph) (*parts, error) {
	p := newParts(len(a.Bases))
	for b, qs := range g.nextBases {
		if g.context[b] {
			continue
		}
		for _, q := range qs {
			if !g.context[q] {
				p.join(b, q, func() string { return fmt.Sprintf("(next %s) reads %s", a.Bases[b], a.Bases[q]) })
			}
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// A move whose legality splits along the parts it changes may become
	// one that does not once parts are joined: repeat until nothing joins.
	for joined := true; joined; {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		before := len(p.joins)
		for i, eff := range g.effects {
			if i&255 == 255 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
			}
			a.joinMove(p, g, i, eff)
		}
		joined = len(p.joins) > before
	}
	a.collect(p, g)
	return p, nil
}

// splits reports whether move i's legality is an AND of conditions that
// each read the context or one part that the move changes: a move of
// several parts at once, made of one move in each (as in games where each
// move marks a cell on each of two boards).
func splits(p *parts, g *graph, i int, eff []int) bool {
	changed := map[int]bool{}
	for _, b := range eff {
		changed[p.find(b)] = true
	}
	for _, bs := range g.conjuncts[i] {
		part := -1
		for _, q := range bs {
			if g.context[q] {
				continue
			}
			switch r := p.find(q); {
			case !changed[r]:
				return false
			case part < 0:
				part = r
			case part != r:
				return false
			}
		}
	}
	return true
}

// joinMove joins what move i's legality reads to what it changes (with
// ProductMoves, unless the legality splits along the parts it changes),
// and, with NoJointMoves, everything it changes.
func (a *Analysis) joinMove(p *parts, g *graph, i int, eff []int) {
	if len(eff) == 0 {
		return
	}
	if a.opt.ProductMoves && !a.opt.NoJointMoves && splits(p, g, i, eff) {
		return
	}
	r, m := g.move(i)
	text := a.Moves[r][m]
	for _, q := range g.enablers[i] {
		if g.context[q] {
			continue
		}
		for _, b := range eff {
			p.join(q, b, func() string {
				return fmt.Sprintf("(legal %s %s) reads %s and the move changes %s", a.Roles[r], text, a.Bases[q], a.Bases[b])
			})
		}
	}
	if a.opt.NoJointMoves {
		for _, b := range eff[1:] {
			p.join(eff[0], b, func() string {
				return fmt.Sprintf("(does %s %s) changes both %s and %s", a.Roles[r], text, a.Bases[eff[0]], a.Bases[b])
			})
		}
	}
}

// collect turns the parts into factors, largest first, and sorts the
// moves into the factors they change, noops and joint moves.
func (a *Analysis) collect(p *parts, g *graph) {
	byRoot := map[int]int{}
	var fs []Factor
	a.factorOf = make([]int, len(a.Bases))
	for b := range a.Bases {
		a.factorOf[b] = -1
		if g.context[b] {
			continue
		}
		root := p.find(b)
		k, ok := byRoot[root]
		if !ok {
			k = len(fs)
			byRoot[root] = k
			fs = append(fs, Factor{Moves: make([][]game.Move, len(a.Roles))})
		}
		fs[k].Bases = append(fs[k].Bases, b)
	}
	order := make([]int, len(fs))
	for k := range order {
		order[k] = k
	}
	slices.SortStableFunc(order, func(x, y int) int { return len(fs[y].Bases) - len(fs[x].Bases) })
	a.Factors = make([]Factor, len(fs))
	for k, o := range order {
		a.Factors[k] = fs[o]
		for _, b := range fs[o].Bases {
			a.factorOf[b] = k
		}
	}
	a.Joint = nil
	a.sortMoves(g)
	a.Joins = len(p.joins)
	a.Couplings = largestJoins(p.joins)
}

// sortMoves files each move under the factors it changes.
func (a *Analysis) sortMoves(g *graph) {
	a.Noops = make([][]game.Move, len(a.Roles))
	a.effects = make([][][]int, len(a.Roles))
	for r := range a.effects {
		a.effects[r] = make([][]int, len(a.Moves[r]))
	}
	for i, eff := range g.effects {
		r, m := g.move(i)
		a.effects[r][m] = eff
		var ks []int
		for _, b := range eff {
			if k := a.factorOf[b]; k >= 0 && !slices.Contains(ks, k) {
				ks = append(ks, k)
			}
		}
		slices.Sort(ks)
		for _, k := range ks {
			a.Factors[k].Moves[r] = append(a.Factors[k].Moves[r], m)
		}
		switch {
		case len(ks) == 0:
			a.Noops[r] = append(a.Noops[r], m)
		case len(ks) > 1:
			a.Joint = append(a.Joint, JointMove{Role: r, Move: m, Factors: ks})
		}
	}
}

// largestJoins returns the joins between the largest parts, at most
// MaxCouplings, in order of the smaller part's size, then the larger's.
func largestJoins(js []Coupling) []Coupling {
	var out []Coupling
	seen := map[string]bool{}
	for _, j := range js { // an output's gate joins many parts at once: name it once
		if !seen[j.Why] {
			seen[j.Why] = true
			out = append(out, j)
		}
	}
	slices.SortStableFunc(out, func(x, y Coupling) int {
		if x.Sizes[1] != y.Sizes[1] {
			return y.Sizes[1] - x.Sizes[1]
		}
		return y.Sizes[0] - x.Sizes[0]
	})
	if len(out) > MaxCouplings {
		out = out[:MaxCouplings]
	}
	return out
}
