package pie

import (
	"fmt"
	"strings"

	"gdlab/engine/gdl"
)

// writer builds the variant of one game.
type writer struct {
	d      *gdl.Description
	roles  [2]string
	swap   string
	prefix string            // starts every name the transform adds
	rename map[string]string // the game's keywords read as relations of sides
}

func newWriter(d *gdl.Description, roles [2]string, swap string) *writer {
	w := &writer{d: d, roles: roles, swap: swap, prefix: freshPrefix(d, swap)}
	// legal, goal, input and does speak of sides in the game's rules; the
	// variant defines the players' versions through plays.
	w.rename = map[string]string{}
	for _, k := range []string{"legal", "goal", "input", "does"} {
		w.rename[k] = w.name(k)
	}
	return w
}

// freshPrefix returns pie_, or pie1_, pie2_, ...: the first that no symbol
// of d (nor the swap move) starts with, so that added names cannot clash.
func freshPrefix(d *gdl.Description, swap string) string {
	used := map[string]bool{}
	eachSymbol(d, func(s string, _ gdl.Pos) { used[s] = true })
	used[swap] = true
	clash := func(prefix string) bool {
		for s := range used {
			if strings.HasPrefix(s, prefix) {
				return true
			}
		}
		return false
	}
	prefix := "pie_"
	for n := 1; clash(prefix); n++ {
		prefix = fmt.Sprintf("pie%d_", n)
	}
	return prefix
}

func (w *writer) name(s string) string { return w.prefix + s }

// rules returns the game's rules, rewritten, followed by the pie rule's.
func (w *writer) rules() []*gdl.Rule {
	out := make([]*gdl.Rule, 0, len(w.d.Rules)+32)
	for _, r := range w.d.Rules {
		out = append(out, w.rewrite(r))
	}
	out = append(out, w.sides()...)
	out = append(out, w.swapRules()...)
	out = append(out, w.carryOver()...)
	if w.declares("base") {
		out = append(out, w.baseRules()...)
	}
	if w.declares("input") {
		out = append(out, w.inputRules()...)
	}
	return out
}

// rewrite reads a rule of the game as a rule about sides, and stops its
// next rules from firing on the swap, which leaves the game's state alone.
func (w *writer) rewrite(r *gdl.Rule) *gdl.Rule {
	body := make([]gdl.Literal, 0, len(r.Body)+1)
	for _, l := range r.Body {
		body = append(body, w.literal(l))
	}
	if r.Head.Name == "next" {
		body = append(body, not(atom(w.name("swapping"))))
	}
	return &gdl.Rule{Lparen: r.Lparen, Head: w.atom(r.Head), Body: body}
}

func (w *writer) atom(a *gdl.Atom) *gdl.Atom {
	to, ok := w.rename[a.Name]
	if !ok {
		return a
	}
	return &gdl.Atom{NamePos: a.NamePos, Name: to, Args: a.Args, Parens: a.Parens}
}

func (w *writer) literal(l gdl.Literal) gdl.Literal {
	switch l := l.(type) {
	case *gdl.Atom:
		return w.atom(l)
	case *gdl.Not:
		return &gdl.Not{Lparen: l.Lparen, Arg: w.literal(l.Arg)}
	case *gdl.Or:
		args := make([]gdl.Literal, len(l.Args))
		for i, a := range l.Args {
			args[i] = w.literal(a)
		}
		return &gdl.Or{Lparen: l.Lparen, Args: args}
	}
	return l // distinct names no relation
}

// declares reports whether the game has rules for the keyword k.
func (w *writer) declares(k string) bool {
	for _, r := range w.d.Rules {
		if r.Head.Name == k {
			return true
		}
	}
	return false
}

