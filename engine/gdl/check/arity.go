package check

import (
	"strconv"

	"gdlab/engine/gdl"
)

// keywordArity gives the fixed arity of each GDL keyword relation.
var keywordArity = map[string]int{
	"role": 1, "init": 1, "true": 1, "next": 1, "legal": 2,
	"does": 2, "goal": 2, "terminal": 0, "base": 1, "input": 2,
}

// firstUse records the arity a name was first used with, and where.
type firstUse struct {
	arity int
	pos   gdl.Pos
}

// arities tracks the arities of one kind of symbol (relations or functions).
// It reports a name once per conflicting arity, at that arity's first use,
// so that one slip does not bury the other messages.
type arities struct {
	kind     string // "relation" or "function"
	first    map[string]firstUse
	reported map[string]bool // keys name/arity already reported
}

func newArities(kind string) *arities {
	return &arities{kind: kind, first: map[string]firstUse{}, reported: map[string]bool{}}
}

func (a *arities) use(c *checker, name string, arity int, pos gdl.Pos) {
	f, ok := a.first[name]
	if !ok {
		a.first[name] = firstUse{arity, pos}
		return
	}
	k := RelationKey(name, arity)
	if f.arity == arity || a.reported[k] {
		return
	}
	a.reported[k] = true
	c.errorf(pos, "%s %s is used with %s here and with %s at %s",
		a.kind, clip(name), plural(arity, "argument"), plural(f.arity, "argument"), c.at(f.pos))
}

// checkArities reports relations and functions used with more than one
// arity, and keywords used with the wrong one. Constants are not compared
// with functions of the same name: ggp-base accepts both uses.
func (c *checker) checkArities() {
	rels, funcs := newArities("relation"), newArities("function")
	atom := func(a *gdl.Atom) {
		if want, ok := keywordArity[a.Name]; ok {
			if len(a.Args) != want {
				c.errorf(a.Pos(), "%s takes %s, not %d", a.Name, plural(want, "argument"), len(a.Args))
			}
		} else {
			rels.use(c, a.Name, len(a.Args), a.Pos())
		}
		for _, t := range a.Args {
			eachFunc(t, func(f *gdl.Func) { funcs.use(c, f.Name, len(f.Args), f.Pos()) })
		}
	}
	for _, r := range c.d.Rules {
		atom(r.Head)
		for _, l := range r.Body {
			eachLiteral(l, func(l gdl.Literal) {
				switch l := l.(type) {
				case *gdl.Atom:
					atom(l)
				case *gdl.Distinct:
					eachFunc(l.A, func(f *gdl.Func) { funcs.use(c, f.Name, len(f.Args), f.Pos()) })
					eachFunc(l.B, func(f *gdl.Func) { funcs.use(c, f.Name, len(f.Args), f.Pos()) })
				}
			})
		}
	}
}

// eachFunc calls fn for every function term in t, outermost first.
func eachFunc(t gdl.Term, fn func(*gdl.Func)) {
	if f, ok := t.(*gdl.Func); ok {
		fn(f)
		for _, a := range f.Args {
			eachFunc(a, fn)
		}
	}
}

// plural formats a count of things: "no arguments", "1 argument", "2 arguments".
func plural(n int, thing string) string {
	switch n {
	case 0:
		return "no " + thing + "s"
	case 1:
		return "1 " + thing
	}
	return strconv.Itoa(n) + " " + thing + "s"
}

// eachLiteral calls fn for l and for every literal nested in it, outermost
// first, in source order.
func eachLiteral(l gdl.Literal, fn func(gdl.Literal)) {
	fn(l)
	switch l := l.(type) {
	case *gdl.Not:
		eachLiteral(l.Arg, fn)
	case *gdl.Or:
		for _, a := range l.Args {
			eachLiteral(a, fn)
		}
	}
}
