package propnet

import (
	"context"
	"sort"
)

// maxFactorFanIn bounds the gates whose input pairs are counted: a gate of
// k inputs has k(k-1)/2 pairs.
const maxFactorFanIn = 12

// factorPairs extracts pairs of inputs that many gates of one kind share
// into gates of their own: a AND b AND c, a AND b AND d and a AND b AND e
// become x AND c, x AND d and x AND e with x = a AND b. A change of a then
// updates one counter instead of three, and only reaches the three gates
// when x itself changes. In chess-like games this takes the test "the
// target square holds no piece of mine" and the path test out of every
// piece type's move gate. Pairs are taken greedily, most shared first,
// while at least minShare gates share them. It stops early when ctx is
// cancelled; the network it leaves computes the same outputs.
func (g *graph) factorPairs(ctx context.Context) {
	const minShare = 3
	for _, k := range []kind{kAnd, kOr} {
		type pair struct{ a, b lit }
		users := map[pair][]int32{}
		for v := range g.nodes {
			nd := &g.nodes[v]
			if nd.kind != k || len(nd.in) < 3 || len(nd.in) > maxFactorFanIn {
				continue
			}
			for i := 0; i < len(nd.in); i++ {
				for j := i + 1; j < len(nd.in); j++ {
					a, b := nd.in[i], nd.in[j]
					if b < a {
						a, b = b, a
					}
					users[pair{a, b}] = append(users[pair{a, b}], int32(v))
				}
			}
		}
		var pairs []pair
		for p, us := range users {
			if len(us) >= minShare {
				pairs = append(pairs, p)
			}
		}
		sort.Slice(pairs, func(i, j int) bool {
			pi, pj := pairs[i], pairs[j]
			if ni, nj := len(users[pi]), len(users[pj]); ni != nj {
				return ni > nj
			}
			return pi.a < pj.a || (pi.a == pj.a && pi.b < pj.b)
		})
		for i, p := range pairs {
			if i%1024 == 0 && ctx.Err() != nil {
				return
			}
			g.extractPair(k, p.a, p.b, users[p])
		}
	}
}

// extractPair makes x = a k b and replaces a and b by x in every gate of us
// that still has both (an earlier extraction may have taken one).
func (g *graph) extractPair(k kind, a, b lit, us []int32) {
	var still []int32
	for _, v := range us {
		if in := g.nodes[v].in; len(in) >= 3 && hasLit(in, a) && hasLit(in, b) {
			still = append(still, v)
		}
	}
	if len(still) < 3 {
		return
	}
	x := mkLit(g.add(k, []lit{a, b}, 0), false)
	for _, v := range still {
		nd := &g.nodes[v]
		in := nd.in[:0:0]
		for _, l := range nd.in {
			if l != a && l != b {
				in = append(in, l)
			}
		}
		nd.in = append(in, x)
	}
}
