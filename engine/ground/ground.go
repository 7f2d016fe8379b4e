package ground

import (
	"context"
	"fmt"
	"gdlab/engine/gdl/compat"
	"slices"
	"time"

	"gdlab/engine/gdl"
	"gdlab/engine/logic"
)

// Default bounds of a grounding.
const (
	// DefaultMaxSize bounds the ground atoms (static facts included) plus
	// ground rules; it keeps a grounding within a few hundred megabytes.
	DefaultMaxSize = 4_000_000
	// DefaultMaxWork bounds the join steps, so that a grounding whose joins
	// explode fails within seconds even when few of them succeed.
	DefaultMaxWork = 200_000_000
)

// Options bound a grounding. The zero value gives the defaults.
type Options struct {
	MaxSize int   // ground atoms plus ground rules; 0 means DefaultMaxSize
	MaxWork int64 // join steps; 0 means DefaultMaxWork
	// NoDecompose keeps every rule whole instead of splitting off the
	// literals over variables the head does not mention (see decompose.go).
	NoDecompose bool
}

// Ground instantiates the rules of d. It evaluates the static relations
// exactly, computes an over-approximation of the atoms of every reachable
// state by evaluating the game with negation of dynamic relations relaxed
// (true may hold what init or next may hold, does what legal may), and
// instantiates every rule over it. It fails with a *LimitError when a bound
// is exceeded, with ctx's error when cancelled, and with positioned errors
// when the rules are unsafe, define true or does, or negate a static
// relation within its own recursion.
func Ground(ctx context.Context, d *gdl.Description, opt Options) (prog *Program, err error) {
	defer func() {
		if r := recover(); r != nil { // a bug here must not take the caller down
			prog, err = nil, fmt.Errorf("ground: internal error: %v", r)
		}
	}()
	start := time.Now()
	lim := limits{size: opt.MaxSize, work: opt.MaxWork}
	if lim.size <= 0 {
		lim.size = DefaultMaxSize
	}
	if lim.work <= 0 {
		lim.work = DefaultMaxWork
	}
	d, _ = compat.Read(d) // the reading a game is played by
	p, err := compile(d, lim.size)
	if err != nil {
		return nil, err
	}
	deps := logic.Dependencies(p) // before the state rules tie next to true
	p.addStateRules()
	order, err := p.classify()
	if err != nil {
		return nil, err
	}
	if err := p.checkStratified(d, deps); err != nil {
		return nil, err
	}
	g := &grounder{p: p, e: &evaluator{Bindings: logic.Bindings{Terms: p.terms}, p: p, pl: planner{p}, ctx: ctx, lim: lim,
		deltaLo: make([]int, len(p.rels)), deltaHi: make([]int, len(p.rels))}, noDecompose: opt.NoDecompose}
	for _, scc := range order {
		if g.fixpoint(scc); g.e.err != nil {
			return nil, g.e.err
		}
	}
	prog, err = g.instantiate(order)
	if err != nil {
		return nil, err
	}
	prog.Stats.Work = g.e.work
	prog.Stats.Size = g.e.size
	prog.Stats.Time = time.Since(start)
	return prog, nil
}

// grounder carries one grounding from the fixpoint to the Program.
type grounder struct {
	p       *program
	e       *evaluator
	rules   ruleSet
	aux     int   // auxiliary relations made so far
	auxRels []int // and which they are
	// noDecompose turns decomposition off (Options.NoDecompose).
	noDecompose bool
}

// fixpoint evaluates one group of mutually recursive relations: exactly
// when static, relaxed when dynamic; semi-naively when recursive.
func (g *grounder) fixpoint(scc []int) {
	e, p := g.e, g.p
	if !g.noDecompose && !p.rels[scc[0]].static {
		// Decompose now, so that the evaluation profits too: whole rules
		// when every relation they read is complete, else the sets of
		// literals linked by variables the head does not mention.
		e.where = "the decomposition of rules"
		if logic.Recursive(p, scc) {
			var restore func()
			scc, restore = g.splitComponents(scc)
			defer restore()
			for len(e.deltaLo) < len(p.rels) {
				e.deltaLo, e.deltaHi = append(e.deltaLo, 0), append(e.deltaHi, 0)
			}
		} else {
			g.decompose(scc)
		}
	}
	e.where = logic.GroupNames(p, scc, groupShown)
	e.emit = e.derive
	before := map[int]int{}
	for _, r := range scc {
		before[r] = p.rels[r].tab.n
	}
	for _, rel := range scc {
		for _, r := range p.rels[rel].rules {
			g.derive(r, -1)
		}
	}
	if !logic.Recursive(p, scc) {
		return
	}
	in := map[int]bool{}
	for _, r := range scc {
		in[r] = true
	}
	for e.err == nil {
		changed := false
		for _, r := range scc {
			e.deltaLo[r], e.deltaHi[r] = before[r], p.rels[r].tab.n
			before[r] = p.rels[r].tab.n
			changed = changed || e.deltaLo[r] < e.deltaHi[r]
		}
		if !changed {
			return
		}
		for _, rel := range scc {
			for _, r := range p.rels[rel].rules {
				for k, l := range r.Body {
					if l.Kind == logic.LitPos && in[l.Rel] && e.deltaLo[l.Rel] < e.deltaHi[l.Rel] {
						g.derive(r, k)
					}
				}
			}
		}
	}
}

