package mcts

import (
	"context"
	"math"
	"math/rand/v2"
	"time"

	"gdlab/engine/analysis/emulate"
	"gdlab/engine/analysis/latch"
	"gdlab/engine/game"
	"gdlab/engine/heuristic"
	"gdlab/engine/search"
)

// none marks a missing node or child.
const none int32 = -1

// maxPath bounds a selection path, in case the state graph has cycles.
const maxPath = 2000

// node is one decision state (or terminal state) of the graph.
type node struct {
	state    game.State
	terminal bool      // terminal, or a leaf by switch 1
	solved   bool      // value is exact
	value    []float64 // per role, 0..100: the goals when terminal, the exact value when solved
	moves    [][]game.Move
	chooser  int // the one role with several moves, -1 when several roles choose
	visits   int64
	n        [][]int64   // per role, per move: visits through the move
	w        [][]float64 // per role, per move: sum of the role's values through the move
	children []int32     // by joint index (mixed radix over the roles' moves)
	// With the power-mean backup (power.go): per joint index, the visits
	// through it; per role and joint index, the sum of the role's values
	// through it; per role, the node's power value minus its plain mean.
	nj     []int64
	wj     [][]float64
	delta  []float64
	lo, hi []int // achievable range per role (with an analysis)
	// A node of a decision chain (Options.DecisionNodes, chain.go): every
	// role's legal moves at the state, the moves chosen above this node in
	// the chain (NoMove for roles yet to choose), and whether the node is
	// below the chain's head (then it is reached only from its parent).
	all   [][]game.Move
	fixed []game.Move
	inner bool
	mark  uint32
	live  bool
}

// tree is the search graph with its node pool and transposition table.
type tree struct {
	m      game.Machine
	an     *latch.Analysis
	vt     *emulate.VirtualTerminal // switch 5, nil when off
	opt    Options
	roles  int
	nodes  []node
	free   []int32
	table  map[uint64][]int32
	root   int32
	live   int
	markID uint32
	rng    *rand.Rand
	work   []*worker
	ls     *feeder // the local-search switch, or nil

	// sim evaluates the states the selection meets: a new node's terminal
	// test, goals and moves, and the joint moves it plays. It is the
	// tree's own, so it stays near the states the tree visits (a state
	// change costs what differs) and the trees of root parallelism never
	// share a simulator.
	sim game.Simulator

	// Scratch of the selection, which runs on one goroutine: leaves that
	// a backup released, the joint move being played, and the legal moves
	// of a forced step or of a new node. Reusing them keeps a selection
	// from allocating but for the node it creates.
	spare []*leaf
	joint []game.Move
	legal []game.Move
	ends  []int        // where each role's moves end in legal, for a new node
	fixed []game.Move  // a decision chain's fixed moves, being extended
	first int          // the role that chooses first in a decision chain (chain.go)
	psum  [2][]float64 // the power-mean backup's scratch (power.go)

	// per search
	iters, expansions, nextCalls, playouts int64
}

func newTree(m game.Machine, an *latch.Analysis, vt *emulate.VirtualTerminal, opt Options) (*tree, error) {
	roles := len(m.Roles())
	t := &tree{m: m, an: an, vt: vt, opt: opt, roles: roles, table: map[uint64][]int32{}, root: none,
		joint: make([]game.Move, roles), sim: game.NewSimulator(m)}
	for i := 0; i < opt.threads(); i++ {
		t.work = append(t.work, newWorker(t))
	}
	return t, nil
}

// lookup returns the node holding s, or none.
func (t *tree) lookup(s game.State) int32 {
	for _, id := range t.table[s.Hash()] {
		if t.nodes[id].state.Equal(s) {
			return id
		}
	}
	return none
}

// full reports whether the pool has no room for another node.
func (t *tree) full() bool { return t.live >= t.opt.poolSize() }

// alloc stores a new expansion's node and indexes it.
func (t *tree) alloc(nd node) int32 {
	id := t.store(nd)
	h := nd.state.Hash()
	t.table[h] = append(t.table[h], id)
	t.expansions++
	return id
}

