package emulate

import (
	"fmt"

	"gdlab/engine/analysis/internal/circuit"

	"gdlab/engine/analysis/latch"
	"gdlab/engine/game"
	"gdlab/engine/propnet"
)

// VirtualTerminal decides states whose final outcome the counts already
// fix: the counted propositions are positive latches, so no count goes
// down, and the counts share a set of Size positions, so together they
// can still grow by Size minus their sum. When every way of sharing out
// the positions left gives each role the same outcome class, the state is
// virtually terminal: search may treat it as a leaf worth those goals
// (Dots and Boxes once one side has 13 of 25 boxes).
type VirtualTerminal struct {
	Hypothesis Hypothesis // the accepted majority or compare hypothesis it relies on
	Why        string

	factIndex map[string]int
}

// virtualTerminal returns the inference from the first accepted hypothesis
// that justifies it, or nil.
func virtualTerminal(vs []Verdict, an *latch.Analysis, factIndex map[string]int) *VirtualTerminal {
	for i := range vs {
		v := &vs[i]
		if why, ok := justifiesVirtual(v, an); ok {
			vt := &VirtualTerminal{Hypothesis: v.Hypothesis, Why: why, factIndex: factIndex}
			return vt
		}
	}
	return nil
}

// justifiesVirtual checks the conditions and explains them.
func justifiesVirtual(v *Verdict, an *latch.Analysis) (string, bool) {
	h := &v.Hypothesis
	if !v.Accepted || h.Held || h.Form == Cardinality || h.Form == Compare && len(h.Counters) != 2 {
		return "", false
	}
	if v.MaxTotal > h.Size {
		return "", false
	}
	example := ""
	for _, c := range h.Counters {
		for _, b := range c.Bases {
			l, ok := an.Latch(b)
			if !ok || !l.Positive {
				return "", false
			}
			if example == "" {
				example = l.Why
			}
		}
	}
	why := fmt.Sprintf("%s is accepted (%s); all %d counted propositions are positive latches (e.g. %s), so no count goes down; "+
		"the set has %d positions and the largest total seen in %d sampled states was %d, so the counts can together still grow by %d minus their sum; "+
		"a state is virtually terminal when every way of sharing out the positions left gives each role the same outcome class (from the start: %d of %d)",
		h.Name(), v.Why, countedBases(h), example, h.Size, v.States, v.MaxTotal, h.Size, decisive(h), h.Size)
	return why, true
}

func countedBases(h *Hypothesis) int {
	n := 0
	for _, c := range h.Counters {
		n += len(c.Bases)
	}
	return n
}

// decisive is the smallest count that decides the game from an empty set.
func decisive(h *Hypothesis) int { return h.Size/2 + 1 }

// Decided reports whether the state whose base propositions has reports
// is virtually terminal and, if so, writes every role's final goal into
// dst (resized) and returns it.
func (v *VirtualTerminal) Decided(has func(int) bool, dst []int) ([]int, bool) {
	h := &v.Hypothesis
	var buf [8]int
	counts, ok := h.counts(has, buf[:0])
	left := h.Size - sum(counts)
	if !ok || left < 0 {
		return dst, false
	}
	dst = dst[:0]
	for r := range counts {
		lo, hi := v.extremes(counts, r, left)
		if lo != hi || h.Table[r][lo] < 0 {
			// The outcome may still change, or its goal was never sampled.
			return dst[:0], false
		}
		dst = append(dst, h.Table[r][lo])
	}
	return dst, true
}

// extremes returns role r's outcome class when the positions left all go
// to the others and when they all go to r; the classes in between lie
// between these two.
func (v *VirtualTerminal) extremes(counts []int, r, left int) (int, int) {
	h := &v.Hypothesis
	if h.Form == Majority {
		return classOf(2*counts[r], h.Size), classOf(2*(counts[r]+left), h.Size)
	}
	other := counts[1-r]
	return classOf(counts[r], other+left), classOf(counts[r]+left, other)
}

func classOf(mine, other int) int {
	switch {
	case mine > other:
		return ClassAhead
	case mine == other:
		return ClassEqual
	}
	return ClassBehind
}

// DecidedState is Decided for a game.State of the network the emulation
// was computed on, or of one with the same base propositions.
func (v *VirtualTerminal) DecidedState(s game.State) ([]int, bool) {
	if st, ok := s.(*propnet.State); ok {
		return v.Decided(st.Has, nil)
	}
	set := map[int]bool{}
	for _, f := range s.Facts() {
		if b, ok := v.factIndex[f]; ok {
			set[b] = true
		}
	}
	return v.Decided(func(b int) bool { return set[b] }, nil)
}

// BaseProps returns the base propositions of the network the emulation
// was computed on, in its numbering: the props analysis.Holds needs for
// Decided.
func (v *VirtualTerminal) BaseProps() []string { return circuit.Props(v.factIndex) }
