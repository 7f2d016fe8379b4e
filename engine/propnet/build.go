package propnet

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strconv"

	"gdlab/engine/ground"
)

// meta is what the network means: the names of its roles, facts and moves.
type meta struct {
	roles    []string
	facts    []string           // base index -> canonical fact text, sorted
	factIdx  map[string]int32   // fact text -> base index
	moves    [][]string         // role -> move index -> canonical move text, sorted
	moveIdx  []map[string]int32 // role -> move text -> move index
	inputOff []int32            // role -> index of its first input proposition
}

// fromProgram turns a ground program into a graph: a base node per true
// atom, an input node per legal move, an AND per ground rule and an OR per
// derived atom.
func fromProgram(ctx context.Context, p *ground.Program) (*graph, *meta, error) {
	// An AND per rule and at most an OR per atom, reserved up front.
	b := &builder{p: p, g: &graph{nodes: make([]gnode, 0, 1+len(p.Atoms)+len(p.Rules))}, m: &meta{roles: p.Roles}}
	b.g.add(kConst, nil, 0)
	b.roleIdx = map[ground.Term]int{}
	for i, t := range p.RoleTerms {
		b.roleIdx[t] = i
	}
	b.atomLit = make([]lit, len(p.Atoms))
	for i := range b.atomLit {
		b.atomLit[i] = -1
	}
	b.rulesOf = make([][]int32, len(p.Atoms))
	for i, r := range p.Rules {
		b.rulesOf[r.Head] = append(b.rulesOf[r.Head], int32(i))
	}
	b.bases()
	b.moves()
	if err := b.derived(ctx); err != nil {
		return nil, nil, err
	}
	b.outputs()
	return b.g, b.m, nil
}

type builder struct {
	p       *ground.Program
	g       *graph
	m       *meta
	roleIdx map[ground.Term]int
	atomLit []lit     // AtomID -> lit, -1 until built
	rulesOf [][]int32 // AtomID -> its rules
	baseOf  map[ground.Term]int32
}

// bases numbers the base propositions in the byte order of their facts.
func (b *builder) bases() {
	atoms := b.p.AtomsOf("true", 1)
	type fact struct {
		atom ground.AtomID
		text string
	}
	fs := make([]fact, len(atoms))
	for i, a := range atoms {
		fs[i] = fact{a, b.p.TermText(b.p.Atoms[a].Args[0])}
	}
	sort.Slice(fs, func(i, j int) bool { return fs[i].text < fs[j].text })
	b.baseOf = map[ground.Term]int32{}
	for i, f := range fs {
		n := b.g.add(kBase, nil, int32(i))
		b.g.bases = append(b.g.bases, n)
		b.m.facts = append(b.m.facts, f.text)
		b.atomLit[f.atom] = mkLit(n, false)
		b.baseOf[b.p.Atoms[f.atom].Args[0]] = int32(i)
	}
}

// moves numbers each role's moves (the moves of its legal atoms) in the
// byte order of their text, and makes an input node for each.
func (b *builder) moves() {
	n := len(b.p.Roles)
	terms := make([][]ground.Term, n)
	for _, a := range b.p.AtomsOf("legal", 2) {
		args := b.p.Atoms[a].Args
		if r, ok := b.roleIdx[args[0]]; ok {
			terms[r] = append(terms[r], args[1])
		}
	}
	b.m.moves = make([][]string, n)
	b.m.moveIdx = make([]map[string]int32, n)
	b.m.inputOff = make([]int32, n+1)
	inputOf := make([]map[ground.Term]int32, n)
	for r := 0; r < n; r++ {
		ts := terms[r]
		slices.SortFunc(ts, func(x, y ground.Term) int { return cmpString(b.p.TermText(x), b.p.TermText(y)) })
		ts = slices.Compact(ts)
		b.m.moveIdx[r] = map[string]int32{}
		inputOf[r] = map[ground.Term]int32{}
		b.m.inputOff[r] = int32(len(b.g.inputs))
		for i, t := range ts {
			text := b.p.TermText(t)
			b.m.moves[r] = append(b.m.moves[r], text)
			b.m.moveIdx[r][text] = int32(i)
			node := b.g.add(kInput, nil, int32(len(b.g.inputs)))
			b.g.inputs = append(b.g.inputs, node)
			inputOf[r][t] = node
		}
	}
	b.m.inputOff[n] = int32(len(b.g.inputs))
	for _, a := range b.p.AtomsOf("does", 2) {
		args := b.p.Atoms[a].Args
		if r, ok := b.roleIdx[args[0]]; ok {
			if node, ok := inputOf[r][args[1]]; ok {
				b.atomLit[a] = mkLit(node, false)
				continue
			}
		}
		b.atomLit[a] = litFalse // a move of no role, or never legal
	}
}