// store puts a node in the pool, unindexed.
func (t *tree) store(nd node) int32 {
	nd.live = true
	var id int32
	if k := len(t.free); k > 0 {
		id = t.free[k-1]
		t.free = t.free[:k-1]
		t.nodes[id] = nd
	} else {
		id = int32(len(t.nodes))
		t.nodes = append(t.nodes, nd)
	}
	t.live++
	return id
}

// newNode evaluates s (terminal test, goals, moves, ranges) into a node.
func (t *tree) newNode(s game.State, isRoot bool) (node, error) {
	nd := node{state: s, chooser: -1}
	if err := t.sim.SetState(s); err != nil {
		return nd, err
	}
	term, err := t.sim.Terminal()
	if err != nil {
		return nd, err
	}
	if t.an != nil {
		nd.lo, nd.hi = t.an.Ranges(s, nil, nil)
	}
	if term {
		g, err := t.sim.Goals(nil)
		nd.terminal, nd.solved, nd.value = true, true, toValues(g)
		return nd, err
	}
	if t.vt != nil && !isRoot {
		if g, ok := t.vt.DecidedState(s); ok { // switch 5: decided, so a solved leaf
			nd.terminal, nd.solved, nd.value = true, true, toValues(g)
			return nd, nil
		}
	}
	if err := t.legalMoves(&nd); err != nil {
		return nd, err
	}
	choosers := 0
	for r := 0; r < t.roles; r++ {
		if len(nd.moves[r]) > 1 {
			choosers++
			nd.chooser = r
		}
	}
	if choosers != 1 {
		nd.chooser = -1
	}
	if t.opt.LatchTerminal && t.an != nil && !isRoot && t.latchLeaf(&nd) {
		return nd, nil
	}
	if t.opt.DecisionNodes && choosers > 1 {
		t.splitHead(&nd)
	}
	t.initStats(&nd)
	return nd, nil
}

// latchLeaf applies switch 1: when every choosing role's range is a single
// value the node is a leaf valued by the ranges (exact where the range is a
// single value; solved when every role's is).
func (t *tree) latchLeaf(nd *node) bool {
	for r := 0; r < t.roles; r++ {
		if len(nd.moves[r]) > 1 && nd.lo[r] != nd.hi[r] {
			return false
		}
	}
	nd.terminal, nd.solved = true, true
	nd.value = make([]float64, t.roles)
	for r := 0; r < t.roles; r++ {
		nd.value[r] = float64(nd.lo[r]+nd.hi[r]) / 2
		if nd.lo[r] != nd.hi[r] {
			nd.solved = false
		}
	}
	nd.moves = nil
	return true
}

// legalMoves gives a node every role's legal moves, read from the tree's
// simulator (at the node's state) into the tree's scratch and kept in one
// array of exactly their number, so that a new node costs two allocations
// for its moves whatever their count.
func (t *tree) legalMoves(nd *node) error {
	var err error
	all := t.legal[:0]
	ends := t.ends[:0]
	for r := 0; r < t.roles; r++ {
		var got []game.Move
		if got, err = t.sim.Legal(r, all[len(all):]); err != nil {
			return err
		}
		if len(got) == 0 {
			return &game.NoLegalMoveError{Role: t.m.Roles()[r]}
		}
		all = append(all, got...) // in place when got shares all's array
		ends = append(ends, len(all))
	}
	t.legal, t.ends = all, ends
	kept := append([]game.Move(nil), all...)
	nd.moves = make([][]game.Move, t.roles)
	start := 0
	for r, end := range ends {
		nd.moves[r] = kept[start:end:end]
		start = end
	}
	return nil
}

// initStats gives a node its visit counts, value sums and children, zero
// and none. The counts and sums of all roles share one array each, so that
// a new node costs few allocations.
func (t *tree) initStats(nd *node) {
	nd.n = make([][]int64, t.roles)
	nd.w = make([][]float64, t.roles)
	joints, total := 1, 0
	for r := 0; r < t.roles; r++ {
		total += len(nd.moves[r])
		joints *= len(nd.moves[r])
	}
	ns, ws := make([]int64, total), make([]float64, total)
	for r := 0; r < t.roles; r++ {
		k := len(nd.moves[r])
		nd.n[r], nd.w[r] = ns[:k:k], ws[:k:k]
		ns, ws = ns[k:], ws[k:]
	}
	if joints > 1<<16 {
		joints = 1 << 16 // joints beyond are not stored as children
	}
	nd.children = make([]int32, joints)
	for i := range nd.children {
		nd.children[i] = none
	}
	if t.powerOn() {
		nd.nj = make([]int64, joints)
		sums := make([]float64, t.roles*(joints+1))
		nd.delta, sums = sums[:t.roles:t.roles], sums[t.roles:]
		nd.wj = make([][]float64, t.roles)
		for r := range nd.wj {
			nd.wj[r], sums = sums[:joints:joints], sums[joints:]
		}
	}
}

