package factor

import (
	"context"
	"slices"
	"strings"
	"testing"

	"gdlab/engine/game"
	"gdlab/engine/propnet"
	"gdlab/engine/propnet/propnettest"
	"gdlab/engine/prover"
)

// analyze loads a testdata game and analyses it.
func analyze(t *testing.T, name string, opt Options) (*propnet.Net, *Analysis) {
	t.Helper()
	return analyzePath(t, "testdata/"+name+".kif", opt)
}

// analyzePath loads the rulesheet at path and analyses it.
func analyzePath(t *testing.T, path string, opt Options) (*propnet.Net, *Analysis) {
	t.Helper()
	net := propnettest.Load(t, path)
	a, err := Analyze(context.Background(), net, opt)
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range a.Explain() {
		t.Log(l)
	}
	return net, a
}

// moving counts the factors with moves.
func moving(a *Analysis) int { return a.moving() }

// factorFacts lists the facts of each factor with moves.
func factorFacts(a *Analysis) [][]string {
	var out [][]string
	for _, f := range a.Factors {
		if _, m := f.Size(); m == 0 {
			continue
		}
		var fs []string
		for _, b := range f.Bases {
			fs = append(fs, a.Bases[b])
		}
		out = append(out, fs)
	}
	return out
}

// coupledBy reports whether some coupling names every fragment.
func coupledBy(a *Analysis, fragments ...string) bool {
	for _, c := range a.Couplings {
		all := true
		for _, f := range fragments {
			all = all && strings.Contains(c.Why, f)
		}
		if all {
			return true
		}
	}
	return false
}

func goalJoin(a *Analysis, role int, value string) Join {
	for _, g := range a.Goals[role] {
		if strings.HasSuffix(g.Output, " "+value+")") {
			return g.Join
		}
	}
	return ""
}

// mustVerify fails the test unless Verify confirms a on m.
func mustVerify(t *testing.T, m game.Machine, a *Analysis) {
	t.Helper()
	if v := verified(t, m, a); !v.Verified() {
		t.Errorf("not verified: %+v", v)
	}
}

func verified(t *testing.T, m game.Machine, a *Analysis) *Verification {
	t.Helper()
	v, err := Verify(context.Background(), m, a, VerifyOptions{Seed: 1, Matches: 40})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("verification: %d matches, %d checks (%d vacuous, %d skipped), failures %v", v.Matches, v.Checks, v.Vacuous, v.Skipped, v.Failures)
	return v
}

// TestCounters: two counters raised apart factor, with the step counter as
// context and stay as a noop; the goal is a disjunction of the counters at
// 3, its complement a conjunction, the terminal reads the context only.
func TestCounters(t *testing.T) {
	net, a := analyze(t, "counters", Options{})
	want := [][]string{{"(p 0)", "(p 1)", "(p 2)", "(p 3)"}, {"(q 0)", "(q 1)", "(q 2)", "(q 3)"}}
	if got := factorFacts(a); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("factors %v, want %v", got, want)
	}
	if !a.Factors[0].Relevant || !a.Factors[1].Relevant {
		t.Errorf("factors %+v: the goal reads both", a.Factors)
	}
	if len(a.Context) != 7 {
		t.Errorf("context %v, want the 7 steps", a.Context)
	}
	if len(a.Noops[0]) != 1 || a.Moves[0][a.Noops[0][0]] != "stay" {
		t.Errorf("noops %v, want stay", a.Noops)
	}
	if a.Terminal.Join != ReadsContext {
		t.Errorf("terminal %v, want context", a.Terminal)
	}
	if goalJoin(a, 0, "100") != Disjunction || goalJoin(a, 0, "0") != Conjunction {
		t.Errorf("goals %v, want a disjunction for 100 and a conjunction for 0", a.Goals)
	}
	mustVerify(t, net, a)
	pr, err := prover.Load("testdata/counters.kif")
	if err != nil {
		t.Fatal(err)
	}
	mustVerify(t, pr, a) // the same check through the prover
}

// TestConjunction: a terminal "both counters at 3, or step 6" is a
// conjunction of the factors or the context; the goal a conjunction, its
// complement a disjunction.
func TestConjunction(t *testing.T) {
	net, a := analyze(t, "both", Options{})
	if moving(a) != 2 {
		t.Fatalf("%d factors with moves, want 2", moving(a))
	}
	if a.Terminal.Join != Conjunction || !a.Terminal.WithContext {
		t.Errorf("terminal %v, want a conjunction or the context", a.Terminal)
	}
	if goalJoin(a, 0, "100") != Conjunction || goalJoin(a, 0, "0") != Disjunction {
		t.Errorf("goals %v, want a conjunction for 100 and a disjunction for 0", a.Goals)
	}
	mustVerify(t, net, a)
}

