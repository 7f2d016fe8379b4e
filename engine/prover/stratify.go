package prover

import (
	"gdlab/engine/gdl"
	"gdlab/engine/logic"
)

// posError is a problem at a position of the description.
type posError struct {
	pos gdl.Pos
	msg string
}

// stratifyOrSplit stratifies the program; where negation goes through a
// cycle, it splits the relations concerned by their constant arguments (see
// split.go) and tries again.
func (p *program) stratifyOrSplit() []posError {
	for {
		errs, cyclic := p.stratify()
		if len(errs) == 0 || !p.splitCycles(cyclic) {
			return errs
		}
		p.strata = [numLayers][][]int{}
	}
}

// stratify assigns every relation its layer and orders the relations of each
// layer into strata: groups of mutually recursive relations, each evaluated
// after everything it depends on. A cycle through negation cannot be
// evaluated and is reported, once per group.
func (p *program) stratify() (errs []posError, cyclic [][]int) {
	deps := logic.Dependencies(p)
	for _, scc := range logic.ComponentsOf(deps) { // each after the groups it reads
		if neg := logic.NegativeCycles(p, scc); len(neg) > 0 {
			errs = append(errs, posError{neg[0].Lit.Pos(), neg[0].Message(p, scc, 0)})
			cyclic = append(cyclic, scc)
		}
		layer := layerStatic
		for _, r := range scc {
			switch r {
			case p.trueRel:
				layer = max(layer, layerState)
			case p.doesRel:
				layer = max(layer, layerMove)
			}
			for _, d := range deps[r] {
				layer = max(layer, p.rels[d].layer)
			}
		}
		for _, r := range scc {
			p.rels[r].layer = layer
		}
		p.strata[layer] = append(p.strata[layer], scc)
	}
	return errs, cyclic
}