func toValues(g []int) []float64 {
	out := make([]float64, len(g))
	for r, v := range g {
		out[r] = float64(max(v, 0))
	}
	return out
}

// setRoot makes s the root, reusing its node when the tree holds it, and
// releases every node the new root cannot reach.
func (t *tree) setRoot(s game.State) error {
	id := t.lookup(s)
	if id == none {
		nd, err := t.newNode(s, true)
		if err != nil {
			return err
		}
		t.release(none)
		id = t.alloc(nd)
	} else {
		t.release(id)
		if nd := &t.nodes[id]; nd.terminal && nd.moves == nil {
			// A leaf by switch 1 becomes the root: expand it after all.
			fresh, err := t.newNode(s, true)
			if err != nil {
				return err
			}
			if !fresh.terminal {
				fresh.mark = nd.mark
				fresh.live = true
				*nd = fresh
			}
		}
	}
	t.root = id
	return nil
}

// release frees every node not reachable from keep (all when keep is none).
func (t *tree) release(keep int32) {
	t.markID++
	if keep != none {
		stack := []int32{keep}
		t.nodes[keep].mark = t.markID
		for len(stack) > 0 {
			id := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, c := range t.nodes[id].children {
				if c != none && t.nodes[c].mark != t.markID {
					t.nodes[c].mark = t.markID
					stack = append(stack, c)
				}
			}
		}
	}
	t.table = make(map[uint64][]int32, len(t.table))
	t.free = t.free[:0]
	t.live = 0
	for i := range t.nodes {
		nd := &t.nodes[i]
		if nd.live && nd.mark == t.markID {
			if !nd.inner {
				h := nd.state.Hash()
				t.table[h] = append(t.table[h], int32(i))
			}
			t.live++
			continue
		}
		*nd = node{}
		t.free = append(t.free, int32(i))
	}
}

// step is one edge of a selection path: the node and each role's move index.
type step struct {
	id int32
	at int32 // where the node's chosen move indexes start in the leaf's idx; -1 for none
}

// leaf is where a selection ended: a known value, or a state to play out.
type leaf struct {
	path     []step
	idx      []int     // the chosen move index of every role at every step, step by step
	known    []float64 // exact or estimated value, no playout needed
	vals     []float64 // the storage known reuses
	state    game.State
	result   []float64
	blend    []float64 // heuristic values to blend in, or nil
	steps    int       // joint moves the playouts played (Next calls)
	playouts int       // playouts run: 0 for a known value, else Options.LeafBatch
	seed     uint64    // of the playout
	err      error
}

// leavesPerWorker is how many playouts each worker runs per batch when
// there are several workers. Starting and joining the workers once per
// eight playouts rather than per playout raised two threads from 28,500
// to 34,000 iterations/s on connectFour.
const leavesPerWorker = 8