func cmpString(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// derived makes an OR node for every other atom, over an AND node per rule.
// Nodes are made first and wired afterwards, so recursion needs no care here.
func (b *builder) derived(ctx context.Context) error {
	for a := range b.p.Atoms {
		if b.atomLit[a] >= 0 {
			continue
		}
		if len(b.rulesOf[a]) == 0 {
			b.atomLit[a] = litFalse
			continue
		}
		b.g.names = append(b.g.names, b.p.AtomText(ground.AtomID(a)))
		b.atomLit[a] = mkLit(b.g.add(kOr, nil, int32(len(b.g.names))), false)
	}
	for a := range b.p.Atoms {
		if a&0xfff == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		rs := b.rulesOf[a]
		if len(rs) == 0 {
			continue
		}
		or := b.atomLit[a].node()
		in := make([]lit, len(rs))
		for i, ri := range rs {
			in[i] = b.rule(&b.p.Rules[ri])
		}
		b.g.nodes[or].in = in
	}
	return nil
}

// rule returns the lit of a ground rule's body: an AND of its literals.
func (b *builder) rule(r *ground.Rule) lit {
	in := make([]lit, 0, len(r.Pos)+len(r.Neg))
	for _, a := range r.Pos {
		in = append(in, b.atomLit[a])
	}
	for _, a := range r.Neg {
		in = append(in, b.atomLit[a].not())
	}
	return mkLit(b.g.add(kAnd, in, 0), false)
}

// outputs wires the legal, goal, terminal and next outputs.
func (b *builder) outputs() {
	n := len(b.p.Roles)
	g := b.g
	g.legal = make([][]lit, n)
	for r := 0; r < n; r++ {
		g.legal[r] = make([]lit, len(b.m.moves[r]))
	}
	for _, a := range b.p.AtomsOf("legal", 2) {
		args := b.p.Atoms[a].Args
		if r, ok := b.roleIdx[args[0]]; ok {
			m := b.m.moveIdx[r][b.p.TermText(args[1])]
			g.legal[r][m] = b.atomLit[a]
		}
	}
	g.goals = make([][]goalOut, n)
	for _, a := range b.p.AtomsOf("goal", 2) {
		args := b.p.Atoms[a].Args
		if r, ok := b.roleIdx[args[0]]; ok {
			text := b.p.TermText(args[1])
			v, err := strconv.Atoi(text)
			g.goals[r] = append(g.goals[r], goalOut{value: v, text: text, ok: err == nil, l: b.atomLit[a]})
		}
	}
	for r := range g.goals {
		sort.SliceStable(g.goals[r], func(i, j int) bool { return g.goals[r][i].text < g.goals[r][j].text })
	}
	g.terminal = litFalse
	for _, a := range b.p.AtomsOf("terminal", 0) {
		g.terminal = b.atomLit[a]
	}
	g.next = make([]lit, len(g.bases))
	for _, a := range b.p.AtomsOf("next", 1) {
		base, ok := b.baseOf[b.p.Atoms[a].Args[0]]
		if !ok {
			panic(fmt.Sprintf("propnet: next atom %s has no base proposition", b.p.AtomText(ground.AtomID(a))))
		}
		g.next[base] = b.atomLit[a]
	}
}