// derive evaluates r once (with body literal delta ranging over the last
// round's facts when delta >= 0) and adds the heads it derives.
func (g *grounder) derive(r *logic.Rule, delta int) {
	e := g.e
	e.out, e.nOut = e.out[:0], 0
	e.run(r, e.pl.plan(r, delta)) // planned afresh: the tables grow between rounds
	t := g.p.rels[r.Head].tab
	for i := 0; i < e.nOut && e.err == nil; i++ {
		if _, added := t.add(e.out[i*t.arity : (i+1)*t.arity]); added {
			e.grow(1)
		}
	}
}

// instantiate numbers the dynamic atoms and instantiates every dynamic rule.
func (g *grounder) instantiate(order [][]int) (*Program, error) {
	p := g.p
	prog := &Program{terms: p.terms, rels: map[string][2]int{}}
	for _, id := range column(p.rels[p.rel.Role].tab) {
		prog.RoleTerms = append(prog.RoleTerms, id)
		prog.Roles = append(prog.Roles, p.terms.String(id))
	}
	if len(prog.Roles) == 0 {
		return nil, fmt.Errorf("ground: the game declares no role")
	}
	var dynamic []int
	for _, scc := range order {
		for _, r := range scc {
			rel := p.rels[r]
			if rel.static {
				prog.Stats.StaticFacts += rel.tab.n
				continue
			}
			dynamic = append(dynamic, r)
		}
	}
	if !g.noDecompose {
		var rewrite []int
		for _, r := range dynamic {
			if r != p.rel.True && r != p.rel.Does {
				rewrite = append(rewrite, r)
			}
		}
		g.e.where = "the decomposition of rules"
		g.decompose(rewrite)
		if g.e.err != nil {
			return nil, g.e.err
		}
	}
	for _, a := range g.auxRels {
		if !p.rels[a].static {
			dynamic = append(dynamic, a)
		}
	}
	slices.Sort(dynamic)
	for _, r := range dynamic {
		rel := p.rels[r]
		rel.atom0 = AtomID(len(prog.Atoms))
		prog.rels[logic.Key(rel.name, rel.arity)] = [2]int{len(prog.Atoms), rel.tab.n}
		for i := 0; i < rel.tab.n; i++ {
			prog.Atoms = append(prog.Atoms, Atom{Rel: rel.name, Args: rel.tab.tuple(i)})
		}
	}
	trueTab := p.rels[p.rel.True].tab
	for _, id := range column(p.rels[p.rel.Init].tab) {
		if i := trueTab.find([]Term{id}); i >= 0 {
			prog.Init = append(prog.Init, p.rels[p.rel.True].atom0+AtomID(i))
		}
	}
	g.e.emit = g.emitRule
	g.rules.init()
	for _, r := range dynamic {
		if r == p.rel.True || r == p.rel.Does {
			continue
		}
		g.e.where = "the ground rules of " + p.Key(r)
		for _, ru := range p.rels[r].rules {
			g.e.run(ru, g.e.pl.plan(ru, -1))
			if g.e.err != nil {
				return nil, g.e.err
			}
		}
	}
	prog.Rules = g.rules.rules()
	prog.Stats.Atoms = len(prog.Atoms)
	prog.Stats.Rules = len(prog.Rules)
	prog.Stats.Literals = len(g.rules.lits)
	p.terms.FillText() // TermText only reads from now on: a Program is shared
	return prog, nil
}

// column returns the first argument of every tuple of a unary table.
func column(t *table) []Term {
	out := make([]Term, 0, t.n)
	for i := 0; i < t.n; i++ {
		out = append(out, t.tuple(i)[0])
	}
	return out
}

// emitRule records the ground rule of one complete match.
func (g *grounder) emitRule(r *logic.Rule) {
	p, e := g.p, g.e
	tuple, ok := e.BuildTuple(r.Args, false)
	head := int32(-1)
	if ok {
		head = p.rels[r.Head].tab.find(tuple)
	}
	if head < 0 { // the relaxed fixpoint derived every head it can match
		panic("ground: instantiated head missing from the relaxed model")
	}
	lits := g.rules.scratch[:0]
	nPos := 0
	for k := range r.Body {
		l := &r.Body[k]
		if l.Kind == logic.LitPos && !p.rels[l.Rel].static {
			lits = append(lits, int32(p.rels[l.Rel].atom0)+e.matched[k])
			nPos++
		}
	}
	for k := range r.Body {
		l := &r.Body[k]
		if l.Kind != logic.LitNeg || p.rels[l.Rel].static {
			continue
		}
		if t, ok := e.BuildTuple(l.Args, false); ok {
			if i := p.rels[l.Rel].tab.find(t); i >= 0 {
				lits = append(lits, int32(p.rels[l.Rel].atom0)+i)
			}
		}
	}
	g.rules.scratch = lits
	if g.rules.add(int32(p.rels[r.Head].atom0)+head, lits, nPos) {
		e.grow(1)
	}
}