// search runs iterations in batches: one playout at a time with a single
// worker; with several, batches of leavesPerWorker playouts per worker in
// a pipeline, selecting the next batch while the workers play out the
// current one (selection then sees leaves still in play only through their
// virtual losses). Without the pipeline the tree work between batches left
// the workers idle, and two threads ran slower than one.
func (t *tree) search(ctx context.Context, s game.State, b search.Budget, iters int64, seed uint64) (Stats, search.Stop, error) {
	start := time.Now()
	t.iters, t.expansions, t.nextCalls, t.playouts = 0, 0, 0, 0
	t.rng = game.NewRand(seed)
	end := b.Deadline
	if b.Time > 0 {
		if e := start.Add(b.Time); end.IsZero() || e.Before(end) {
			end = e
		}
	}
	stats := func() Stats {
		r := &t.nodes[t.root]
		st := Stats{Iterations: t.iters, Playouts: t.playouts, Expansions: t.expansions, NextCalls: t.nextCalls, PoolNodes: t.live,
			RootSolved: r.solved, Time: time.Since(start)}
		if r.solved {
			st.RootValue = append([]float64(nil), r.value...)
		}
		return st
	}
	if err := t.setRoot(s); err != nil {
		return Stats{}, search.StopNone, err
	}
	p := newPipeline(t, b)
	defer p.drain()
	for {
		// Stopped first: a search that ends at once (a root already solved,
		// a context already done) gives the local-search worker no job.
		if stop, done := t.stopped(ctx, b, end, iters); done {
			if err := p.drain(); err != nil {
				return stats(), search.StopNone, err
			}
			return stats(), stop, nil
		}
		t.localTick(time.Now())
		k := t.batchLen(p.size, iters, b, p.inFlight())
		if k == 0 {
			if err := p.drain(); err != nil {
				return stats(), search.StopNone, err
			}
			continue
		}
		batch := p.next(k)
		for i := range batch {
			l, err := t.selectLeaf()
			if err != nil {
				return stats(), search.StopNone, err
			}
			l.seed = heuristic.Mix(seed + uint64(t.iters) + uint64(p.inFlight()) + uint64(i))
			batch[i] = l
		}
		if err := p.start(batch); err != nil {
			return stats(), search.StopNone, err
		}
	}
}

// stopped reports whether the search must stop, and why.
func (t *tree) stopped(ctx context.Context, b search.Budget, end time.Time, iters int64) (search.Stop, bool) {
	switch {
	case t.nodes[t.root].solved:
		return search.StopNone, true
	case iters > 0 && t.iters >= iters:
		return search.StopNone, true
	case ctx.Err() != nil:
		if ctx.Err() == context.DeadlineExceeded {
			return search.StopTime, true
		}
		return search.StopCancelled, true
	case !end.IsZero() && !time.Now().Before(end):
		return search.StopTime, true
	case b.Nodes > 0 && t.expansions >= b.Nodes:
		return search.StopNodes, true
	case b.NextCalls > 0 && t.nextCalls >= b.NextCalls:
		return search.StopNextCalls, true
	}
	return search.StopNone, false
}

// batchLen is how many leaves the next batch takes: at most size, no more
// than the iterations or node expansions left once the leaves in play are
// counted (each leaf expands at most one node), and one per worker under
// a Next-call budget, whose use a playout reveals only when it ends.
func (t *tree) batchLen(size int, iters int64, b search.Budget, inFlight int) int {
	k := int64(size)
	if b.NextCalls > 0 {
		k = min(k, int64(len(t.work)))
	}
	if iters > 0 {
		k = min(k, iters-t.iters-int64(inFlight))
	}
	if b.Nodes > 0 {
		k = min(k, b.Nodes-t.expansions)
	}
	return int(max(k, 0))
}

// backupLeaf adds a finished leaf's value to the tree.
func (t *tree) backupLeaf(l *leaf) error {
	if l.err != nil {
		return l.err
	}
	v := l.known
	if v == nil {
		v = l.result
	}
	if l.blend != nil {
		w := t.opt.HeuristicWeight
		for r := range v {
			v[r] = (1-w)*v[r] + w*l.blend[r]
		}
	}
	t.backup(l, v)
	t.nextCalls += int64(l.steps)
	t.playouts += int64(l.playouts)
	t.iters++
	t.spare = append(t.spare, l)
	return nil
}

// newLeaf returns an empty leaf, reusing one a backup released with the
// capacity of its slices.
func (t *tree) newLeaf() *leaf {
	k := len(t.spare)
	if k == 0 {
		return &leaf{}
	}
	l := t.spare[k-1]
	t.spare = t.spare[:k-1]
	*l = leaf{path: l.path[:0], idx: l.idx[:0], vals: l.vals, result: l.result}
	return l
}

// setKnown makes v the leaf's known value, in the leaf's own storage.
func (l *leaf) setKnown(v []float64) {
	l.vals = append(l.vals[:0], v...)
	l.known = l.vals
}

