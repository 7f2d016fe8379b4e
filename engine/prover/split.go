package prover

import (
	"fmt"

	"gdlab/engine/logic"
)

// Some games negate a relation inside its own definition, relating facts
// that differ in a constant argument:
//
//	(<= (goal ?r 0) (not (goal ?r 100)))
//
// GDL's stratification, defined on relation names, rejects this, but the
// program is locally stratified and ggp-base plays it. splitCycles makes such
// programs stratifiable by splitting a relation into one variant per value of
// the arguments that are constant in every rule head (goal@0, goal@100, ...),
// pointing each literal at the variants it can match, and defining the
// relation itself as the union of its variants. The model is unchanged.

// splitCycles splits the targets of negative literals in the recursive groups
// listed, and reports whether it split anything.
func (p *program) splitCycles(groups [][]int) bool {
	split := false
	for _, scc := range groups {
		targets := map[int]bool{}
		for _, c := range logic.NegativeCycles(p, scc) {
			targets[c.Lit.Rel] = true
		}
		for r := range targets {
			split = p.split(r) || split
		}
	}
	return split
}

// split splits relation r by the arguments that are ground in all its rule
// heads; it reports false when there is no such argument.
func (p *program) split(r int) bool {
	rel := p.rels[r]
	keyPos := groundHeadPositions(rel)
	if len(keyPos) == 0 || len(rel.rules) == 0 {
		return false
	}
	variants := map[string]int{}
	var order []int
	for _, ru := range rel.rules {
		key := fmt.Sprint(headKey(ru, keyPos))
		v, ok := variants[key]
		if !ok {
			v = len(p.rels)
			p.rels = append(p.rels, &relation{name: rel.name, arity: rel.arity, key: headKey(ru, keyPos), keyPos: keyPos})
			variants[key] = v
			order = append(order, v)
		}
		ru.Head = v
		p.rels[v].rules = append(p.rels[v].rules, ru)
	}
	rel.rules = nil
	for _, x := range p.rels {
		var out []*logic.Rule
		for _, ru := range x.rules {
			out = append(out, p.retarget(ru, r, order)...)
		}
		x.rules = out
	}
	for _, v := range order {
		rel.rules = append(rel.rules, unionRule(r, v, rel.arity))
	}
	return true
}

func groundHeadPositions(rel *relation) []int {
	var out []int
	for pos := 0; pos < rel.arity; pos++ {
		ground := true
		for _, ru := range rel.rules {
			ground = ground && ru.Args[pos].Kind == logic.PatGround
		}
		if ground {
			out = append(out, pos)
		}
	}
	return out
}

func headKey(ru *logic.Rule, keyPos []int) []logic.Term {
	key := make([]logic.Term, len(keyPos))
	for i, pos := range keyPos {
		key[i] = ru.Args[pos].ID
	}
	return key
}

// retarget rewrites the literals of ru that read relation r to read the
// variants that can match them: a positive literal becomes one copy of the
// rule per variant, a negative one a conjunction over the variants.
func (p *program) retarget(ru *logic.Rule, r int, variants []int) []*logic.Rule {
	out := []*logic.Rule{ru}
	for i := range ru.Body {
		if ru.Body[i].Rel != r || (ru.Body[i].Kind != logic.LitPos && ru.Body[i].Kind != logic.LitNeg) {
			continue
		}
		var next []*logic.Rule
		for _, cur := range out {
			next = append(next, p.retargetLiteral(cur, i, variants)...)
		}
		out = next
	}
	return out
}

// retargetLiteral rewrites body literal i of ru. Literals are only appended
// or replaced in place, so the indices of earlier literals stay valid.
func (p *program) retargetLiteral(ru *logic.Rule, i int, variants []int) []*logic.Rule {
	l := ru.Body[i]
	var matching []int
	for _, v := range variants {
		if p.mayMatch(l, p.rels[v]) {
			matching = append(matching, v)
		}
	}
	if l.Kind == logic.LitNeg {
		c := *ru
		c.Body = append([]logic.Literal(nil), ru.Body...)
		if len(matching) == 0 { // nothing can match: the negation always holds
			c.Body[i] = logic.Literal{Kind: logic.LitEqual, Args: []logic.Pattern{{Kind: logic.PatGround}, {Kind: logic.PatGround}}, Src: l.Src}
		} else {
			c.Body[i].Rel = matching[0]
			for _, v := range matching[1:] {
				extra := l
				extra.Rel = v
				c.Body = append(c.Body, extra)
			}
		}
		return []*logic.Rule{&c}
	}
	var out []*logic.Rule
	for _, v := range matching {
		c := *ru
		c.Body = append([]logic.Literal(nil), ru.Body...)
		c.Body[i].Rel = v
		out = append(out, &c)
	}
	return out
}

// mayMatch reports whether l's arguments at the variant's key positions can
// equal its key: only a ground argument can rule a variant out.
func (p *program) mayMatch(l logic.Literal, v *relation) bool {
	for i, pos := range v.keyPos {
		if a := l.Args[pos]; a.Kind == logic.PatGround && a.ID != v.key[i] {
			return false
		}
	}
	return true
}

// unionRule is r(x1..xn) <= v(x1..xn).
func unionRule(r, v, arity int) *logic.Rule {
	args := make([]logic.Pattern, arity)
	for i := range args {
		args[i] = logic.Pattern{Kind: logic.PatVar, Slot: i}
	}
	ru := &logic.Rule{Head: r, Args: args, Slots: arity, Body: []logic.Literal{{Kind: logic.LitPos, Rel: v, Args: args}}}
	ru.Body[0].SetVars()
	return ru
}
