// Package compat owns the compatible reading of GDL: the meaning that
// ggp-base's ProverStateMachine, and so most players of the GGP
// competitions, gives to rulesheets that break the specification's safety
// rules. gdlab plays a game under this reading; `gdlab check` reports the
// same constructs as errors unless asked for the compatible reading.
//
// ggp-base answers every question top-down, after two rewrites of the
// rules: `or` is expanded into one rule per alternative, and every `not`
// and `distinct` is moved to just after the positive literals that bind its
// variables. A `not` or `distinct` with a variable that no positive literal
// of its alternative binds has no such place and is dropped. A head
// variable that the body never binds stays free, so the rule answers every
// question that unifies with its head: (legal ?w noop) with ?w free gives
// noop to every role ggp-base asks about.
//
// Read turns a description into a safe one with the same answers, so that
// the bottom-up prover and the grounder play it unchanged:
//
//   - an unsafe rule for input or base is dropped: no player needs those
//     relations to play;
//   - in every other unsafe rule, each alternative of its `or`s becomes a
//     rule of its own, and its unsafe `not`s and `distinct`s are dropped;
//   - a free variable that is the role argument of a legal, goal or sees
//     head ranges over the roles (ggp-base asks only about declared roles,
//     so this is exact);
//   - any other free head variable ranges over the game's domain: every
//     constant written in the rules. This matches ggp-base wherever the
//     reader of the relation binds the free variable to a constant, as it
//     must bind it to something for the answer to be ground (domain.go
//     says why compound terms are left out). A free variable of an init
//     or next head has no reader: ggp-base puts a fact with a variable in
//     the state, which no trace can print and no rule written for ground
//     facts reads as meant; here it stands for each constant instead.
//
// Every change is reported as a Repair with its position. A 0-ary relation
// written in parentheses, as (open), where the game also writes open, is
// reported as a Note: gdlab reads both as one relation, ggp-base as two,
// and so (terminal) is never the terminal ggp-base asks about. The reading
// keeps gdlab's meaning there: it is what the rulesheet's author meant.
package compat

import (
	"fmt"
	"sort"

	"gdlab/engine/gdl"
	"gdlab/engine/gdl/check"
	"gdlab/engine/logic"
)

// Kind tells a repair, which changes what the rules mean to gdlab, from a
// note, which changes nothing.
type Kind int

const (
	// Dropped: a rule or a literal is left out of the reading.
	Dropped Kind = iota
	// Ranged: a free head variable is bound to the roles or the domain.
	Ranged
	// Note: nothing changes, but ggp-base reads the construct differently.
	Note
)

// Repair is one non-standard construct and how the compatible reading
// treats it.
type Repair struct {
	Pos       gdl.Position
	Kind      Kind
	Construct string // what breaks the specification, e.g. "variable ?w in head of rule for legal/2 is unsafe"
	Treatment string // what the compatible reading does with it
}

// String formats the repair as "file:line:col: construct; treatment".
func (r Repair) String() string { return r.Pos.String() + ": " + r.Message() }

// Message is the repair without its position.
func (r Repair) Message() string { return r.Construct + "; " + r.Treatment }

// Changes returns the repairs that change the reading: all but the notes.
func Changes(rs []Repair) []Repair {
	var out []Repair
	for _, r := range rs {
		if r.Kind != Note {
			out = append(out, r)
		}
	}
	return out
}

// MaxAlternatives bounds the alternatives an unsafe rule's ors may expand
// into for the reading to repair it: expanding multiplies disjuncts, and a
// few ors of a hostile rulesheet would otherwise exhaust memory.
const MaxAlternatives = 1 << 12

// alternatives counts the alternatives a body's ors expand into, as
// logic.Flatten expands them (under a negation an or is a conjunction),
// stopping once the count passes MaxAlternatives.
func alternatives(body []gdl.Literal, neg bool) int {
	n := 1
	for _, l := range body {
		n *= alternativesOf(l, neg)
		if n > MaxAlternatives {
			return MaxAlternatives + 1
		}
	}
	return n
}

func alternativesOf(l gdl.Literal, neg bool) int {
	switch l := l.(type) {
	case *gdl.Not:
		return alternativesOf(l.Arg, !neg)
	case *gdl.Or:
		if neg {
			return alternatives(l.Args, true)
		}
		n := 0
		for _, a := range l.Args {
			if n += alternativesOf(a, false); n > MaxAlternatives {
				return MaxAlternatives + 1
			}
		}
		return n
	}
	return 1
}