// selectLeaf walks from the root by decoupled UCT, adding one visit (a
// virtual loss until backup) along the way, and creates the first new node.
func (t *tree) selectLeaf() (*leaf, error) {
	l := t.newLeaf()
	id := t.root
	for depth := 0; ; depth++ {
		nd := &t.nodes[id]
		nd.visits++
		if nd.terminal || (nd.solved && id != t.root) {
			l.setKnown(nd.value)
			return l, nil
		}
		if depth >= maxPath {
			l.state = nd.state
			return l, nil
		}
		joint := t.joint
		at := len(l.idx)
		ji, radix := 0, 1
		for r := 0; r < t.roles; r++ {
			i := t.choose(id, r)
			l.idx = append(l.idx, i)
			joint[r] = nd.moves[r][i]
			nd.n[r][i]++
			ji += i * radix
			radix *= len(nd.moves[r])
		}
		l.path = append(l.path, step{id: id, at: int32(at)})
		child := none
		if ji < len(nd.children) {
			child = nd.children[ji]
			if nd.nj != nil {
				nd.nj[ji]++
			}
		}
		if child != none {
			id = child
			continue
		}
		if next := t.chainNext(nd, joint); next >= 0 {
			if t.full() {
				return t.chainLeaf(l, nd, joint)
			}
			id = t.chainChild(id, ji, joint, next)
			continue
		}
		s, err := t.advance(nd.state, joint)
		if err != nil {
			return nil, err
		}
		if c := t.lookup(s); c != none {
			if ji < len(t.nodes[id].children) {
				t.nodes[id].children[ji] = c
			}
			id = c
			continue
		}
		if t.full() {
			l.state = s
			return l, nil
		}
		fresh, err := t.newNode(s, false)
		if err != nil {
			return nil, err
		}
		c := t.alloc(fresh)
		if ji < len(t.nodes[id].children) {
			t.nodes[id].children[ji] = c
		}
		t.nodes[c].visits++
		if fn := &t.nodes[c]; fn.terminal {
			l.setKnown(fn.value)
			l.path = append(l.path, step{id: c, at: -1})
			return l, nil
		}
		l.path = append(l.path, step{id: c, at: -1})
		l.state = s
		if t.opt.Heuristic != nil && t.opt.HeuristicWeight > 0 {
			l.blend = make([]float64, t.roles)
			for r := range l.blend {
				v, err := heuristic.Eval(t.opt.Heuristic, t.m, s, r)
				if err != nil {
					return nil, err
				}
				l.blend[r] = v
			}
		}
		return l, nil
	}
}

// advance plays joint and then every forced joint move (each role has a
// single legal move) until a decision or terminal state.
func (t *tree) advance(s game.State, joint []game.Move) (game.State, error) {
	buf := t.legal[:0]
	defer func() { t.legal = buf }()
	if err := t.sim.SetState(s); err != nil {
		return nil, err
	}
	for steps := 0; ; steps++ {
		t.nextCalls++
		if err := t.sim.Play(joint); err != nil {
			return nil, err
		}
		s = t.sim.State()
		if steps >= maxPath {
			return s, nil
		}
		term, err := t.sim.Terminal()
		if err != nil || term {
			return s, err
		}
		for r := 0; r < t.roles; r++ {
			if buf, err = t.sim.Legal(r, buf); err != nil {
				return nil, err
			}
			if len(buf) != 1 {
				return s, nil
			}
			joint[r] = buf[0]
		}
	}
}

