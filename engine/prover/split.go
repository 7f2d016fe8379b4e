package prover

import "fmt"

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
		in := map[int]bool{}
		for _, r := range scc {
			in[r] = true
		}
		targets := map[int]bool{}
		for _, r := range scc {
			for _, ru := range p.rels[r].rules {
				for _, l := range ru.body {
					if l.kind == litNeg && in[l.rel] {
						targets[l.rel] = true
					}
				}
			}
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
		ru.head = v
		p.rels[v].rules = append(p.rels[v].rules, ru)
	}
	rel.rules = nil
	for _, x := range p.rels {
		var out []*rule
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
			ground = ground && ru.args[pos].kind == patGround
		}
		if ground {
			out = append(out, pos)
		}
	}
	return out
}

func headKey(ru *rule, keyPos []int) []termID {
	key := make([]termID, len(keyPos))
	for i, pos := range keyPos {
		key[i] = ru.args[pos].id
	}
	return key
}

// retarget rewrites the literals of ru that read relation r to read the
// variants that can match them: a positive literal becomes one copy of the
// rule per variant, a negative one a conjunction over the variants.
func (p *program) retarget(ru *rule, r int, variants []int) []*rule {
	out := []*rule{ru}
	for i := range ru.body {
		if ru.body[i].rel != r || (ru.body[i].kind != litPos && ru.body[i].kind != litNeg) {
			continue
		}
		var next []*rule
		for _, cur := range out {
			next = append(next, p.retargetLiteral(cur, i, variants)...)
		}
		out = next
	}
	return out
}

// retargetLiteral rewrites body literal i of ru. Literals are only appended
// or replaced in place, so the indices of earlier literals stay valid.
func (p *program) retargetLiteral(ru *rule, i int, variants []int) []*rule {
	l := ru.body[i]
	var matching []int
	for _, v := range variants {
		if p.mayMatch(l, p.rels[v]) {
			matching = append(matching, v)
		}
	}
	if l.kind == litNeg {
		c := *ru
		c.body = append([]literal(nil), ru.body...)
		if len(matching) == 0 { // nothing can match: the negation always holds
			c.body[i] = literal{kind: litEqual, args: []pattern{{kind: patGround}, {kind: patGround}}, src: l.src}
		} else {
			c.body[i].rel = matching[0]
			for _, v := range matching[1:] {
				extra := l
				extra.rel = v
				c.body = append(c.body, extra)
			}
		}
		return []*rule{&c}
	}
	var out []*rule
	for _, v := range matching {
		c := *ru
		c.body = append([]literal(nil), ru.body...)
		c.body[i].rel = v
		out = append(out, &c)
	}
	return out
}

// mayMatch reports whether l's arguments at the variant's key positions can
// equal its key: only a ground argument can rule a variant out.
func (p *program) mayMatch(l literal, v *relation) bool {
	for i, pos := range v.keyPos {
		if a := l.args[pos]; a.kind == patGround && a.id != v.key[i] {
			return false
		}
	}
	return true
}

// unionRule is r(x1..xn) <= v(x1..xn).
func unionRule(r, v, arity int) *rule {
	args := make([]pattern, arity)
	for i := range args {
		args[i] = pattern{kind: patVar, slot: i}
	}
	ru := &rule{head: r, args: args, slots: arity, body: []literal{{kind: litPos, rel: v, args: args}}}
	setVars(&ru.body[0])
	return ru
}
