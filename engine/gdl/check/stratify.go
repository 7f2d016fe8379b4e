package check

import (
	"fmt"
	"strings"
)

// exactCycles bounds the size of a component in whose errors the cycle is
// spelt out. Finding a shortest cycle costs a search per negative edge, and
// in a large component (which only hostile input has) the cycles are long
// enough to make the list quadratic; there the error names the edge and the
// size of the component instead.
const exactCycles = 64

// checkStratification reports every negative edge that lies on a cycle of
// the dependency graph: such rules have no stratified model, since whether
// the negated relation holds depends on the relation that negates it. Each
// error names a shortest cycle through the edge and points at the negated
// literal.
func (c *checker) checkStratification() {
	for _, e := range c.g.Edges {
		comp := c.g.Component(e.From)
		if !e.Negative || comp != c.g.Component(e.To) {
			continue
		}
		var cycle string
		switch {
		case e.From == e.To:
			cycle = chain([]string{e.From, "not " + e.To, e.From})
		case len(c.g.SCCs[comp]) <= exactCycles:
			back := c.g.path(e.To, func(k string) bool { return k == e.From },
				func(k string) bool { return c.g.Component(k) == comp })
			cycle = chain(append([]string{e.From, "not " + e.To}, back[1:]...))
		default:
			cycle = fmt.Sprintf("%s -> not %s -> ... -> %s, through the %d relations of their component",
				clip(e.From), clip(e.To), clip(e.From), len(c.g.SCCs[comp]))
		}
		c.errorf(e.Pos, "negation in a cycle of the dependency graph: %s; the rules are not stratified", cycle)
	}
}

// chain joins a path of relations with arrows, eliding the middle of a long
// one so that a message stays readable.
func chain(path []string) string {
	const head, tail = 6, 4
	if len(path) <= head+tail+2 {
		return strings.Join(clipAll(path), " -> ")
	}
	mid := fmt.Sprintf("... %d more ...", len(path)-head-tail)
	parts := append(append(append([]string{}, path[:head]...), mid), path[len(path)-tail:]...)
	return strings.Join(clipAll(parts), " -> ")
}

// clipAll clips every name of a path.
func clipAll(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = clip(n)
	}
	return out
}
