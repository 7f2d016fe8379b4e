package ground

import (
	"fmt"
	"strings"
	"time"

	"gdlab/engine/logic"
)

// Term names an interned ground term of a Program. Terms are hash-consed:
// two ground terms are equal exactly when their Terms are equal.
type Term = logic.Term

// AtomID indexes Program.Atoms.
type AtomID int32

// Program is a ground game description: every atom that may hold in some
// reachable state (an over-approximation), and the ground rules that derive
// them. Static relations (those that depend on neither true nor does) are
// evaluated away: their positive literals are dropped as true and their
// negative literals decided. A negated atom that can never hold is dropped
// too. The atoms of true and does have no rules: they are the state and the
// moves. A Program is immutable and safe for concurrent use.
type Program struct {
	Roles     []string // in the order of the (role ...) declarations
	RoleTerms []Term   // the roles as terms, in the same order
	Atoms     []Atom   // indexed by AtomID; the atoms of one relation are contiguous
	Rules     []Rule   // distinct ground rules, grouped by head relation
	Init      []AtomID // the true atoms of the initial state
	Stats     Stats
	terms     *logic.Store
	rels      map[string][2]int // "name/arity" -> first atom, count
}

// Atom is a ground atom: a relation applied to ground terms.
type Atom struct {
	Rel  string // relation name, e.g. "true", "legal", "line"
	Args []Term
}

// Rule is a ground rule: Head holds when every Pos atom holds and no Neg atom does.
type Rule struct {
	Head AtomID
	Pos  []AtomID
	Neg  []AtomID
}

// Stats describes a grounding.
type Stats struct {
	Atoms       int           // ground atoms of the dynamic relations
	Rules       int           // distinct ground rules
	StaticFacts int           // facts of the static relations, evaluated away
	Literals    int           // body literals over all ground rules
	Size        int           // what counts toward Options.MaxSize: every fact derived, auxiliary and static ones included, plus the ground rules
	Work        int64         // join steps
	Time        time.Duration // wall time of the grounding
}

// TermText returns the canonical KIF text of a term: a constant as itself,
// a function term as "(f a b)".
func (p *Program) TermText(t Term) string {
	if t < 0 || int(t) >= p.terms.Len() {
		return fmt.Sprintf("<invalid term %d>", t)
	}
	return p.terms.String(t)
}

// AtomText returns the canonical KIF text of an atom, such as
// "(true (cell 1 1 b))" or "terminal".
func (p *Program) AtomText(a AtomID) string {
	at := p.Atoms[a]
	if len(at.Args) == 0 {
		return at.Rel
	}
	var b strings.Builder
	b.WriteByte('(')
	b.WriteString(at.Rel)
	for _, t := range at.Args {
		b.WriteByte(' ')
		b.WriteString(p.TermText(t))
	}
	b.WriteByte(')')
	return b.String()
}

// AtomsOf returns the atoms of relation name/arity, in AtomID order.
func (p *Program) AtomsOf(name string, arity int) []AtomID {
	r, ok := p.rels[logic.Key(name, arity)]
	if !ok {
		return nil
	}
	out := make([]AtomID, r[1])
	for i := range out {
		out[i] = AtomID(r[0] + i)
	}
	return out
}

// RuleText renders a ground rule in KIF.
func (p *Program) RuleText(r Rule) string {
	var b strings.Builder
	b.WriteString("(<= ")
	b.WriteString(p.AtomText(r.Head))
	for _, a := range r.Pos {
		b.WriteByte(' ')
		b.WriteString(p.AtomText(a))
	}
	for _, a := range r.Neg {
		b.WriteString(" (not ")
		b.WriteString(p.AtomText(a))
		b.WriteByte(')')
	}
	b.WriteByte(')')
	return b.String()
}

// String renders the whole program, one ground rule per line.
func (p *Program) String() string {
	var b strings.Builder
	for _, r := range p.Rules {
		b.WriteString(p.RuleText(r))
		b.WriteByte('\n')
	}
	return b.String()
}

// LimitError reports that a grounding would exceed one of its bounds.
type LimitError struct {
	Bound   string // what is bounded, e.g. "ground atoms and rules"
	Limit   int    // the bound
	Reached int    // the size reached when grounding stopped
	Where   string // what was being computed
}

// Error names the bound, the size reached and what was being computed.
func (e *LimitError) Error() string {
	where := ""
	if e.Where != "" {
		where = " while computing " + e.Where
	}
	return fmt.Sprintf("ground: the game exceeds the bound of %d %s (reached %d%s)", e.Limit, e.Bound, e.Reached, where)
}
