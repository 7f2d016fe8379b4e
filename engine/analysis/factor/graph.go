package factor

import (
	"context"
	"slices"

	"gdlab/engine/analysis/internal/circuit"
	"gdlab/engine/game"
)

// graph is the dependency graph of the base and input propositions
// through the next and legal logic. Inputs are numbered over all roles in
// role order, as the circuit numbers them.
type graph struct {
	c         *circuit.Circuit
	off       []int   // role -> its first input; off[len(roles)] = inputs
	nextBases [][]int // per base: the bases next(b) reads
	nextMoves [][]int // per base: the inputs next(b) reads
	enablers  [][]int // per input: the bases its legality reads
	effects   [][]int // per input: the bases it can change
	// conjuncts lists per input the conjuncts of its legality (ANDs
	// flattened, negations pushed in), each as the bases it reads.
	conjuncts [][][]int
	context   []bool // per base: set apart as context
}

// readGraph walks the supports of every next and legal output and tests
// which moves can change what they read.
func readGraph(ctx context.Context, c *circuit.Circuit, moves [][]string, opt Options) (*graph, error) {
	g := &graph{c: c}
	n := 0
	for _, ms := range moves {
		g.off = append(g.off, n)
		n += len(ms)
	}
	g.off = append(g.off, n)
	w := circuit.NewWalker(c)
	nb := len(c.Next)
	g.nextBases = make([][]int, nb)
	g.nextMoves = make([][]int, nb)
	for b := 0; b < nb; b++ {
		if b&15 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		w.Support([]circuit.Lit{c.Next[b]},
			func(q int) { g.nextBases[b] = append(g.nextBases[b], q) },
			func(i int) { g.nextMoves[b] = append(g.nextMoves[b], i) })
		slices.Sort(g.nextBases[b])
		slices.Sort(g.nextMoves[b])
	}
	g.enablers = make([][]int, n)
	g.conjuncts = make([][][]int, n)
	for i := 0; i < n && i < len(c.Legal); i++ {
		if i&255 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		w.Support(c.Legal[i], func(q int) { g.enablers[i] = append(g.enablers[i], q) }, func(int) {})
		slices.Sort(g.enablers[i])
		for _, l := range conjuncts(c, c.Legal[i]) {
			var bs []int
			w.Support([]circuit.Lit{l}, func(q int) { bs = append(bs, q) }, func(int) {})
			g.conjuncts[i] = append(g.conjuncts[i], bs)
		}
	}
	g.markContext(opt.NoContext)
	if err := g.findEffects(ctx, opt.NoKeepTest); err != nil {
		return nil, err
	}
	return g, nil
}

// markContext sets apart the largest set of base propositions whose next
// values read no input and no base outside the set: they evolve the same
// whatever is played. Without it (off), nothing is context.
func (g *graph) markContext(off bool) {
	nb := len(g.nextBases)
	g.context = make([]bool, nb)
	if off {
		return
	}
	for b := range g.context {
		g.context[b] = len(g.nextMoves[b]) == 0
	}
	for changed := true; changed; {
		changed = false
		for b := range g.context {
			if !g.context[b] {
				continue
			}
			for _, q := range g.nextBases[b] {
				if !g.context[q] {
					g.context[b], changed = false, true
					break
				}
			}
		}
	}
}

func (g *graph) contextList() []int {
	var out []int
	for b, c := range g.context {
		if c {
			out = append(out, b)
		}
	}
	return out
}