// choose picks role r's move at node id by UCT (with UCT's exploration
// term or the polynomial one, explore.go), trying unvisited moves first in
// random order and, where several roles choose, breaking ties at random.
func (t *tree) choose(id int32, r int) int {
	nd := &t.nodes[id]
	k := len(nd.moves[r])
	if k == 1 {
		return 0
	}
	var unvisited [64]int
	u := 0
	for i := 0; i < k; i++ {
		if nd.n[r][i] == 0 {
			if u < len(unvisited) {
				unvisited[u] = i
			}
			u++
		}
	}
	if u > 0 {
		if u > len(unvisited) {
			for i := 0; i < k; i++ {
				if nd.n[r][i] == 0 {
					return i
				}
			}
		}
		return unvisited[t.rng.IntN(u)]
	}
	logN := math.Log(float64(nd.visits))
	c := t.opt.c()
	poly, scale := t.opt.polyOn(), 0.0
	if poly {
		scale = t.opt.polyScale(nd.visits)
	}
	// While the node is unsolved, its chooser has a move into an unsolved
	// child: selection goes there, as visiting a solved child teaches
	// nothing (and a solved child valued above every UCB bound would
	// otherwise be chosen forever, and the node never solved). Backup
	// credits the node with its best solved child (floor).
	skipSolved := nd.chooser == r && !nd.solved
	lsBias := t.localBias(nd, r)
	// Where several roles choose at once, exact ties are broken at random:
	// with a fixed order every role's bandit would take its first tied
	// move together, sampling the joint moves along a diagonal and
	// misjudging every move off it.
	randomTies := nd.chooser < 0
	best, bestScore, ties := -1, math.Inf(-1), 0
	for i := 0; i < k; i++ {
		n := float64(nd.n[r][i])
		mean := nd.w[r][i] / n / 100
		if nd.delta != nil {
			mean = t.powerMoveValue(nd, r, i) / 100
		}
		explore := c * math.Sqrt(logN/n)
		if poly {
			explore = polyBonus(scale, n)
		}
		if ch := t.childOf(nd, r, i); ch != none && t.nodes[ch].solved {
			if skipSolved {
				continue
			}
			mean, explore = t.nodes[ch].value[r]/100, 0
		}
		score := mean + explore
		if t.opt.LatchSelect && nd.chooser == r {
			score += t.rangeBias(nd, r, i, n)
		}
		if lsBias != nil {
			score += lsBias[i]
		}
		switch {
		case score > bestScore:
			best, bestScore, ties = i, score, 1
		case score == bestScore && randomTies:
			ties++
			if t.rng.IntN(ties) == 0 {
				best = i
			}
		}
	}
	if best < 0 {
		return t.bestSolved(nd, r) // every child solved; trySolve will mark nd
	}
	return best
}

// bestProved returns the index of role's most visited move into a solved
// child worth the solved node's value, or -1. Among moves proved equal the
// most visited is the one the search took longest to refute or prove; in a
// lost position that stands in for the longest resistance, which a
// fallible opponent may still get wrong, without measuring it (the tree
// keeps no proof lengths; notebook 09 counts how often it is the slowest
// loss).
func (t *tree) bestProved(nd *node, role int) int {
	best := -1
	for i := range nd.moves[role] {
		ch := t.childOf(nd, role, i)
		if ch == none || !t.nodes[ch].solved || t.nodes[ch].value[role] != nd.value[role] {
			continue
		}
		if best < 0 || nd.n[role][i] > nd.n[role][best] {
			best = i
		}
	}
	return best
}

// bestSolved returns the index of role r's move into the solved child with
// the highest value for r, or 0.
func (t *tree) bestSolved(nd *node, r int) int {
	best, bestV := 0, math.Inf(-1)
	for i := range nd.moves[r] {
		if ch := t.childOf(nd, r, i); ch != none && t.nodes[ch].solved && t.nodes[ch].value[r] > bestV {
			best, bestV = i, t.nodes[ch].value[r]
		}
	}
	return best
}

// childOf returns the child reached by role r's move i at a node with a
// single choosing role r, or none.
func (t *tree) childOf(nd *node, r, i int) int32 {
	if nd.chooser != r {
		return none
	}
	radix := 1
	for q := 0; q < r; q++ {
		radix *= len(nd.moves[q])
	}
	if ji := i * radix; ji < len(nd.children) {
		return nd.children[ji]
	}
	return none
}

// rangeBias is switch 3: + for a move that raises r's minimum achievable
// score, − for one that lowers its maximum, fading with visits.
func (t *tree) rangeBias(nd *node, r, i int, n float64) float64 {
	if nd.lo == nil {
		return 0
	}
	ch := t.childOf(nd, r, i)
	if ch == none || t.nodes[ch].lo == nil {
		return 0
	}
	c := &t.nodes[ch]
	d := float64(c.lo[r]-nd.lo[r]+c.hi[r]-nd.hi[r]) / 100
	return d * math.Sqrt(10/(10+n))
}

