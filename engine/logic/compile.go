package logic

import (
	"fmt"
	"strconv"

	"gdlab/engine/gdl"
)

// Relations is a reasoner's table of relations, as compiling and
// stratifying read it. Relations are numbered from 0 in order of creation,
// and compiled rules name them by number; a reasoner keeps its own data per
// relation and the rules that define it.
type Relations interface {
	// Relation returns the number of relation name/arity, adding the
	// relation if it is new.
	Relation(name string, arity int) int
	// Len returns how many relations there are.
	Len() int
	// Key returns a relation's "name/arity", for messages.
	Key(rel int) string
	// Rules returns the rules that define a relation.
	Rules(rel int) []*Rule
}

// Key returns the key "name/arity" of a relation, so that a name used with
// two arities names two relations.
func Key(name string, arity int) string { return name + "/" + strconv.Itoa(arity) }

// Index numbers relations by key, for a Relations.
type Index struct{ m map[string]int }

// Number returns the number of relation name/arity and true when it has
// one; otherwise it gives it next and returns next and false, and the caller
// adds the relation.
func (x *Index) Number(name string, arity int, next int) (int, bool) {
	k := Key(name, arity)
	if i, ok := x.m[k]; ok {
		return i, true
	}
	if x.m == nil {
		x.m = map[string]int{}
	}
	x.m[k] = next
	return next, false
}

// RuleLimitError reports that a description has more rules than Compile's
// bound once `or` is expanded: expanding multiplies the disjuncts of a body,
// so a few source rules can make exponentially many.
type RuleLimitError struct {
	Limit   int // the bound
	Reached int // the rules counted when Compile stopped
}

// Error names the bound and the count reached.
func (e *RuleLimitError) Error() string {
	return fmt.Sprintf("the rules exceed the bound of %d after expanding or (reached %d)", e.Limit, e.Reached)
}

// Compile flattens and compiles the rules of d over terms, numbering their
// relations through rels as it meets them (the head of a rule first, then
// its body from left to right). It returns the compiled rules in source
// order, or the positioned problems that make bottom-up evaluation
// impossible, sorted: rules that define true or does, and unsafe variables
// (a variable of a rule must occur in a positive body literal). With
// maxRules > 0, a description with more rules than that after expanding
// `or` fails at once with a *RuleLimitError.
func Compile(d *gdl.Description, terms *Store, rels Relations, maxRules int) ([]*Rule, error) {
	var errs gdl.ErrorList
	var out []*Rule
	n := 0
	for _, r := range d.Rules {
		if r.Head.Name == "true" || r.Head.Name == "does" {
			errs.Add(d.Position(r.Pos()), "rules may not define %q", r.Head.Name)
			continue
		}
		bodies := Flatten(r.Body)
		if n += len(bodies); maxRules > 0 && n > maxRules {
			return nil, &RuleLimitError{Limit: maxRules, Reached: n}
		}
		for _, body := range bodies {
			c := ruleCompiler{terms: terms, rels: rels, slots: map[string]int{}}
			cr, unsafe := c.rule(r, body)
			if unsafe != nil {
				errs.Add(d.Position(unsafe.NamePos), "variable %s in rule for %s/%d is unsafe: it occurs in no positive body literal", unsafe.Name, r.Head.Name, len(r.Head.Args))
				continue
			}
			out = append(out, cr)
		}
	}
	errs.Sort()
	return out, errs.Err()
}

// ruleCompiler numbers a rule's variables as it compiles its terms.
type ruleCompiler struct {
	terms *Store
	rels  Relations
	slots map[string]int
	order []*gdl.Var // first occurrence of each variable
}

// rule compiles one disjunct of src, or returns its first unsafe variable.
func (c *ruleCompiler) rule(src *gdl.Rule, body []gdl.Literal) (*Rule, *gdl.Var) {
	r := &Rule{Src: src, Head: c.rels.Relation(src.Head.Name, len(src.Head.Args))}
	r.Body = make([]Literal, len(body))
	for i, l := range body {
		r.Body[i] = c.literal(l)
	}
	bound := map[int]bool{}
	for _, l := range r.Body {
		if l.Kind == LitPos {
			for _, a := range l.Args {
				a.MarkSlots(bound)
			}
		}
	}
	r.Args = c.patterns(src.Head.Args)
	for _, v := range c.order {
		if !bound[c.slots[v.Name]] {
			return nil, v
		}
	}
	r.Slots = len(c.slots)
	for i := range r.Body {
		r.Body[i].SetVars()
	}
	return r, nil
}

func (c *ruleCompiler) literal(l gdl.Literal) Literal {
	switch l := l.(type) {
	case *gdl.Atom:
		return Literal{Kind: LitPos, Rel: c.rels.Relation(l.Name, len(l.Args)), Args: c.patterns(l.Args), Src: l}
	case *gdl.Distinct:
		return Literal{Kind: LitDistinct, Args: c.patterns([]gdl.Term{l.A, l.B}), Src: l}
	case *gdl.Not:
		switch a := l.Arg.(type) {
		case *gdl.Atom:
			return Literal{Kind: LitNeg, Rel: c.rels.Relation(a.Name, len(a.Args)), Args: c.patterns(a.Args), Src: l}
		case *gdl.Distinct:
			return Literal{Kind: LitEqual, Args: c.patterns([]gdl.Term{a.A, a.B}), Src: l}
		}
	}
	panic("logic: literal not flattened") // Flatten leaves only the cases above
}

func (c *ruleCompiler) patterns(ts []gdl.Term) []Pattern {
	out := make([]Pattern, len(ts))
	for i, t := range ts {
		out[i] = c.pattern(t)
	}
	return out
}

func (c *ruleCompiler) pattern(t gdl.Term) Pattern {
	if id, ok := c.terms.FromAST(t); ok {
		return Pattern{Kind: PatGround, ID: id}
	}
	switch t := t.(type) {
	case *gdl.Var:
		slot, ok := c.slots[t.Name]
		if !ok {
			slot = len(c.slots)
			c.slots[t.Name] = slot
			c.order = append(c.order, t)
		}
		return Pattern{Kind: PatVar, Slot: slot}
	case *gdl.Func:
		return Pattern{Kind: PatFunc, Sym: c.terms.Sym(t.Name), Args: c.patterns(t.Args)}
	}
	panic("logic: unknown term") // the AST's term types are closed
}

// Keywords holds the numbers of the relations that GDL gives a meaning.
type Keywords struct {
	True, Does, Legal, Goal, Terminal, Next, Init, Role int
}

// KeywordsOf numbers the keyword relations of rels, adding the ones it
// lacks in the order of Keywords' fields.
func KeywordsOf(rels Relations) Keywords {
	var k Keywords
	k.True = rels.Relation("true", 1)
	k.Does = rels.Relation("does", 2)
	k.Legal = rels.Relation("legal", 2)
	k.Goal = rels.Relation("goal", 2)
	k.Terminal = rels.Relation("terminal", 0)
	k.Next = rels.Relation("next", 1)
	k.Init = rels.Relation("init", 1)
	k.Role = rels.Relation("role", 1)
	return k
}