// TestSum: a goal that adds 50 per counter at 3 is a sum of per-factor
// scores; Verify checks it, and fails scores changed by hand. With NoSums
// the goal couples the counters.
func TestSum(t *testing.T) {
	net, a := analyze(t, "sum", Options{})
	if moving(a) != 2 || a.Sums[0] == nil {
		t.Fatalf("%d factors, sums %v: want two factors and a sum", moving(a), a.Sums)
	}
	for _, g := range a.Goals[0] {
		if g.Join != Sum {
			t.Errorf("%v: want sum", g)
		}
	}
	mustVerify(t, net, a)
	if v := verified(t, net, a); v.SumChecks == 0 {
		t.Errorf("no sum checked: %+v", v)
	}
	a.Sums[0][0].Value += 10
	if v := verified(t, net, a); v.Verified() || len(v.Failures) == 0 || v.Failures[0].Kind != "sum" {
		t.Errorf("scores changed by hand: %+v, want a sum failure", v)
	}
	_, a = analyze(t, "sum", Options{NoSums: true})
	if moving(a) != 1 {
		t.Errorf("with NoSums: %d factors, want 1", moving(a))
	}
}

// TestRelevant: a counter no output reads is a factor, not relevant.
func TestRelevant(t *testing.T) {
	_, a := analyze(t, "idle", Options{})
	if moving(a) != 3 {
		t.Fatalf("factors %v, want three", factorFacts(a))
	}
	for _, f := range a.Factors {
		if idle := a.Bases[f.Bases[0]] == "(r 0)"; f.Relevant == idle {
			t.Errorf("factor of %s: relevant %v", a.Bases[f.Bases[0]], f.Relevant)
		}
	}
}

// TestCoupled: games that must not factor, each with the dependency that
// couples the counters named.
func TestCoupled(t *testing.T) {
	for _, c := range []struct {
		game string
		why  []string
	}{
		{"coupled_next", []string{"(next (q ", ") reads (p 0)"}},
		{"coupled_legal", []string{"(legal robot incq) reads (p 0) and the move changes (q "}},
		{"coupled_goal", []string{"(goal robot ", "couples them at gate"}},
	} {
		t.Run(c.game, func(t *testing.T) {
			_, a := analyze(t, c.game, Options{})
			if a.Factored() || moving(a) != 1 {
				t.Fatalf("%d factors with moves, want 1", moving(a))
			}
			if !coupledBy(a, c.why...) {
				t.Errorf("no coupling names %q: %v", c.why, a.Couplings)
			}
		})
	}
}

// TestJointMoveCoupling: where a base changes only under two roles' moves
// together, neither move alone provably keeps it, so the roles' factors
// are joined through it and the game does not factor.
func TestJointMoveCoupling(t *testing.T) {
	_, a := analyze(t, "collide", Options{})
	if a.Factored() {
		t.Fatalf("collide factors (%d factors with moves); alive changes when both robots step into one cell", moving(a))
	}
}

// TestOutputJoinsSwitch: without joins by outputs the coupled goal's
// counters stay apart and the goal is reported coupled, with its gate.
func TestOutputJoinsSwitch(t *testing.T) {
	_, a := analyze(t, "coupled_goal", Options{NoOutputJoins: true})
	if moving(a) != 2 {
		t.Fatalf("%d factors with moves, want 2", moving(a))
	}
	for _, g := range a.Goals[0] {
		if g.Join != Coupled || !strings.Contains(g.Gate, "(p ") || !strings.Contains(g.Gate, "(q ") {
			t.Errorf("%v: want coupled at a gate reading p and q", g)
		}
	}
}

// TestJointMoves: a move that raises both counters, always legal, is a
// joint move of the two factors; with NoJointMoves it joins them.
func TestJointMoves(t *testing.T) {
	net, a := analyze(t, "joint", Options{})
	if moving(a) != 2 || len(a.Joint) != 1 || a.Moves[0][a.Joint[0].Move] != "both" || !slices.Equal(a.Joint[0].Factors, []int{0, 1}) {
		t.Fatalf("factors %v, joint %v: want two factors joined by both", factorFacts(a), a.Joint)
	}
	mustVerify(t, net, a)
	_, a = analyze(t, "joint", Options{NoJointMoves: true})
	if moving(a) != 1 || !coupledBy(a, "(does robot both) changes both") {
		t.Errorf("with NoJointMoves: %d factors, couplings %v", moving(a), a.Couplings)
	}
}