// backup adds the values along the leaf's path and propagates solved nodes. The
// value passed up from a node is its exact value when it is solved, and
// otherwise never less, for its chooser, than its best solved child gives:
// the chooser can secure that much.
func (t *tree) backup(l *leaf, v []float64) {
	for k := len(l.path) - 1; k >= 0; k-- {
		st := l.path[k]
		nd := &t.nodes[st.id]
		if st.at >= 0 {
			for r := 0; r < t.roles; r++ {
				nd.w[r][l.idx[int(st.at)+r]] += v[r]
			}
			if nd.delta != nil {
				if ji := jointIndex(nd, l.idx[st.at:int(st.at)+t.roles]); ji < len(nd.children) {
					for r := 0; r < t.roles; r++ {
						nd.wj[r][ji] += v[r]
					}
				}
				t.updateDelta(nd)
			}
		}
		if !nd.solved && st.at >= 0 {
			t.trySolve(st.id)
		}
		switch {
		case nd.solved:
			copy(v, nd.value)
		case nd.chooser >= 0 && nd.moves != nil:
			m := nd.chooser
			if ch := t.childOf(nd, m, t.bestSolved(nd, m)); ch != none && t.nodes[ch].solved && t.nodes[ch].value[m] > v[m] {
				copy(v, t.nodes[ch].value)
			}
		}
	}
}

// trySolve marks a node with one choosing role m solved when a solved
// child gives m the most m can achieve, or when every child is solved.
func (t *tree) trySolve(id int32) {
	nd := &t.nodes[id]
	m := nd.chooser
	if m < 0 {
		return
	}
	best := float64(100)
	if t.opt.LatchWin && nd.hi != nil {
		best = float64(nd.hi[m])
	}
	all, bestChild := true, none
	for i := range nd.moves[m] {
		ch := t.childOf(nd, m, i)
		if ch == none || !t.nodes[ch].solved {
			all = false
			continue
		}
		cv := t.nodes[ch].value[m]
		if cv >= best {
			t.solve(nd, t.nodes[ch].value)
			return
		}
		if bestChild == none || cv > t.nodes[bestChild].value[m] {
			bestChild = ch
		}
	}
	if all && bestChild != none {
		t.solve(nd, t.nodes[bestChild].value)
	}
}

func (t *tree) solve(nd *node, v []float64) {
	nd.solved = true
	nd.value = append([]float64(nil), v...)
}

// bestMove returns role's move at the root with its value: a move into a
// solved child with the root's solved value when the root is solved, and
// otherwise the most visited move, or a proved move at least as good.
func (t *tree) bestMove(role int) (game.Move, float64) {
	if t.root == none {
		return game.NoMove, -1
	}
	nd := &t.nodes[t.root]
	if nd.moves == nil {
		return game.NoMove, -1
	}
	if nd.solved && nd.chooser == role {
		if i := t.bestProved(nd, role); i >= 0 {
			return nd.moves[role][i], nd.value[role]
		}
	}
	// The most visited move into an unsolved child (ties to the higher
	// mean), unless a solved move secures at least its mean: solved moves
	// stop being visited once proved, so visits do not rank them.
	k := len(nd.moves[role])
	best, bestN, bestMean := -1, int64(-1), -1.0
	solvedBest, solvedV := -1, -1.0
	for i := 0; i < k; i++ {
		if ch := t.childOf(nd, role, i); ch != none && t.nodes[ch].solved {
			if v := t.nodes[ch].value[role]; v > solvedV {
				solvedBest, solvedV = i, v
			}
			continue
		}
		n, mean := nd.n[role][i], -1.0
		if n > 0 {
			mean = nd.w[role][i] / float64(n)
		}
		if n > bestN || (n == bestN && mean > bestMean) {
			best, bestN, bestMean = i, n, mean
		}
	}
	if solvedBest >= 0 && (best < 0 || solvedV >= bestMean) {
		return nd.moves[role][solvedBest], solvedV
	}
	if best < 0 {
		return game.NoMove, -1
	}
	return nd.moves[role][best], bestMean
}