// DomainRelation is the name of the unary relation that holds the game's
// domain in a description Read has repaired. Read appends underscores
// should a game use the name itself.
const DomainRelation = "gdlab_compat_domain"

// Read returns d under the compatible reading and the repairs made, sorted
// by position. When nothing needs repair, it returns d itself; otherwise a
// new description over the same file, whose unchanged rules are shared
// with d. d is never modified.
func Read(d *gdl.Description) (*gdl.Description, []Repair) {
	if d == nil {
		return nil, nil
	}
	r := &reader{d: d}
	var rules []*gdl.Rule
	changed := false
	r.notes()
	for _, rule := range d.Rules {
		out, ok := r.rule(rule)
		changed = changed || !ok
		rules = append(rules, out...)
	}
	sort.SliceStable(r.repairs, func(i, j int) bool { return before(r.repairs[i].Pos, r.repairs[j].Pos) })
	if !changed {
		return d, r.repairs
	}
	if r.domain != "" {
		rules = append(rules, domainFacts(d, r.domain)...)
	}
	return &gdl.Description{File: d.File, Rules: rules}, r.repairs
}

// reader carries one run of Read.
type reader struct {
	d       *gdl.Description
	repairs []Repair
	seen    map[string]bool // repairs already reported, by text
	domain  string          // the domain relation's name, once a rule needs it
}

func (r *reader) add(pos gdl.Pos, kind Kind, treatment, format string, args ...any) {
	rep := Repair{Pos: r.d.Position(pos), Kind: kind, Construct: fmt.Sprintf(format, args...), Treatment: treatment}
	if r.seen == nil {
		r.seen = map[string]bool{}
	}
	// The alternatives of one rule repeat its literals; report each once.
	if key := rep.String(); !r.seen[key] {
		r.seen[key] = true
		r.repairs = append(r.repairs, rep)
	}
}

// rule returns the rules that stand for rule under the compatible reading,
// and false when they differ from rule itself.
func (r *reader) rule(rule *gdl.Rule) ([]*gdl.Rule, bool) {
	if check.Safe(rule) {
		return []*gdl.Rule{rule}, true
	}
	what := fmt.Sprintf("rule for %s/%d", rule.Head.Name, len(rule.Head.Args))
	if len(rule.Body) == 0 {
		what = "fact " + what[len("rule for "):]
	}
	if rule.Head.Name == "input" || rule.Head.Name == "base" {
		check.EachUnsafe(rule, func(v *gdl.Var, _ gdl.Literal) {
			r.add(v.NamePos, Dropped, "the compatible reading drops the rule: no player needs "+rule.Head.Name+" to play",
				"variable %s in %s is unsafe", v.Name, what)
		})
		return nil, false
	}
	if n := alternatives(rule.Body, false); n > MaxAlternatives {
		// Left as written: the reasoners report its unsafe variables.
		r.add(rule.Pos(), Note, "the compatible reading leaves it as written",
			"unsafe %s expands into more than %d alternatives", what, MaxAlternatives)
		return []*gdl.Rule{rule}, true
	}
	alts := logic.Flatten(rule.Body)
	out := make([]*gdl.Rule, 0, len(alts))
	for _, body := range alts {
		out = append(out, r.alternative(rule, what, body))
	}
	return out, false
}

