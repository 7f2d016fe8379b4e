package circuit

import "fmt"

// Given returns the circuit of the states where the given base
// propositions have the given values and keep them: each such base is a
// constant wherever a gate reads it, its next output is its value, and
// every gate whose value the constants decide becomes that constant. A
// gate left with one input passes that input on; the rest keep their
// nodes, so literals of c name the same nodes in the result. c is not
// changed.
//
// The result is the game's logic only in states where the bases hold
// those values for the rest of the game (latches that have taken their
// latched value): an analysis of it finds what holds from such a state
// on, such as factors that appear once a link between two parts is cut.
func (c *Circuit) Given(bases []int, vals []bool) (*Circuit, error) {
	if len(bases) != len(vals) {
		return nil, fmt.Errorf("circuit: %d bases given %d values", len(bases), len(vals))
	}
	s := &simplifier{c: c, memo: make([]Lit, len(c.kind)), done: make([]bool, len(c.kind)), fixed: map[int]bool{}}
	for i, b := range bases {
		if b < 0 || b >= len(c.Bases) {
			return nil, fmt.Errorf("circuit: base %d out of range", b)
		}
		s.fixed[b] = vals[i]
	}
	out := &Circuit{kind: c.kind, baseOf: c.baseOf, inputOf: c.inputOf, Bases: c.Bases, Roles: c.Roles,
		in: make([][]Lit, len(c.in))}
	s.out = out
	out.Next = make([]Lit, len(c.Next))
	for b, l := range c.Next {
		if v, ok := s.fixed[b]; ok {
			out.Next[b] = constant(v)
			continue
		}
		out.Next[b] = s.lit(l)
	}
	out.Legal = make([][]Lit, len(c.Legal))
	for i, ls := range c.Legal {
		out.Legal[i] = s.conj(ls)
	}
	out.Goals = make([][]Goal, len(c.Goals))
	for r, gs := range c.Goals {
		for _, g := range gs {
			g.Lit = s.lit(g.Lit)
			out.Goals[r] = append(out.Goals[r], g)
		}
	}
	out.Terminal = s.lit(c.Terminal)
	return out, nil
}

// simplifier propagates the given constants through a circuit.
type simplifier struct {
	c, out *Circuit
	fixed  map[int]bool
	memo   []Lit // per node: the literal it simplifies to, once done
	done   []bool
}

// constant is the literal of a truth value.
func constant(v bool) Lit {
	if v {
		return LitTrue
	}
	return LitFalse
}

// not negates a literal, constants included.
func not(l Lit) Lit {
	switch l {
	case LitTrue:
		return LitFalse
	case LitFalse:
		return LitTrue
	}
	return l ^ 1
}

// lit returns what l simplifies to.
func (s *simplifier) lit(l Lit) Lit {
	if l < 0 {
		return l
	}
	v := s.node(l.node())
	if l.neg() {
		return not(v)
	}
	return v
}

// node returns what node n (unnegated) simplifies to. The recursion
// follows the gates' depth, as the network's own evaluation does.
func (s *simplifier) node(n int32) Lit {
	if s.done[n] {
		return s.memo[n]
	}
	v := Lit(n << 1)
	switch s.c.kind[n] {
	case gBase:
		if x, ok := s.fixed[s.c.baseOf[n]]; ok && s.c.baseOf[n] >= 0 {
			v = constant(x)
		}
	case gInput:
	default:
		v = s.gate(n)
	}
	s.done[n], s.memo[n] = true, v
	return v
}

// gate simplifies an AND or OR gate: an input equal to the gate's
// absorbing constant decides it, inputs equal to its neutral constant are
// dropped, and one input left is passed on.
func (s *simplifier) gate(n int32) Lit {
	absorb, neutral := LitFalse, LitTrue // AND
	if s.c.kind[n] == gOr {
		absorb, neutral = LitTrue, LitFalse
	}
	var in []Lit
	for _, x := range s.c.in[n] {
		y := s.lit(x)
		switch y {
		case absorb:
			return absorb
		case neutral:
			continue
		}
		in = append(in, y)
	}
	switch len(in) {
	case 0:
		return neutral
	case 1:
		return in[0]
	}
	s.out.in[n] = in
	return Lit(n << 1)
}

// conj simplifies a legal output's literals, which it conjoins.
func (s *simplifier) conj(ls []Lit) []Lit {
	if len(ls) == 0 {
		return ls
	}
	var out []Lit
	for _, l := range ls {
		switch y := s.lit(l); y {
		case LitFalse:
			return []Lit{LitFalse}
		case LitTrue:
		default:
			out = append(out, y)
		}
	}
	if len(out) == 0 {
		return []Lit{LitTrue}
	}
	return out
}
