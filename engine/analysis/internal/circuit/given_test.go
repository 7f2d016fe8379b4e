package circuit

import (
	"context"
	"math/rand/v2"
	"testing"

	"gdlab/engine/propnet/propnettest"
)

// TestGivenAgrees checks Given against the circuit it simplifies: under
// random complete assignments of the bases and inputs that give the fixed
// bases their values, every output of both evaluates alike, and the fixed
// bases' next outputs are their values.
func TestGivenAgrees(t *testing.T) {
	for _, path := range []string{
		"../../factor/testdata/coupled_next.kif",
		"../../factor/testdata/joint.kif",
		"../../latch/testdata/latches.kif",
	} {
		t.Run(path, func(t *testing.T) {
			c, err := Read(context.Background(), propnettest.Load(t, path))
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(1, 2))
			for trial := 0; trial < 50; trial++ {
				fixed, vals := randomFixed(rng, len(c.Bases))
				g, err := c.Given(fixed, vals)
				if err != nil {
					t.Fatal(err)
				}
				agree(t, c, g, fixed, vals, rng)
			}
		})
	}
}

// randomFixed draws about a third of n bases and a value for each.
func randomFixed(rng *rand.Rand, n int) ([]int, []bool) {
	var bases []int
	var vals []bool
	for b := 0; b < n; b++ {
		if rng.IntN(3) == 0 {
			bases, vals = append(bases, b), append(vals, rng.IntN(2) == 0)
		}
	}
	return bases, vals
}

// agree evaluates c and g under 20 random completions of the fixed values.
func agree(t *testing.T, c, g *Circuit, fixed []int, vals []bool, rng *rand.Rand) {
	t.Helper()
	inputs := len(c.Legal)
	all := make([]int, len(c.Bases))
	for b := range all {
		all[b] = b
	}
	for k := 0; k < 20; k++ {
		assign := make([]bool, len(c.Bases))
		for b := range assign {
			assign[b] = rng.IntN(2) == 0
		}
		for i, b := range fixed {
			assign[b] = vals[i]
		}
		in := make([]Value, inputs)
		for i := range in {
			in[i] = ValueOf(rng.IntN(2) == 0)
		}
		ec, eg := NewEvaluator(c), NewEvaluator(g)
		ec.Inputs, eg.Inputs = in, in
		same := func(what string, a, b Lit) {
			if x, y := ec.With(a, all, assign), eg.With(b, all, assign); x != y {
				t.Fatalf("%s: %v in the circuit, %v given %v = %v", what, x, y, fixed, vals)
			}
		}
		for b := range c.Next {
			want := c.Next[b]
			if i := index(fixed, b); i >= 0 {
				want = constant(vals[i])
			}
			same(c.Bases[b]+"'s next", want, g.Next[b])
		}
		for i := range c.Legal {
			if x, y := conjValue(ec, c.Legal[i], all, assign), conjValue(eg, g.Legal[i], all, assign); x != y {
				t.Fatalf("legal %d: %v in the circuit, %v given", i, x, y)
			}
		}
		for r := range c.Goals {
			for j := range c.Goals[r] {
				same("goal "+c.Goals[r][j].Text, c.Goals[r][j].Lit, g.Goals[r][j].Lit)
			}
		}
		same("terminal", c.Terminal, g.Terminal)
	}
}

// conjValue evaluates the conjunction of a legal output's literals.
func conjValue(e *Evaluator, ls []Lit, bases []int, vals []bool) Value {
	v := True
	for _, l := range ls {
		if x := e.With(l, bases, vals); x != True {
			v = x
		}
	}
	return v
}

func index(xs []int, x int) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}
