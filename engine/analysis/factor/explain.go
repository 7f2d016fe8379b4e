package factor

import (
	"fmt"
	"strings"
)

// maxListed bounds the factors and the joint moves Explain lists.
const maxListed = 8

// Explain describes the factoring in sentences: the context, each factor
// with its size and moves, noops and joint moves, how the outputs combine
// the factors, and, when the game does not factor, the joins that coupled
// its candidate parts.
func (a *Analysis) Explain() []string {
	var out []string
	out = append(out, fmt.Sprintf("%d base propositions: %d context, %d factors (%d with moves)",
		len(a.Bases), len(a.Context), len(a.Factors), a.moving()))
	if len(a.Given) > 0 {
		out = append(out, "given, for the rest of the game: "+a.givenText(6))
	}
	if len(a.Context) > 0 {
		out = append(out, "context: "+a.facts(a.Context, 6))
	}
	for k, f := range a.Factors {
		if k == maxListed {
			out = append(out, fmt.Sprintf("… and %d more factors", len(a.Factors)-maxListed))
			break
		}
		nb, nm := f.Size()
		unread := ""
		if !f.Relevant && a.Terminal != nil {
			unread = " (no goal or terminal reads it)"
		}
		out = append(out, fmt.Sprintf("factor %d%s: %d base propositions, %d moves (%s): %s", k, unread, nb, nm, a.moveCounts(f), a.facts(f.Bases, 4)))
	}
	for r, ms := range a.Noops {
		if len(ms) > 0 {
			out = append(out, fmt.Sprintf("%s has %d moves that change no factor (noops), e.g. %s", a.Roles[r], len(ms), a.Moves[r][ms[0]]))
		}
	}
	for i, j := range a.Joint {
		if i == maxListed {
			out = append(out, fmt.Sprintf("… and %d more joint moves", len(a.Joint)-maxListed))
			break
		}
		out = append(out, fmt.Sprintf("joint move: (does %s %s) changes factors %v", a.Roles[j.Role], a.Moves[j.Role][j.Move], j.Factors))
	}
	if !a.Factored() {
		out = append(out, fmt.Sprintf("does not factor: %d joins of candidate parts; between the largest:", a.Joins))
		for _, c := range a.Couplings {
			out = append(out, fmt.Sprintf("  %s (parts of %d and %d)", c.Why, c.Sizes[0], c.Sizes[1]))
		}
	}
	if a.Terminal != nil {
		out = append(out, a.Terminal.String())
	}
	for _, gs := range a.Goals {
		for _, g := range gs {
			out = append(out, g.String())
		}
	}
	return out
}

// String is the combination as a sentence.
func (c Combination) String() string {
	s := fmt.Sprintf("%s: %s", c.Output, c.Join)
	if len(c.Factors) > 0 {
		s += fmt.Sprintf(" of factors %v", c.Factors)
	}
	if c.WithContext {
		s += ", with a condition on the context"
	}
	if c.Gate != "" {
		s += " at gate " + c.Gate
	}
	return s
}

// moving counts the factors in which some role moves.
func (a *Analysis) moving() int {
	n := 0
	for _, f := range a.Factors {
		if _, m := f.Size(); m > 0 {
			n++
		}
	}
	return n
}

func (a *Analysis) moveCounts(f Factor) string {
	var parts []string
	for r, ms := range f.Moves {
		parts = append(parts, fmt.Sprintf("%s %d", a.Roles[r], len(ms)))
	}
	return strings.Join(parts, ", ")
}

// facts lists up to max facts of the base propositions bs.
func (a *Analysis) facts(bs []int, max int) string {
	var parts []string
	for i, b := range bs {
		if i == max {
			parts = append(parts, fmt.Sprintf("… (%d more)", len(bs)-max))
			break
		}
		parts = append(parts, a.Bases[b])
	}
	return strings.Join(parts, " ")
}

// givenText lists the given facts with their values, at most max of them.
func (a *Analysis) givenText(max int) string {
	var parts []string
	for i, f := range a.Given {
		if i == max {
			parts = append(parts, fmt.Sprintf("and %d more", len(a.Given)-max))
			break
		}
		parts = append(parts, fmt.Sprintf("%s %v", a.Bases[f.Base], f.Value))
	}
	return strings.Join(parts, ", ")
}
