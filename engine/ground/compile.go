package ground

import (
	"errors"

	"gdlab/engine/gdl"
	"gdlab/engine/logic"
)

// relation is a predicate name/arity with its rules and derived facts.
type relation struct {
	name    string
	arity   int
	rules   []*logic.Rule
	static  bool // depends on neither true nor does: computed exactly
	keyword bool // a GDL keyword relation the network reads or writes
	tab     *table
	// atom0 is the AtomID of the relation's first tuple once atoms are numbered.
	atom0 AtomID
}

// program is a compiled game description.
type program struct {
	terms *logic.Store
	rels  []*relation
	index logic.Index
	rel   logic.Keywords
}

// Relation returns the number of name/arity, creating the relation, with
// an empty table, if new.
func (p *program) Relation(name string, arity int) int {
	i, known := p.index.Number(name, arity, len(p.rels))
	if !known {
		p.rels = append(p.rels, &relation{name: name, arity: arity, tab: newTable(arity, p.terms)})
	}
	return i
}

// compile turns a description into a program, or reports the positioned
// problems that make grounding impossible: unsafe variables and rules that
// define true or does.
func compile(d *gdl.Description, maxRules int) (*program, error) {
	p := &program{terms: logic.NewStore()}
	p.rel = logic.KeywordsOf(p)
	rules, err := logic.Compile(d, p.terms, p, maxRules)
	if le := (*logic.RuleLimitError)(nil); errors.As(err, &le) {
		return nil, &LimitError{Bound: "source rules after expanding or", Limit: le.Limit, Reached: le.Reached}
	}
	if err != nil {
		return nil, err
	}
	for _, r := range rules {
		p.rels[r.Head].rules = append(p.rels[r.Head].rules, r)
	}
	return p, nil
}

// Rules, Len and Key give the relations to package logic's stratification.
func (p *program) Rules(rel int) []*logic.Rule { return p.rels[rel].rules }
func (p *program) Len() int                    { return len(p.rels) }
func (p *program) Key(rel int) string          { return logic.Key(p.rels[rel].name, p.rels[rel].arity) }
