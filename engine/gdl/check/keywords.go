package check

import (
	"strings"

	"gdlab/engine/gdl"
)

// checkKeywordPlacement reports keywords on the wrong side of a rule: true
// and does are given by the state and the moves, so no rule may define them;
// next, init, base and input define the game, so no rule may depend on them.
func (c *checker) checkKeywordPlacement() {
	for _, r := range c.d.Rules {
		switch r.Head.Name {
		case "true":
			c.errorf(r.Head.Pos(), "true cannot be the head of a rule or fact: it is given by the current state")
		case "does":
			c.errorf(r.Head.Pos(), "does cannot be the head of a rule or fact: it is given by the moves played")
		}
		for _, l := range r.Body {
			eachAtom(l, false, func(a *gdl.Atom, _ bool) {
				switch a.Name {
				case "next", "init", "base", "input":
					c.errorf(a.Pos(), "%s cannot appear in a rule body: it may only be the head of a rule or fact", a.Name)
				}
			})
		}
	}
}

// stateless are the relations that describe the game before any state
// exists, and the relations they must therefore not depend on.
var (
	stateless     = []string{"init", "base", "input"}
	stateful      = map[string]bool{"true": true, "does": true, "next": true, "legal": true, "goal": true, "terminal": true}
	moveless      = []string{"legal", "goal", "terminal"}
	moveDependent = map[string]bool{"does": true}
)

// checkKeywordDependencies reports init, base and input depending on the
// state or the game's dynamics, and legal, goal and terminal depending on the
// moves being played, each once, through the shortest offending path. Role is
// not checked here: it may not have a body at all (checkRoles).
func (c *checker) checkKeywordDependencies() {
	c.forbidPaths(stateless, stateful,
		"%s depends on %s (%s), but init, base and input may not depend on true, does, next, legal, goal or terminal")
	c.forbidPaths(moveless, moveDependent,
		"%s depends on %s (%s), but legal, goal and terminal may not depend on does")
}

// forbidPaths reports, for every relation named in from, a shortest path to
// a relation named in to, at the body literal where the path starts.
func (c *checker) forbidPaths(from []string, to map[string]bool, format string) {
	isFrom := map[string]bool{}
	for _, n := range from {
		isFrom[n] = true
	}
	bad := func(k string) bool { return to[relationName(k)] }
	all := func(string) bool { return true }
	for _, k := range c.g.Relations {
		if !isFrom[relationName(k)] {
			continue
		}
		p := c.g.path(k, bad, all)
		if p == nil {
			continue
		}
		e, _ := c.g.edge(p[0], p[1])
		c.errorf(e.Pos, format, clip(k), clip(p[len(p)-1]), chain(p))
	}
}

// relationName returns the name part of a relation key.
func relationName(key string) string {
	return key[:strings.LastIndexByte(key, '/')]
}