// sides adds who plays which side, and the players' legal moves, goals and
// does through it.
func (w *writer) sides() []*gdl.Rule {
	plays := w.name("plays")
	p, s, m, g := v("?p"), v("?s"), v("?m"), v("?g")
	r1, r2 := c(w.roles[0]), c(w.roles[1])
	return []*gdl.Rule{
		fact(atom("init", f(plays, r1, r1))),
		fact(atom("init", f(plays, r2, r2))),
		fact(atom(w.name("other"), r1, r2)),
		fact(atom(w.name("other"), r2, r1)),
		rule(atom("legal", p, m), isTrue(f(plays, p, s)), atom(w.name("legal"), s, m)),
		rule(atom("goal", p, g), isTrue(f(plays, p, s)), atom(w.name("goal"), s, g)),
		rule(atom(w.name("does"), s, m), isTrue(f(plays, p, s)), atom("does", p, m)),
	}
}

// swapRules offer the swap once, after the first move, and exchange the
// sides when the second player takes it.
func (w *writer) swapRules() []*gdl.Rule {
	plays, swapping := w.name("plays"), w.name("swapping")
	p, s, t := v("?p"), v("?s"), v("?t")
	return []*gdl.Rule{
		fact(atom("init", c(w.name("opening")))),
		rule(atom("next", c(w.name("offer"))), isTrue(c(w.name("opening")))),
		rule(atom("legal", c(w.roles[1]), c(w.swap)), isTrue(c(w.name("offer"))), not(atom("terminal"))),
		rule(atom(swapping), atom("does", c(w.roles[1]), c(w.swap))),
		rule(atom("next", f(plays, p, s)), isTrue(f(plays, p, s)), not(atom(swapping))),
		rule(atom("next", f(plays, p, t)), isTrue(f(plays, p, s)), atom(swapping), atom(w.name("other"), s, t)),
	}
}

// carryOver keeps, on the swap, every fact of the game's state: one rule per
// kind of fact the game's next rules make (a name and an arity).
func (w *writer) carryOver() []*gdl.Rule {
	var out []*gdl.Rule
	seen := map[string]bool{}
	for _, r := range w.d.Rules {
		if r.Head.Name != "next" || r.Head.Arity() != 1 {
			continue
		}
		fact := shape(r.Head.Args[0])
		if fact == nil || seen[fact.String()] {
			continue
		}
		seen[fact.String()] = true
		out = append(out, rule(atom("next", fact), isTrue(fact), atom(w.name("swapping"))))
	}
	return out
}

// shape returns the most general fact with t's name and arity, or nil for a
// variable.
func shape(t gdl.Term) gdl.Term {
	switch t := t.(type) {
	case *gdl.Const:
		return c(t.Name)
	case *gdl.Func:
		args := make([]gdl.Term, len(t.Args))
		for i := range args {
			args[i] = v(fmt.Sprintf("?x%d", i+1))
		}
		return f(t.Name, args...)
	}
	return nil
}

// baseRules declare the added state facts, for a game that declares its own.
func (w *writer) baseRules() []*gdl.Rule {
	p, s := v("?p"), v("?s")
	return []*gdl.Rule{
		rule(atom("base", f(w.name("plays"), p, s)), atom("role", p), atom("role", s)),
		fact(atom("base", c(w.name("opening")))),
		fact(atom("base", c(w.name("offer")))),
	}
}

// inputRules let every player make every side's moves, and the second swap.
func (w *writer) inputRules() []*gdl.Rule {
	p, s, m := v("?p"), v("?s"), v("?m")
	return []*gdl.Rule{
		rule(atom("input", p, m), atom("role", p), atom(w.name("input"), s, m)),
		fact(atom("input", c(w.roles[1]), c(w.swap))),
	}
}

func c(name string) *gdl.Const                  { return &gdl.Const{Name: name} }
func v(name string) *gdl.Var                    { return &gdl.Var{Name: name} }
func f(name string, args ...gdl.Term) *gdl.Func { return &gdl.Func{Name: name, Args: args} }
func atom(name string, args ...gdl.Term) *gdl.Atom {
	return &gdl.Atom{Name: name, Args: args}
}
func isTrue(t gdl.Term) *gdl.Atom { return atom("true", t) }
func not(l gdl.Literal) *gdl.Not  { return &gdl.Not{Arg: l} }
func fact(head *gdl.Atom) *gdl.Rule {
	return &gdl.Rule{Head: head}
}
func rule(head *gdl.Atom, body ...gdl.Literal) *gdl.Rule {
	return &gdl.Rule{Head: head, Body: body}
}
