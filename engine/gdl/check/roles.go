package check

import "gdlab/engine/gdl"

// checkRoles reports role declarations that are not ground facts naming a
// constant, duplicate roles, and a description with no role at all. Roles
// must be facts because players are told their role before the game starts,
// independently of any state.
func (c *checker) checkRoles() {
	first := map[string]gdl.Pos{}
	declared := false
	for _, r := range c.d.Rules {
		if r.Head.Name != "role" {
			continue
		}
		declared = true
		if len(r.Body) > 0 {
			c.errorf(r.Pos(), "role must be declared by facts, not by a rule with a body")
		}
		if len(r.Head.Args) != 1 {
			continue // checkArities reports it
		}
		name, ok := r.Head.Args[0].(*gdl.Const)
		if !ok {
			c.errorf(r.Head.Args[0].Pos(), "role %s is not a constant: a role must be a constant", shown(r.Head.Args[0]))
			continue
		}
		if p, dup := first[name.Name]; dup && len(r.Body) == 0 {
			c.errorf(name.Pos(), "duplicate role %s (first declared at %s)", clip(name.Name), c.at(p))
			continue
		}
		if len(r.Body) == 0 {
			first[name.Name] = name.Pos()
		}
	}
	if !declared {
		c.errorf(c.start(), "no role declared: a game needs at least one (role name) fact")
	}
}
