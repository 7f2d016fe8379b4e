package factor

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"gdlab/engine/analysis/internal/circuit"
)

// A role's goal is a sum of per-factor scores when each of its goal
// outputs is an OR of cases, each case an AND with one condition on each
// of the same factors, the cases of all values together are every
// combination of the factors' conditions exactly once, and each condition
// can be given a score so that every case's scores add up to its value.
// (Each factor's conditions must then also be exclusive and exhaustive in
// the states played, which the network does not show; Verify checks the
// sums on the states it samples.)

// Score is a condition on one factor and the score it adds to a goal that
// is a sum.
type Score struct {
	Factor int
	// Lits are the condition: it holds when every one of these literals
	// of the network's gates holds.
	Lits  []circuit.Lit
	Value float64
}

// sumCase is one case of a goal value: a condition per factor, each the
// AND of its sorted literals.
type sumCase struct {
	value int
	conds map[int][]circuit.Lit
}

// condKey names a condition.
func condKey(ls []circuit.Lit) string { return fmt.Sprint(ls) }

// Bounds of the sum test: a goal with more cases, or more conditions to
// score, is no sum here (the elimination is cubic in the conditions).
const (
	maxSumCases      = 1024
	maxSumConditions = 128
)

// sum tries to read role r's goal outputs as a sum of per-factor scores.
func (cl *classifier) sum(r int) ([]Score, bool) {
	var cases []sumCase
	for _, g := range cl.c.Goals[r] {
		if !g.OK || cl.ctx.Err() != nil {
			return nil, false
		}
		cs, ok := cl.cases(g.Lit, maxSumCases-len(cases))
		if !ok {
			return nil, false
		}
		for _, c := range cs {
			cases = append(cases, sumCase{g.Value, c})
		}
	}
	if len(cases) == 0 || !complete(cases) {
		return nil, false
	}
	return solve(cases)
}

// cases splits l into its cases (an OR's inputs, or l itself), each an
// AND of conjuncts that each read one factor; the conjuncts on the same
// factor make its condition. A conjunct on no factor, or on several,
// makes it no sum.
func (cl *classifier) cases(l circuit.Lit, max int) ([]map[int][]circuit.Lit, bool) {
	kind, in, neg := cl.gateKind(l)
	alts := []circuit.Lit{l}
	if kind == circuit.KindOr && len(in) > max {
		return nil, false
	}
	if kind == circuit.KindOr {
		alts = alts[:0]
		for _, x := range in {
			if neg {
				x ^= 1
			}
			alts = append(alts, x)
		}
	}
	var out []map[int][]circuit.Lit
	for _, alt := range alts {
		conds := map[int][]circuit.Lit{}
		for _, x := range conjuncts(cl.c, []circuit.Lit{alt}) {
			ks, _ := cl.factors(x)
			if len(ks) != 1 || cl.ctx.Err() != nil {
				return nil, false
			}
			conds[ks[0]] = append(conds[ks[0]], x)
		}
		for _, ls := range conds {
			slices.Sort(ls)
		}
		out = append(out, conds)
	}
	return out, true
}

// complete reports whether the cases name the same factors and are every
// combination of their conditions exactly once.
func complete(cases []sumCase) bool {
	factors := keys(cases[0].conds)
	if len(factors) < 2 {
		return false
	}
	seen := map[string]bool{}
	conds := map[int]map[string]bool{}
	for _, c := range cases {
		if !slices.Equal(keys(c.conds), factors) {
			return false
		}
		var key []string
		for _, k := range factors {
			if conds[k] == nil {
				conds[k] = map[string]bool{}
			}
			conds[k][condKey(c.conds[k])] = true
			key = append(key, condKey(c.conds[k]))
		}
		if seen[strings.Join(key, " ")] {
			return false
		}
		seen[strings.Join(key, " ")] = true
	}
	n := 1
	for _, k := range factors {
		n *= len(conds[k])
	}
	return n == len(cases)
}

func keys(m map[int][]circuit.Lit) []int {
	var out []int
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// solve finds scores for the conditions with every case adding up to its
// value: least squares by Gaussian elimination on the normal equations,
// then an exact check of every case.
func solve(cases []sumCase) ([]Score, bool) {
	type cond struct {
		k   int
		key string
	}
	index := map[cond]int{}
	var conds []cond
	var lits [][]circuit.Lit
	for _, c := range cases {
		for _, k := range keys(c.conds) {
			x := cond{k, condKey(c.conds[k])}
			if _, ok := index[x]; !ok {
				index[x] = len(conds)
				conds = append(conds, x)
				lits = append(lits, c.conds[k])
			}
		}
	}
	n := len(conds)
	if n > maxSumConditions {
		return nil, false
	}
	// The scores of a factor may all shift by a constant that another
	// factor's take back: pin every factor's first condition but one.
	pinned := map[int]bool{}
	first := map[int]bool{}
	for i, c := range conds {
		if !first[c.k] {
			first[c.k] = true
			if len(first) > 1 {
				pinned[i] = true
			}
		}
	}
	a := make([][]float64, n)
	for i := range a {
		a[i] = make([]float64, n+1)
	}
	for _, c := range cases {
		var vars []int
		for _, k := range keys(c.conds) {
			vars = append(vars, index[cond{k, condKey(c.conds[k])}])
		}
		for _, i := range vars {
			for _, j := range vars {
				a[i][j]++
			}
			a[i][n] += float64(c.value)
		}
	}
	for i := range pinned {
		clear(a[i])
		a[i][i] = 1
	}
	x, ok := gauss(a)
	if !ok {
		return nil, false
	}
	for _, c := range cases {
		s := 0.0
		for _, k := range keys(c.conds) {
			s += x[index[cond{k, condKey(c.conds[k])}]]
		}
		if math.Abs(s-float64(c.value)) > 1e-6 {
			return nil, false
		}
	}
	out := make([]Score, n)
	for i, c := range conds {
		out[i] = Score{Factor: c.k, Lits: lits[i], Value: x[i]}
	}
	return out, true
}

// gauss solves the square system a (n rows, n+1 columns with the right
// side last) by elimination with partial pivoting; a singular system gives
// false.
func gauss(a [][]float64) ([]float64, bool) {
	n := len(a)
	for col := 0; col < n; col++ {
		p := col
		for r := col + 1; r < n; r++ {
			if math.Abs(a[r][col]) > math.Abs(a[p][col]) {
				p = r
			}
		}
		if math.Abs(a[p][col]) < 1e-9 {
			return nil, false
		}
		a[col], a[p] = a[p], a[col]
		for r := 0; r < n; r++ {
			if r == col || a[r][col] == 0 {
				continue
			}
			f := a[r][col] / a[col][col]
			for c := col; c <= n; c++ {
				a[r][c] -= f * a[col][c]
			}
		}
	}
	x := make([]float64, n)
	for i := range x {
		x[i] = a[i][n] / a[i][i]
	}
	return x, true
}
