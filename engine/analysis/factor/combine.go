package factor

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"gdlab/engine/analysis/internal/circuit"
)

// Join is how an output (a goal value or terminal) reads the factors.
type Join string

// The ways an output can read the factors. An output is a Boolean
// function of base propositions; it decomposes when, with negations pushed
// to the leaves, it is one OR (or one AND) of parts that each read a
// single factor and the context. A goal that adds per-factor scores needs,
// for a middle value, a condition in each factor at once (an AND under the
// OR of the value's cases), and shows as Coupled.
const (
	ReadsContext Join = "context"     // reads the context only
	ReadsOne     Join = "factor"      // reads one factor (and the context)
	Disjunction  Join = "disjunction" // an OR of parts, each in one factor
	Conjunction  Join = "conjunction" // an AND of parts, each in one factor
	Coupled      Join = "coupled"     // a part under the top OR (AND) reads several factors through an AND (OR)
	Sum          Join = "sum"         // one of a role's goal values that add per-factor scores (Analysis.Sums)
)

// Combination says how one output reads the factors.
type Combination struct {
	Output  string // "terminal" or "(goal ROLE VALUE)"
	Join    Join
	Factors []int // the factors the output reads, ascending
	// WithContext: the gate above the combination adds a condition on
	// the context alone, as in "both parts done, or step 50".
	WithContext bool `json:",omitempty"`
	// Gate, for Coupled, names the gate that joins several factors and
	// two of the propositions it reads from different factors; Joined
	// lists the factors it reads.
	Gate   string `json:",omitempty"`
	Joined []int  `json:",omitempty"`
}

