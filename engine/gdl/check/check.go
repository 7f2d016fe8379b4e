package check

import (
	"fmt"

	"gdlab/engine/gdl"
)

// Check validates the semantics of d and returns every problem found, sorted
// by position; the list is nil when d is a valid GDL description. It checks:
//
//   - arities: a relation or function name is used with one arity only, and
//     the keywords have theirs (role/1, init/1, true/1, next/1, legal/2,
//     does/2, goal/2, terminal/0, base/1, input/2). A name used both as a
//     relation and as a function or constant is accepted, as ggp-base does;
//   - safety: every variable of a rule's head, of a negated literal and of a
//     distinct occurs in a positive body atom, in every alternative that the
//     rule's `or`s expand into; and `not` applies to atoms only;
//   - stratification: no cycle of the dependency graph contains a negative
//     edge;
//   - the recursion restriction of the GDL specification;
//   - keywords: true and does never in a head; next, init, base and input
//     never in a body; init, base and input independent of true, does, next,
//     legal, goal and terminal; legal, goal and terminal independent of does;
//     role declared only by facts whose argument is a constant;
//   - roles: at least one, and none declared twice.
//
// A nil d gives a single error without a position.
func Check(d *gdl.Description) (errs gdl.ErrorList) {
	if d == nil {
		return gdl.ErrorList{{Msg: "no game description to check"}}
	}
	c := &checker{d: d}
	defer func() {
		// A bug here must not take down a caller that only wanted a list.
		if r := recover(); r != nil {
			c.errs.Add(c.d.Position(c.start()), "internal error in gdl/check: %v", r)
			errs = c.result()
		}
	}()
	c.g = NewGraph(d)
	c.checkArities()
	c.checkRoles()
	c.checkKeywordPlacement()
	for _, r := range d.Rules {
		c.checkSafety(r)
		c.checkNegations(r)
		c.checkRecursion(r)
	}
	c.checkStratification()
	c.checkKeywordDependencies()
	return c.result()
}

// checker carries one run of Check.
type checker struct {
	d    *gdl.Description
	g    *Graph
	errs gdl.ErrorList
}

func (c *checker) errorf(pos gdl.Pos, format string, args ...any) {
	c.errs.Add(c.d.Position(pos), format, args...)
}

// start is the position of the first byte of the file, for problems of the
// whole description.
func (c *checker) start() gdl.Pos { return c.d.File.Pos(0) }

// at formats a position as line:col for messages that point elsewhere.
func (c *checker) at(pos gdl.Pos) string {
	p := c.d.Position(pos)
	return fmt.Sprintf("%d:%d", p.Line, p.Column)
}

func (c *checker) result() gdl.ErrorList {
	if len(c.errs) == 0 {
		return nil
	}
	c.errs.Sort()
	return c.errs
}

// ruleName names a rule in messages by its head relation.
func ruleName(r *gdl.Rule) string {
	if len(r.Body) == 0 {
		return "fact " + clip(Key(r.Head))
	}
	return "rule for " + clip(Key(r.Head))
}
