package mcts

import (
	"context"
	"sync"
	"time"

	"gdlab/engine/game"
	"gdlab/engine/heuristic"
	"gdlab/engine/search"
)

// Root parallelism: with several threads and SharedTree off, the player
// keeps one tree per thread, searches them side by side from the same root
// with different seeds, and chooses its move from their root statistics
// added together. The trees share nothing but the machine (safe for
// concurrent use) and the read-only analyses, so the threads never wait on
// each other; a shared tree's selection and backup, by contrast, run on one
// goroutine while only the playouts spread.

// rootTrees returns how many trees the options ask for: one per thread
// under root parallelism, else one.
func (o Options) rootTrees() int {
	if o.SharedTree {
		return 1
	}
	return o.threads()
}

// treeOptions are the options of each tree: one worker under root
// parallelism, and a share of the node pool, so that the trees together
// keep to PoolSize.
func (o Options) treeOptions() Options {
	k := o.rootTrees()
	if k == 1 {
		return o
	}
	o.Threads = 1
	o.PoolSize = max(o.poolSize()/k, 1000)
	return o
}

// share divides a counted limit (iterations, node expansions, Next calls)
// among k trees: tree i gets its part, the first ones one more when it
// does not divide, so the parts add up to the limit. 0 (no limit) stays 0.
func share(limit int64, k, i int) int64 {
	if limit <= 0 || k == 1 {
		return limit
	}
	part := limit / int64(k)
	if int64(i) < limit%int64(k) {
		part++
	}
	return max(part, 1)
}

// searchAll searches every tree from s, side by side, and returns their
// statistics added up (the time is the wall-clock time of the whole).
func (p *Player) searchAll(ctx context.Context, s game.State, b search.Budget, seed uint64) (Stats, search.Stop, error) {
	trees := p.trees()
	if len(trees) == 1 {
		return p.t.search(ctx, s, b, p.opt.Iterations, seed)
	}
	start := time.Now()
	k := len(trees)
	stats := make([]Stats, k)
	stops := make([]search.Stop, k)
	errs := make([]error, k)
	var wg sync.WaitGroup
	for i, t := range trees {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tb := b
			tb.Nodes, tb.NextCalls = share(b.Nodes, k, i), share(b.NextCalls, k, i)
			stats[i], stops[i], errs[i] = t.search(ctx, s, tb, share(p.opt.Iterations, k, i), heuristic.Mix(seed+uint64(i)))
		}()
	}
	wg.Wait()
	var sum Stats
	for i, st := range stats {
		if errs[i] != nil {
			return sum, search.StopNone, errs[i]
		}
		sum.Iterations += st.Iterations
		sum.Playouts += st.Playouts
		sum.Expansions += st.Expansions
		sum.NextCalls += st.NextCalls
		sum.PoolNodes += st.PoolNodes
		if st.RootSolved && !sum.RootSolved {
			sum.RootSolved, sum.RootValue = true, st.RootValue
		}
	}
	sum.Time = time.Since(start)
	return sum, stops[0], nil
}

// trees returns the player's trees, the first one first.
func (p *Player) trees() []*tree { return append([]*tree{p.t}, p.more...) }

// bestMoveAll chooses a move from every tree's root: a move a tree proved
// best, else by tree.bestMove's rule over the visits and values added up
// across the trees.
func (p *Player) bestMoveAll(role int) (game.Move, float64) {
	if len(p.more) == 0 {
		return p.t.bestMove(role)
	}
	merged := &tree{roles: p.t.roles}
	for _, t := range p.trees() {
		if t.root == none || t.nodes[t.root].moves == nil {
			continue
		}
		nd := &t.nodes[t.root]
		if nd.solved && nd.chooser == role {
			return t.bestMove(role)
		}
		if len(merged.nodes) == 0 {
			startMerge(merged, t, nd, role)
		} else {
			addRoot(merged, t, nd, role)
		}
	}
	if len(merged.nodes) == 0 {
		return game.NoMove, -1
	}
	merged.root = 0
	return merged.bestMove(role)
}

// startMerge starts the merged tree from one tree's root: a copy of the
// root's moves and statistics for role (node 0), and its solved children
// for role's moves, each as a child node of the merged tree.
func startMerge(merged, t *tree, nd *node, role int) {
	k := len(nd.moves[role])
	root := node{chooser: role, moves: nd.moves, visits: nd.visits,
		n: make([][]int64, t.roles), w: make([][]float64, t.roles), children: make([]int32, k)}
	root.n[role] = append([]int64(nil), nd.n[role]...)
	root.w[role] = append([]float64(nil), nd.w[role]...)
	merged.nodes = append(merged.nodes, root)
	for i := 0; i < k; i++ {
		merged.nodes[0].children[i] = none
		if ch := t.childOf(nd, role, i); ch != none && t.nodes[ch].solved {
			merged.nodes[0].children[i] = int32(len(merged.nodes))
			merged.nodes = append(merged.nodes, node{solved: true, value: t.nodes[ch].value})
		}
	}
}

// addRoot adds another tree's root statistics for role to the merged root.
func addRoot(merged *tree, t *tree, nd *node, role int) {
	root := &merged.nodes[0]
	root.visits += nd.visits
	for i := range root.n[role] {
		root.n[role][i] += nd.n[role][i]
		root.w[role][i] += nd.w[role][i]
		if root.children[i] != none {
			continue
		}
		if ch := t.childOf(nd, role, i); ch != none && t.nodes[ch].solved {
			root.children[i] = int32(len(merged.nodes))
			merged.nodes = append(merged.nodes, node{solved: true, value: t.nodes[ch].value})
		}
	}
}

// maxDepth is the deepest line of any tree.
func (p *Player) maxDepth() int {
	d := 0
	for _, t := range p.trees() {
		d = max(d, t.maxDepth())
	}
	return d
}
