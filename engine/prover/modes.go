package prover

import (
	"math/bits"

	"gdlab/engine/logic"
)

// A static relation over the fact bound is sometimes asked with arguments
// free: laikLee_hex's isList/1 (every list of up to 25 cells) is asked about
// the lists that connection/6 builds while it walks the board, and
// connection/6 itself about the cell it starts from and the list so far,
// with the cell it reaches left free. Making isList/1 a question with every
// argument bound is not enough then: its reader must become a question too,
// one that needs only some of its arguments bound. Each relation on demand
// therefore has a mode, the argument positions its questions must bind
// (need): all of them for the relations of markDemand, fewer for the readers
// that extendDemand turns into questions. Questions with free arguments are
// answered by tabling (tabling.go).

// forceDemand answers the static relation f on demand with the largest mode
// that its readers can serve (extendDemand): every argument if they can bind
// them all, else as many as they can. mummymaze1p's direction-from/5 keeps
// all five; testdata/walks.kif's hop/4 (an edge padded with two numbers)
// gets the edge's end, twice, the only argument its reader walk/3 binds
// once it is a question itself. A mode that
// needs nothing would be its materialisation, which has just exceeded the
// bound, so it is not tried; nor, beyond maxModeArity arguments, any mode
// but the full one. A relation that no rule reads is not answered on
// demand: it is not asked at all, and its size is the game's problem.
// It reports whether a mode worked.
func (p *program) forceDemand(f int, need [][]bool) bool {
	n := p.rels[f].arity
	if !p.read(f) {
		return false
	}
	if n > maxModeArity {
		return p.extendDemand(f, allTrue(n), need)
	}
	for size := n; size > 0; size-- {
		for m := uint(1)<<n - 1; m > 0; m-- {
			if bits.OnesCount(m) == size && p.extendDemand(f, modeOf(m, n), need) {
				return true
			}
		}
	}
	return false
}

// read reports whether some rule reads relation i.
func (p *program) read(i int) bool {
	for _, rel := range p.rels {
		for _, r := range rel.rules {
			for _, l := range r.Body {
				if (positive(l) || l.Kind == logic.LitNeg) && l.Rel == i {
					return true
				}
			}
		}
	}
	return false
}

// maxModeArity bounds the arity for which forceDemand tries every mode.
const maxModeArity = 12

// modeOf returns the mode whose needed positions are the bits of m.
func modeOf(m uint, n int) []bool {
	out := make([]bool, n)
	for i := range out {
		out[i] = m&(1<<i) != 0
	}
	return out
}

// extendDemand answers the static relation f on demand with the given
// mode, even though some readers cannot bind its arguments: each such
// reader is answered on demand too, needing the head arguments that would
// bind what is missing, and so on up the readers until every rule can ask
// its questions. Materialised rules join their materialised literals first
// and then the questions that are ready, each binding the variables of its
// answers; so do rules on demand, starting from their needed arguments.
// Relations that share a recursive group with one on demand are on demand
// too, since a group is evaluated as a whole. need holds the modes found so
// far (nil for a materialised relation); it is changed only on success.
// extendDemand fails when a GDL keyword relation, which the Machine methods
// read from its table, would have to be answered on demand, or when a
// missing variable does not occur in its rule's head.
func (p *program) extendDemand(f int, mode []bool, need [][]bool) bool {
	out := make([][]bool, len(need))
	for i, n := range need {
		out[i] = append([]bool(nil), n...)
	}
	out[f] = mode
	group := p.groups()
	for changed := true; changed; {
		changed = false
		for _, rel := range p.rels {
			for _, r := range rel.rules {
				grew, ok := p.needHead(r, unboundVars(r, out, group), out)
				if !ok {
					return false
				}
				changed = changed || grew
			}
		}
		changed = p.closeGroups(out) || changed
	}
	for i, n := range out {
		if n != nil && keywordRelations[p.rels[i].name] {
			return false
		}
	}
	copy(need, out)
	return true
}

// allTrue returns n true values: the mode of a relation whose questions
// bind every argument.
func allTrue(n int) []bool {
	out := make([]bool, n)
	for i := range out {
		out[i] = true
	}
	return out
}

