package check

import (
	"strconv"
	"strings"

	"gdlab/engine/gdl"
)

// checkRecursion enforces the recursion restriction of the GDL
// specification, which keeps the set of derivable facts finite although
// terms can nest. For a rule with head p(t1..tn) and a positive body literal
// q(v1..vk) with q in the same strongly connected component as p, every vj
// must be
//
//  1. ground, or
//  2. one of the head arguments t1..tn, or
//  3. a term occurring in a positive body literal whose relation is not in
//     that component.
//
// Clause 2 compares whole arguments: a variable nested inside a head
// argument does not count, or (<= (nat (s ?x)) (nat ?x)) would pass and
// derive infinitely many facts. Clause 3 accepts any occurrence, at any
// depth, since every term of a non-recursive relation comes from a finite
// set. As for safety, `or` is read as the expansion into alternatives: a
// literal of clause 3 must occur in every alternative holding the recursive
// literal, so it must be always present in another top-level conjunct. The
// conjunct holding the recursive literal anchors nothing in the alternatives
// that choose it, so the anchors of every conjunct can be pooled.
func (c *checker) checkRecursion(r *gdl.Rule) {
	head := Key(r.Head)
	if !c.g.Recursive(head) {
		return
	}
	comp := c.g.Component(head)
	in := &interner{ids: map[string]int{}}
	heads := map[int]bool{}
	for _, t := range r.Head.Args {
		heads[in.id(t, nil)] = true
	}
	anchored := map[int]bool{}
	for _, l := range r.Body {
		for t := range c.anchorsAlways(l, comp, in) {
			anchored[t] = true
		}
	}
	var name string
	for _, l := range r.Body {
		eachAtom(l, false, func(a *gdl.Atom, neg bool) {
			if neg || c.g.Component(Key(a)) != comp {
				return
			}
			for _, t := range a.Args {
				if gdl.IsGround(t) {
					continue
				}
				if id := in.id(t, nil); heads[id] || anchored[id] {
					continue
				}
				if name == "" {
					name = ruleName(r)
				}
				c.errorf(t.Pos(), "recursion restriction violated in %s: argument %s of recursive literal %s is not ground, not an argument of the head, and not in a positive literal of a relation outside the cycle",
					name, shown(t), shown(a))
			}
		})
	}
}

// anchorsAlways returns the terms (as interned numbers) that occur, at any
// depth, in positive atoms of relations outside component comp, in every
// alternative of l.
func (c *checker) anchorsAlways(l gdl.Literal, comp int, in *interner) map[int]bool {
	switch l := l.(type) {
	case *gdl.Atom:
		if c.g.Component(Key(l)) == comp {
			return nil
		}
		set := map[int]bool{}
		for _, t := range l.Args {
			in.id(t, func(id int) { set[id] = true })
		}
		return set
	case *gdl.Or:
		var set map[int]bool
		for i, a := range l.Args {
			s := c.anchorsAlways(a, comp, in)
			if i == 0 {
				set = s
				continue
			}
			for t := range set {
				if !s[t] {
					delete(set, t)
				}
			}
		}
		return set
	}
	return nil
}

// interner numbers terms so that equal terms get equal numbers. Comparing
// canonical strings instead would cost time quadratic in the nesting of a
// term, since each subterm's string repeats those below it.
type interner struct {
	ids map[string]int
}

// id returns the number of t, calling visit (when not nil) with the number
// of every subterm of t, t included.
func (in *interner) id(t gdl.Term, visit func(int)) int {
	var key string
	switch t := t.(type) {
	case *gdl.Const:
		key = "c" + t.Name
	case *gdl.Var:
		key = "v" + t.Name
	case *gdl.Func:
		// Names never hold white space, so the key is unambiguous.
		var b strings.Builder
		b.WriteString("f")
		b.WriteString(t.Name)
		for _, a := range t.Args {
			b.WriteByte(' ')
			b.WriteString(strconv.Itoa(in.id(a, visit)))
		}
		key = b.String()
	}
	id, ok := in.ids[key]
	if !ok {
		id = len(in.ids)
		in.ids[key] = id
	}
	if visit != nil {
		visit(id)
	}
	return id
}
