package prover

import (
	"gdlab/engine/gdl"
	"gdlab/engine/logic"
)

// Layers of relations: a relation belongs to the lowest layer that holds
// everything it depends on. Static relations are computed once per game,
// state relations once per state, move relations once per state and joint move.
const (
	layerStatic = iota
	layerState
	layerMove
	numLayers
)

// relation is a predicate name/arity with its rules.
type relation struct {
	name  string
	arity int
	layer int
	rules []*logic.Rule
	// A variant made by split holds the facts whose arguments at keyPos
	// are key.
	key    []logic.Term
	keyPos []int
	// demand is set when every reader asks about the relation with bound
	// arguments and it is answered on demand rather than materialised
	// (demand.go). need is its mode, the arguments its questions bind: all
	// of them, unless extendDemand made it a reader of a relation on
	// demand (modes.go). A tabled relation is recursive: its questions
	// go through tables even with every argument bound (tabling.go), as
	// proving a tuple by its first derivation could loop.
	demand bool
	need   []bool
	tabled bool
}

// program is a compiled game description.
type program struct {
	terms *logic.Store
	rels  []*relation
	index logic.Index
	// strata[layer] lists groups of mutually recursive relations, in the
	// order they must be evaluated.
	strata           [numLayers][][]int
	trueRel, doesRel int
	// forced lists the static relations over the fact bound that
	// extendDemand answers on demand although some readers leave their
	// arguments free.
	forced []int
}

func relKey(name string, arity int) string { return logic.Key(name, arity) }

// Relation returns the number of name/arity, creating the relation if new.
func (p *program) Relation(name string, arity int) int {
	i, known := p.index.Number(name, arity, len(p.rels))
	if !known {
		p.rels = append(p.rels, &relation{name: name, arity: arity})
	}
	return i
}

// Len, Key and Rules give the relations to package logic's stratification.
func (p *program) Len() int                    { return len(p.rels) }
func (p *program) Key(rel int) string          { return relKey(p.rels[rel].name, p.rels[rel].arity) }
func (p *program) Rules(rel int) []*logic.Rule { return p.rels[rel].rules }

// compile turns a description into a program, or reports the positioned
// problems that make bottom-up evaluation impossible (unsafe variables,
// rules defining true or does, unstratified negation).
func compile(d *gdl.Description) (*program, error) {
	p := &program{terms: logic.NewStore()}
	p.trueRel = p.Relation("true", 1)
	p.doesRel = p.Relation("does", 2)
	rules, err := logic.Compile(d, p.terms, p, 0)
	if err != nil {
		return p, err
	}
	for _, r := range rules {
		p.rels[r.Head].rules = append(p.rels[r.Head].rules, r)
	}
	var errs gdl.ErrorList
	for _, e := range p.stratifyOrSplit() {
		errs.Add(d.Position(e.pos), "%s", e.msg)
	}
	p.markDemand(nil)
	errs.Sort()
	return p, errs.Err()
}