// needHead makes rule r's head relation need the head arguments that hold
// the missing variables of the first question that some could make ready
// (missing lists them, a question a row): needing the fewest keeps the
// readers free to ask. It reports whether a mode grew, and false when no
// head argument holds a missing variable.
func (p *program) needHead(r *logic.Rule, missing [][]int, need [][]bool) (grew, ok bool) {
	if len(missing) == 0 {
		return false, true
	}
	for _, vars := range missing {
		var pos []int
		for i, a := range r.Args {
			in := map[int]bool{}
			a.MarkSlots(in)
			for _, v := range vars {
				if in[v] {
					pos = append(pos, i)
					break
				}
			}
		}
		if len(pos) == 0 {
			continue
		}
		if need[r.Head] == nil {
			need[r.Head], grew = make([]bool, p.rels[r.Head].arity), true
		}
		for _, i := range pos {
			grew = grew || !need[r.Head][i]
			need[r.Head][i] = true
		}
		if grew {
			return true, true
		}
	}
	return false, false
}

// unboundVars returns, for each question of rule r that cannot be asked,
// the variables it needs but the rule cannot bind. The rule binds the
// needed head arguments (when its relation is on demand), the variables of
// its materialised positive literals, and then those of each question whose
// needed arguments are bound, until no more can be asked.
//
// A materialised literal of the head's own recursive group (group numbers
// them) does not count: a question whose arguments only the relation's own
// facts bind is asked about every fact, so the relation would be built over
// the full extension of the relation on demand, which has exceeded the
// bound. laikLee_hex's append_el/3 asks isList/1 about the tail of a list
// it appends to, bound by nothing but append_el/3 itself; it is answered on
// demand, needing the list, rather than materialised until it too exceeds
// the bound.
func unboundVars(r *logic.Rule, need [][]bool, group []int) [][]int {
	bound := map[int]bool{}
	for pos, n := range need[r.Head] {
		if n {
			r.Args[pos].MarkSlots(bound)
		}
	}
	for _, l := range r.Body {
		if positive(l) && need[l.Rel] == nil && group[l.Rel] != group[r.Head] {
			addAll(bound, l.Vars)
		}
	}
	asked := make([]bool, len(r.Body))
	for progress := true; progress; {
		progress = false
		for i, l := range r.Body {
			if positive(l) && need[l.Rel] != nil && !asked[i] && len(neededVars(l, need[l.Rel], bound)) == 0 {
				asked[i], progress = true, true
				addAll(bound, l.Vars)
			}
		}
	}
	var missing [][]int
	for i, l := range r.Body {
		if positive(l) && need[l.Rel] != nil && !asked[i] {
			missing = append(missing, neededVars(l, need[l.Rel], bound))
		}
	}
	return missing
}

// neededVars returns the variables of l's needed arguments that are not
// bound.
func neededVars(l logic.Literal, need []bool, bound map[int]bool) []int {
	var out []int
	for pos, n := range need {
		if !n {
			continue
		}
		for _, v := range l.ArgVars[pos] {
			if !bound[v] {
				out = append(out, v)
			}
		}
	}
	return out
}

func addAll(set map[int]bool, vars []int) {
	for _, v := range vars {
		set[v] = true
	}
}

// groups numbers the recursive groups: relations with the same number
// depend on each other.
func (p *program) groups() []int {
	out := make([]int, len(p.rels))
	n := 0
	for _, layer := range p.strata {
		for _, scc := range layer {
			for _, i := range scc {
				out[i] = n
			}
			n++
		}
	}
	return out
}

// closeGroups puts on demand, needing nothing, every relation that shares a
// recursive group with one on demand. It reports whether it changed need.
func (p *program) closeGroups(need [][]bool) bool {
	changed := false
	for _, layer := range p.strata {
		for _, scc := range layer {
			demand := false
			for _, i := range scc {
				demand = demand || need[i] != nil
			}
			for _, i := range scc {
				if demand && need[i] == nil {
					need[i], changed = make([]bool, p.rels[i].arity), true
				}
			}
		}
	}
	return changed
}
