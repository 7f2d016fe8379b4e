package sweep

import (
	"fmt"
	"math"
)

// countParams are the parameters that count something: whole numbers.
var countParams = map[string]bool{"nextcalls": true, "nodes": true, "iterations": true, "maxdepth": true}

// checkParams checks a player's parameters in one setting as the player
// would take them: every number finite, the budget and counts whole (where
// counted) and not negative, a bound on every searching kind's move, and the
// kind's own rules. A player refusing its parameters at Start would
// otherwise have the referee play random moves for it in every match.
func checkParams(k kind, p params) error {
	for _, name := range sortedKeys(p) {
		v := p[name]
		switch {
		case math.IsNaN(v) || math.IsInf(v, 0):
			return fmt.Errorf("%s %g: must be a finite number", name, v)
		case (countParams[name] || name == "ms") && v < 0:
			return fmt.Errorf("%s %g: must not be negative", name, v)
		case countParams[name] && v != math.Trunc(v):
			return fmt.Errorf("%s %g: must be a whole number", name, v)
		}
	}
	if k.searches && !p.bounded(k.bounds) {
		return fmt.Errorf("its search has no bound: set one of %v above 0", append(append([]string{}, k.bounds...), budgetParams...))
	}
	if k.check != nil {
		return k.check(p)
	}
	return nil
}

// bounded reports whether a budget parameter or one of the kind's own
// bounds is above 0.
func (p params) bounded(bounds []string) bool {
	for _, name := range append(append([]string{}, budgetParams...), bounds...) {
		if p.get(name, 0) > 0 {
			return true
		}
	}
	return false
}

// checkMCTS applies mcts.Player.Start's rule for PowerMean (0, off, or a
// finite p ≥ 1), which Start checks unexported, and refuses a negative C,
// which mcts.Options would silently replace by its default, and a negative
// polynomial exponent, which would silently mean UCT's term.
func checkMCTS(p params) error {
	if pm := p.get("power", 0); pm != 0 && pm < 1 {
		return fmt.Errorf("power %g: p must be 0 (off) or a finite number at least 1 (as mcts.Player.Start requires)", pm)
	}
	if c := p.get("c", 0); c < 0 {
		return fmt.Errorf("c %g: the exploration constant must be 0 (the default) or above", c)
	}
	if e := p.get("polyexplore", 0); e < 0 {
		return fmt.Errorf("polyexplore %g: the polynomial term's exponent must be 0 (UCT's term) or above", e)
	}
	return nil
}

// checkMM refuses an exponent mmapprox cannot use: the generalized mean
// M_p needs p above 0.
func checkMM(p params) error {
	if v := p.get("p", 10); v <= 0 {
		return fmt.Errorf("p %g: the mean's exponent must be above 0", v)
	}
	return nil
}