// combine classifies the terminal and every goal output.
func (a *Analysis) combine(ctx context.Context, c *circuit.Circuit) error {
	cl := &classifier{ctx: ctx, a: a, c: c, w: circuit.NewWalker(c)}
	t := cl.classify("terminal", c.Terminal)
	a.Terminal = &t
	a.Goals = make([][]Combination, len(c.Goals))
	a.Sums = make([][]Score, len(c.Goals))
	for r, gs := range c.Goals {
		if err := ctx.Err(); err != nil {
			return err
		}
		for _, g := range gs {
			out := fmt.Sprintf("(goal %s %s)", a.Roles[r], g.Text)
			a.Goals[r] = append(a.Goals[r], cl.classify(out, g.Lit))
		}
		if err := ctx.Err(); err != nil { // the walks below stop early when ctx is done
			return err
		}
		if !a.opt.NoSums && slices.ContainsFunc(a.Goals[r], func(c Combination) bool { return c.Join == Coupled }) {
			a.markSum(cl, r)
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	a.markRelevant()
	return nil
}

// markRelevant marks the factors some goal or the terminal reads.
func (a *Analysis) markRelevant() {
	mark := func(c Combination) {
		for _, k := range c.Factors {
			a.Factors[k].Relevant = true
		}
	}
	mark(*a.Terminal)
	for _, gs := range a.Goals {
		for _, g := range gs {
			mark(g)
		}
	}
}

// markSum makes role r's goal outputs Sum when they add per-factor scores.
func (a *Analysis) markSum(cl *classifier, r int) {
	scores, ok := cl.sum(r)
	if !ok {
		return
	}
	a.Sums[r] = scores
	for i := range a.Goals[r] {
		a.Goals[r][i].Join, a.Goals[r][i].Gate, a.Goals[r][i].Joined = Sum, "", nil
	}
}

// classifier reads outputs against the factors. Its walks stop early
// when ctx is done; the caller then returns ctx's error.
type classifier struct {
	ctx context.Context
	a   *Analysis
	c   *circuit.Circuit
	w   *circuit.Walker
}

// factors returns the factors l reads, ascending, and for each its first
// base proposition met.
func (cl *classifier) factors(l circuit.Lit) (ks, witness []int) {
	cl.w.Support([]circuit.Lit{l}, func(b int) {
		if k := cl.a.factorOf[b]; k >= 0 && !slices.Contains(ks, k) {
			ks = append(ks, k)
			witness = append(witness, b)
		}
	}, func(int) {})
	order := make([]int, len(ks))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(x, y int) int { return ks[x] - ks[y] })
	sk, sw := make([]int, len(ks)), make([]int, len(ks))
	for i, o := range order {
		sk[i], sw[i] = ks[o], witness[o]
	}
	return sk, sw
}

// gateKind is l's gate kind with l's negation pushed inside (De Morgan).
func (cl *classifier) gateKind(l circuit.Lit) (circuit.Kind, []circuit.Lit, bool) {
	k, neg, in := cl.c.Node(l)
	if k != circuit.KindAnd && k != circuit.KindOr {
		return k, nil, false
	}
	if neg {
		k = circuit.KindAnd + circuit.KindOr - k
	}
	return k, in, neg
}

func (cl *classifier) classify(out string, l circuit.Lit) Combination {
	ks, _ := cl.factors(l)
	comb := Combination{Output: out, Factors: ks}
	switch len(ks) {
	case 0:
		comb.Join = ReadsContext
		return comb
	case 1:
		comb.Join = ReadsOne
		return comb
	}
	l, comb.WithContext = cl.skipContext(l)
	kind, _, _ := cl.gateKind(l)
	comb.Join = Disjunction
	if kind == circuit.KindAnd {
		comb.Join = Conjunction
	}
	if gate, ks := cl.coupling(l, kind); gate != "" {
		comb.Join, comb.Gate, comb.Joined = Coupled, gate, ks
	}
	return comb
}

// skipContext descends from l through gates where a single input reads
// factors and every other reads the context only, as in "terminal when
// both parts are done, or at step 50": the context parts join no factors.
func (cl *classifier) skipContext(l circuit.Lit) (circuit.Lit, bool) {
	skipped := false
	for {
		_, in, neg := cl.gateKind(l)
		next, reading := circuit.Lit(0), 0
		for _, ch := range in {
			if ks, _ := cl.factors(ch); len(ks) > 0 {
				next, reading = ch, reading+1
			}
		}
		if reading != 1 || len(in) < 2 {
			return l, skipped
		}
		if neg {
			next ^= 1
		}
		l, skipped = next, true
	}
}

// coupling flattens the gates of kind under l that read several factors
// and returns the first gate of the other kind that reads several, named,
// and the factors it reads, or "" when there is none.
func (cl *classifier) coupling(l circuit.Lit, kind circuit.Kind) (string, []int) {
	stack := []circuit.Lit{l}
	seen := map[circuit.Lit]bool{l: true}
	for len(stack) > 0 && cl.ctx.Err() == nil {
		x := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		_, in, neg := cl.gateKind(x)
		for _, ch := range in {
			if neg {
				ch ^= 1 // push the negation into the child (constants too)
			}
			ks, witness := cl.factors(ch)
			if len(ks) < 2 {
				continue
			}
			k, _, _ := cl.gateKind(ch)
			if k == kind {
				if !seen[ch] {
					seen[ch] = true
					stack = append(stack, ch)
				}
				continue
			}
			return cl.describe(ch, k, kind, ks, witness), ks
		}
	}
	return "", nil
}

// describe names a coupling gate.
func (cl *classifier) describe(l circuit.Lit, k, parent circuit.Kind, ks, witness []int) string {
	word := map[circuit.Kind]string{circuit.KindAnd: "AND", circuit.KindOr: "OR"}
	var parts []string
	for i := range ks[:2] {
		parts = append(parts, fmt.Sprintf("%s of factor %d", cl.a.Bases[witness[i]], ks[i]))
	}
	return fmt.Sprintf("n%d, an %s under the %s, reads %s (factors %v)", cl.c.ID(l), word[k], word[parent], strings.Join(parts, " and "), ks)
}

// firstCoupled returns the first coupled output, terminal first, or nil.
func (a *Analysis) firstCoupled() *Combination {
	if a.Terminal != nil && a.Terminal.Join == Coupled {
		return a.Terminal
	}
	for _, gs := range a.Goals {
		for i := range gs {
			if gs[i].Join == Coupled {
				return &gs[i]
			}
		}
	}
	return nil
}

// joinOutput joins the factors that c's coupling gate reads.
func (a *Analysis) joinOutput(p *parts, c *Combination) {
	first := a.Factors[c.Joined[0]].Bases[0]
	for _, k := range c.Joined[1:] {
		p.join(first, a.Factors[k].Bases[0], func() string { return c.Output + " couples them at gate " + c.Gate })
	}
}
