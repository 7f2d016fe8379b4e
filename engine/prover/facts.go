package prover

import (
	"fmt"

	"gdlab/engine/game"
	"gdlab/engine/gdl"
	"gdlab/engine/logic"
)

// StateOf returns the state holding exactly the given facts (canonical KIF
// text, as State.Facts gives them), for constructing positions. The facts
// are taken as they are: nothing checks that a match could reach them.
func (pr *Prover) StateOf(facts []string) (game.State, error) {
	terms := make([]gdl.Term, len(facts))
	for i, f := range facts {
		t, err := gdl.ParseTerm(f)
		if err != nil {
			return nil, fmt.Errorf("prover: fact %q: %w", f, err)
		}
		terms[i] = t
	}
	pr.mu.Lock()
	defer pr.mu.Unlock()
	ids := make([]logic.Term, len(terms))
	for i, t := range terms {
		id, ok := pr.prog.terms.FromAST(t)
		if !ok {
			return nil, fmt.Errorf("prover: fact %q has a variable", facts[i])
		}
		ids[i] = id
	}
	return pr.newState(ids), nil
}