// TestKeepTest: a frame rule that reads every other move needs the
// three-valued test; without it every move changes both counters.
func TestKeepTest(t *testing.T) {
	net, a := analyze(t, "frame_other", Options{})
	if moving(a) != 2 || len(a.Joint) != 0 || len(a.Noops[0]) != 1 {
		t.Fatalf("factors %v, joint %v, noops %v: want two factors, no joint move, stay a noop", factorFacts(a), a.Joint, a.Noops)
	}
	mustVerify(t, net, a)
	_, a = analyze(t, "frame_other", Options{NoKeepTest: true})
	if len(a.Joint) != 3 {
		t.Errorf("without the keep test: joint moves %v, want all three", a.Joint)
	}
	_, a = analyze(t, "frame_other", Options{NoKeepTest: true, NoJointMoves: true})
	if moving(a) != 1 {
		t.Errorf("without the keep test and joint moves: %d factors, want 1", moving(a))
	}
}

// TestAbsence: a move that changes a proposition only by not being one of
// the moves its frame rule reads is an effect; the cell's blank and mark
// form one factor, and the factoring verifies.
func TestAbsence(t *testing.T) {
	net, a := analyze(t, "absence", Options{})
	want := [][]string{{"(blank a)", "(marked a)"}, {"(blank b)", "(marked b)"}}
	if got := factorFacts(a); !slices.EqualFunc(got, want, slices.Equal) || len(a.Factors) != 2 {
		t.Errorf("factors %v, want %v", got, want)
	}
	mustVerify(t, net, a)
}

// TestContext: a turn marker is context; without the context every move's
// legality reads it and the counters join through it.
func TestContext(t *testing.T) {
	net, a := analyze(t, "turns", Options{})
	if moving(a) != 2 || len(a.Context) != 2 {
		t.Fatalf("factors %v, context %v: want two factors, the control as context", factorFacts(a), a.Context)
	}
	for r := range a.Roles {
		if len(a.Noops[r]) != 1 || a.Moves[r][a.Noops[r][0]] != "noop" {
			t.Errorf("%s's noops %v, want noop", a.Roles[r], a.Noops[r])
		}
	}
	if a.Terminal.Join != Disjunction || goalJoin(a, 0, "100") != ReadsOne || goalJoin(a, 1, "100") != ReadsOne {
		t.Errorf("terminal %v, goals %v: want a disjunction, one factor each", a.Terminal, a.Goals)
	}
	mustVerify(t, net, a)
	_, a = analyze(t, "turns", Options{NoContext: true})
	if moving(a) != 1 || !coupledBy(a, "reads (control ") {
		t.Errorf("without the context: %d factors, couplings %v", moving(a), a.Couplings)
	}
}

// TestProductMoves: moves made of one move in each counter join them by
// default; with ProductMoves they stay apart, and the factoring verifies.
func TestProductMoves(t *testing.T) {
	_, a := analyze(t, "product", Options{})
	if moving(a) != 1 || !coupledBy(a, "(legal robot (do ", "and the move changes") {
		t.Errorf("default: %d factors, couplings %v", moving(a), a.Couplings)
	}
	net, a := analyze(t, "product", Options{ProductMoves: true})
	if moving(a) != 2 || len(a.Joint) != 1 || a.Moves[0][a.Joint[0].Move] != "(do incp incq)" {
		t.Fatalf("with ProductMoves: factors %v, joint %v", factorFacts(a), a.Joint)
	}
	mustVerify(t, net, a)
}

// TestVerifyFindsCoupling: the factoring of counters.kif is wrong for the
// coupled variants, whose bases and moves have the same names; Verify,
// given it with their machines, must report the failure.
func TestVerifyFindsCoupling(t *testing.T) {
	_, a := analyze(t, "counters", Options{})
	for game, kind := range map[string]string{"coupled_next": "next", "coupled_legal": "legal"} {
		net := propnettest.Load(t, "testdata/"+game+".kif")
		v := verified(t, net, a)
		if v.Verified() || len(v.Failures) == 0 || v.Failures[0].Kind != kind {
			t.Errorf("%s: %+v, want a %s failure", game, v, kind)
		}
	}
}

// TestVerifyErrors: bad input is an error, not a panic.
func TestVerifyErrors(t *testing.T) {
	net, a := analyze(t, "counters", Options{})
	if _, err := Verify(context.Background(), nil, a, VerifyOptions{}); err == nil {
		t.Error("no machine: no error")
	}
	turns := propnettest.Load(t, "testdata/turns.kif")
	if _, err := Verify(context.Background(), turns, a, VerifyOptions{}); err == nil {
		t.Error("another game's roles: no error")
	}
	if _, err := Analyze(context.Background(), nil, Options{}); err == nil {
		t.Error("no network: no error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Analyze(ctx, net, Options{}); err == nil {
		t.Error("cancelled: no error")
	}
}