// alternative makes one alternative of an unsafe rule safe, as ggp-base
// reads it.
func (r *reader) alternative(rule *gdl.Rule, what string, body []gdl.Literal) *gdl.Rule {
	bound := boundBy(body)
	kept := make([]gdl.Literal, 0, len(body)+len(rule.Head.Args))
	for _, l := range body {
		free := freeVars(l, bound)
		for _, v := range free {
			r.add(v.NamePos, Dropped, "the compatible reading drops "+l.String()+", as ggp-base does",
				"variable %s in %s of %s is unsafe", v.Name, l.String(), what)
		}
		if len(free) == 0 {
			kept = append(kept, l)
		}
	}
	for _, v := range headVars(rule.Head) {
		if bound[v.Name] {
			continue
		}
		bound[v.Name] = true
		if roleArg(rule.Head) && rule.Head.Args[0] == gdl.Term(v) {
			r.add(v.NamePos, Ranged, "the compatible reading ranges it over the roles, as ggp-base answers for each role",
				"variable %s in head of %s is unsafe", v.Name, what)
			kept = append(kept, &gdl.Atom{NamePos: v.NamePos, Name: "role", Args: []gdl.Term{v}})
			continue
		}
		r.add(v.NamePos, Ranged, "the compatible reading ranges it over the game's domain (every constant of the rules)",
			"variable %s in head of %s is unsafe", v.Name, what)
		kept = append(kept, &gdl.Atom{NamePos: v.NamePos, Name: r.domainName(), Args: []gdl.Term{v}})
	}
	return &gdl.Rule{Lparen: rule.Lparen, Head: rule.Head, Body: kept}
}

// roleArg reports whether a head's first argument is a role: legal, goal
// and sees are asked about one role at a time.
func roleArg(head *gdl.Atom) bool {
	switch head.Name {
	case "legal", "goal", "sees":
		return len(head.Args) == 2
	}
	return false
}

// domainName returns the name of the domain relation, choosing one that
// the game does not use on first call.
func (r *reader) domainName() string {
	if r.domain != "" {
		return r.domain
	}
	used := map[string]bool{}
	for _, rule := range r.d.Rules {
		eachAtom(rule, func(a *gdl.Atom) { used[a.Name] = true })
	}
	r.domain = DomainRelation
	for used[r.domain] {
		r.domain += "_"
	}
	return r.domain
}

// notes reports the 0-ary atoms written in parentheses whose reading
// ggp-base does not share: ggp-base reads (p) as a relation apart from p,
// so the two spellings differ where a game writes both, and (terminal)
// is never the terminal ggp-base asks about.
func (r *reader) notes() {
	bare := map[string]bool{"terminal": true}
	for _, rule := range r.d.Rules {
		eachAtom(rule, func(a *gdl.Atom) {
			if len(a.Args) == 0 && !a.Parens {
				bare[a.Name] = true
			}
		})
	}
	for _, rule := range r.d.Rules {
		eachAtom(rule, func(a *gdl.Atom) {
			if a.Parens && bare[a.Name] {
				r.add(a.NamePos, Note, fmt.Sprintf("gdlab reads it as %s; ggp-base reads (%s) and %s as two relations", a.Name, a.Name, a.Name),
					"0-ary relation %s written as (%s)", a.Name, a.Name)
			}
		})
	}
}

// boundBy returns the variables of the positive atoms of a flattened body.
func boundBy(body []gdl.Literal) map[string]bool {
	bound := map[string]bool{}
	for _, l := range body {
		if a, ok := l.(*gdl.Atom); ok {
			for _, t := range a.Args {
				gdl.WalkVars(t, func(v *gdl.Var) { bound[v.Name] = true })
			}
		}
	}
	return bound
}

// freeVars returns the first occurrence of each variable of a negation or
// distinct of a flattened body that bound lacks.
func freeVars(l gdl.Literal, bound map[string]bool) []*gdl.Var {
	var terms []gdl.Term
	switch l := l.(type) {
	case *gdl.Not:
		switch a := l.Arg.(type) {
		case *gdl.Atom:
			terms = a.Args
		case *gdl.Distinct:
			terms = []gdl.Term{a.A, a.B}
		}
	case *gdl.Distinct:
		terms = []gdl.Term{l.A, l.B}
	}
	var free []*gdl.Var
	seen := map[string]bool{}
	for _, t := range terms {
		gdl.WalkVars(t, func(v *gdl.Var) {
			if !bound[v.Name] && !seen[v.Name] {
				seen[v.Name] = true
				free = append(free, v)
			}
		})
	}
	return free
}

// headVars returns the first occurrence of each variable of a head.
func headVars(head *gdl.Atom) []*gdl.Var {
	seen := map[string]bool{}
	var vs []*gdl.Var
	for _, t := range head.Args {
		gdl.WalkVars(t, func(v *gdl.Var) {
			if !seen[v.Name] {
				seen[v.Name] = true
				vs = append(vs, v)
			}
		})
	}
	return vs
}

// before orders positions by line, then column.
func before(a, b gdl.Position) bool {
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Column < b.Column
}