// findEffects lists per input the base propositions it can change: those
// whose next output reads it, less (unless off) those it provably leaves
// as they were. The proof is the move-distance metric's: three-valued
// evaluation of next(p) with the move played (its role's only input on,
// every other input off) and every base but p unknown gives p back for
// both values of p. A frame rule may also keep p when "some other move"
// is played, reading every move of a role but the one that changes p;
// when some move of a role provably keeps p and the role playing none of
// the moves next(p) reads does not, each of those unread moves changes p
// by not being one of them.
func (g *graph) findEffects(ctx context.Context, off bool) error {
	n := g.off[len(g.off)-1]
	g.effects = make([][]int, n)
	ev := circuit.NewEvaluator(g.c)
	ev.Inputs = make([]circuit.Value, n) // all off
	for b, ins := range g.nextMoves {
		if err := ctx.Err(); err != nil {
			return err
		}
		if off {
			for _, i := range ins {
				g.effects[i] = append(g.effects[i], b)
			}
			continue
		}
		kept := make([]bool, len(g.off)-1) // per role: some move read keeps b
		for j, i := range ins {
			if j&63 == 63 { // one next output may read thousands of moves
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			if g.keeps(ev, i, b) {
				r, _ := g.move(i)
				kept[r] = true
				continue
			}
			g.effects[i] = append(g.effects[i], b)
		}
		g.absentEffects(ev, b, ins, kept)
		g.jointEffects(ev, b, ins)
	}
	for i := range g.effects {
		slices.Sort(g.effects[i])
		g.effects[i] = slices.Compact(g.effects[i])
	}
	return nil
}

// jointLimit bounds the evaluations of the joint-move test for one pair of
// roles at one base; past it, every move of the role that next(b) reads is
// taken to change b. The role's unread moves are not added, so this is not
// a superset of what the full test would find; Verify checks the result.
const jointLimit = 1 << 14

// jointEffects finds the moves that change base b only together with
// another role's move, which the test of a move played alone (every other
// input off) cannot see: two robots stepping into one cell. For each role
// r and each move j that next(b) reads of another role q, it evaluates
// next(b) with q playing j and r playing each of its moves that next(b)
// reads, or none of them. A move of r whose outcome differs from playing
// none and does not keep b changes b (where every outcome is the same,
// whatever b does is j's doing); playing none that does not keep b, where
// some read move keeps it, stands for r's unread moves changing b, as in
// absentEffects. The other
// roles play moves next(b) does not read. Three-valued outcomes are
// compared as values, so two unknowns count as agreeing: the simulation
// check (Verify) covers what this cannot prove.
func (g *graph) jointEffects(ev *circuit.Evaluator, b int, ins []int) {
	byRole := make([][]int, len(g.off)-1)
	for _, i := range ins {
		r, _ := g.move(i)
		byRole[r] = append(byRole[r], i)
	}
	for r, mine := range byRole {
		for q, theirs := range byRole {
			if q == r || len(mine) == 0 || len(theirs) == 0 {
				continue
			}
			if (len(mine)+1)*len(theirs) > jointLimit {
				for _, i := range mine {
					g.effects[i] = append(g.effects[i], b)
				}
				continue
			}
			for _, j := range theirs {
				g.jointWith(ev, b, r, mine, ins, j)
			}
		}
	}
}

// jointWith applies jointEffects' test to role r's moves mine with
// another role's move j played.
func (g *graph) jointWith(ev *circuit.Evaluator, b, r int, mine, ins []int, j int) {
	ev.Inputs[j] = circuit.True
	defer func() { ev.Inputs[j] = circuit.False }()
	none := g.outcome(ev, -1, b)
	someKeeps := false
	for _, i := range mine {
		out := g.outcome(ev, i, b)
		if out != none && out != kept {
			g.effects[i] = append(g.effects[i], b)
		}
		someKeeps = someKeeps || out == kept
	}
	if none != kept && someKeeps {
		for i := g.off[r]; i < g.off[r+1]; i++ {
			if _, read := slices.BinarySearch(ins, i); !read {
				g.effects[i] = append(g.effects[i], b)
			}
		}
	}
}

// outcome is next(b)'s value with b true and with b false, input i on
// (-1: none more than the evaluator's inputs already set).
func (g *graph) outcome(ev *circuit.Evaluator, i, b int) [2]circuit.Value {
	if i >= 0 {
		ev.Inputs[i] = circuit.True
		defer func() { ev.Inputs[i] = circuit.False }()
	}
	l := g.c.Next[b]
	return [2]circuit.Value{ev.With(l, []int{b}, []bool{true}), ev.With(l, []int{b}, []bool{false})}
}

// absentEffects adds b to the effects of every move of a role that next(b)
// does not read, when a move it reads keeps b and playing none of them
// does not.
func (g *graph) absentEffects(ev *circuit.Evaluator, b int, ins []int, kept []bool) {
	for r, k := range kept {
		if !k || g.keeps(ev, -1, b) {
			continue
		}
		for i := g.off[r]; i < g.off[r+1]; i++ {
			if _, read := slices.BinarySearch(ins, i); !read {
				g.effects[i] = append(g.effects[i], b)
			}
		}
	}
}

// keeps reports whether input i, played alone (-1: no input at all),
// provably leaves base b as it was.
func (g *graph) keeps(ev *circuit.Evaluator, i, b int) bool {
	return g.outcome(ev, i, b) == kept
}

// kept is the outcome of a next output that gives its base back.
var kept = [2]circuit.Value{circuit.True, circuit.False}

// move returns the role and move of input i.
func (g *graph) move(i int) (int, game.Move) {
	r := 0
	for r+1 < len(g.off) && g.off[r+1] <= i {
		r++
	}
	return r, game.Move(i - g.off[r])
}

// conjuncts flattens the AND of ls: the literals under nested AND gates
// (an OR negated counts as an AND of the negated inputs).
func conjuncts(c *circuit.Circuit, ls []circuit.Lit) []circuit.Lit {
	var out []circuit.Lit
	stack := slices.Clone(ls)
	for len(stack) > 0 {
		l := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		k, neg, in := c.Node(l)
		if k == circuit.KindAnd && !neg || k == circuit.KindOr && neg {
			for _, x := range in {
				if neg {
					x ^= 1
				}
				stack = append(stack, x)
			}
			continue
		}
		out = append(out, l)
	}
	return out
}
