package pie

import (
	"strings"

	"gdlab/engine/gdl"
)

// requirements returns the two roles of d, in order, and every problem that
// keeps the rules of d from getting a pie-rule variant.
func requirements(d *gdl.Description, opt Options) ([2]string, gdl.ErrorList) {
	var errs gdl.ErrorList
	at := func(p gdl.Pos, format string, args ...any) { errs.Add(d.Position(p), format, args...) }
	if msg := badSymbol(opt.swap()); msg != "" {
		errs.Add(filePos(d), "swap move %q %s", opt.swap(), msg)
	}
	roles := declaredRoles(d, at)
	for _, r := range d.Rules {
		switch r.Head.Name {
		case "sees":
			at(r.Pos(), "sees rule: GDL-II games have no pie-rule variant here")
		case "next":
			if r.Head.Arity() == 1 && isVar(r.Head.Args[0]) {
				at(r.Pos(), "next of a bare variable: the swap must know the kinds of fact it carries over")
			}
		}
	}
	if p, ok := firstUse(d, opt.swap()); ok {
		at(p, "%s already occurs in the rules: a swap move would be ambiguous (choose another swap move)", opt.swap())
	}
	if len(roles) != 2 {
		return [2]string{}, roleCountError(d, roles, errs)
	}
	return [2]string{roles[0].name, roles[1].name}, errs
}

func isVar(t gdl.Term) bool {
	_, ok := t.(*gdl.Var)
	return ok
}

// firstUse returns the position of the first use of the symbol name in d.
func firstUse(d *gdl.Description, name string) (gdl.Pos, bool) {
	var at gdl.Pos
	found := false
	eachSymbol(d, func(s string, p gdl.Pos) {
		if s == name && !found {
			at, found = p, true
		}
	})
	return at, found
}

// role is one (role NAME) declaration.
type role struct {
	name string
	pos  gdl.Pos
}

// declaredRoles returns the distinct roles declared as facts, reporting
// roles declared any other way.
func declaredRoles(d *gdl.Description, at func(gdl.Pos, string, ...any)) []role {
	var out []role
	for _, r := range d.Rules {
		if r.Head.Name != "role" {
			continue
		}
		c, ok := roleName(r)
		switch {
		case !ok:
			at(r.Pos(), "role not declared as a fact (role NAME): the roles must be known without reasoning")
		case c.Name == "random":
			at(r.Pos(), "role random: games with chance have no pie-rule variant here")
		case !hasRole(out, c.Name):
			out = append(out, role{c.Name, r.Pos()})
		}
	}
	return out
}

func roleName(r *gdl.Rule) (*gdl.Const, bool) {
	if len(r.Body) > 0 || r.Head.Arity() != 1 {
		return nil, false
	}
	c, ok := r.Head.Args[0].(*gdl.Const)
	return c, ok
}

func hasRole(rs []role, name string) bool {
	for _, r := range rs {
		if r.name == name {
			return true
		}
	}
	return false
}

// roleCountError adds the error for a game without exactly two roles,
// positioned at the third role, or at the only one, or at the file.
func roleCountError(d *gdl.Description, roles []role, errs gdl.ErrorList) gdl.ErrorList {
	pos := filePos(d)
	if len(roles) > 0 {
		pos = d.Position(roles[min(2, len(roles)-1)].pos)
	}
	errs.Add(pos, "the pie rule needs exactly two roles; the game has %d", len(roles))
	return errs
}

// badSymbol says why s cannot be written as a GDL constant, or returns "".
func badSymbol(s string) string {
	switch {
	case strings.HasPrefix(s, "?"):
		return "is a variable, not a constant"
	case strings.ContainsAny(s, "() \t\r\n;"):
		return "is not a single symbol"
	}
	return ""
}

// eachSymbol calls fn with every relation, function and constant name of
// d and its position.
func eachSymbol(d *gdl.Description, fn func(name string, p gdl.Pos)) {
	for _, r := range d.Rules {
		eachAtomSymbol(r.Head, fn)
		for _, l := range r.Body {
			eachLiteralSymbol(l, fn)
		}
	}
}

func eachLiteralSymbol(l gdl.Literal, fn func(string, gdl.Pos)) {
	switch l := l.(type) {
	case *gdl.Atom:
		eachAtomSymbol(l, fn)
	case *gdl.Not:
		eachLiteralSymbol(l.Arg, fn)
	case *gdl.Or:
		for _, a := range l.Args {
			eachLiteralSymbol(a, fn)
		}
	case *gdl.Distinct:
		eachTermSymbol(l.A, fn)
		eachTermSymbol(l.B, fn)
	}
}

func eachAtomSymbol(a *gdl.Atom, fn func(string, gdl.Pos)) {
	fn(a.Name, a.NamePos)
	for _, t := range a.Args {
		eachTermSymbol(t, fn)
	}
}

func eachTermSymbol(t gdl.Term, fn func(string, gdl.Pos)) {
	switch t := t.(type) {
	case *gdl.Const:
		fn(t.Name, t.NamePos)
	case *gdl.Func:
		fn(t.Name, t.Lparen)
		for _, a := range t.Args {
			eachTermSymbol(a, fn)
		}
	}
}

// filePos is the position of d's file as a whole.
func filePos(d *gdl.Description) gdl.Position {
	if d.File == nil {
		return gdl.Position{}
	}
	return gdl.Position{Filename: d.File.Name()}
}
