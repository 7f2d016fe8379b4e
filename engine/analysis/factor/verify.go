package factor

import (
	"context"
	"fmt"
	"maps"
	"math"
	"math/rand/v2"
	"slices"
	"strings"

	"gdlab/engine/analysis"
	"gdlab/engine/analysis/internal/circuit"
	"gdlab/engine/game"
)

// VerifyOptions tune Verify. The zero value gives the defaults.
type VerifyOptions struct {
	Matches  int    // seeded random matches played; 0 means 50
	MaxSteps int    // joint moves per match at most; 0 means 200
	Checks   int    // checks at most, all factors together; 0 means 2000
	Seed     uint64 // match k is played with game.NewRand(Seed + k)
	// Start is the state every match starts from; nil means the initial
	// state. An analysis with given facts (AnalyzeGiven) must be checked
	// from a state that holds them.
	Start game.State
}

func (o VerifyOptions) matches() int  { return positive(o.Matches, 50) }
func (o VerifyOptions) maxSteps() int { return positive(o.MaxSteps, 200) }
func (o VerifyOptions) checks() int   { return positive(o.Checks, 2000) }

func positive(v, def int) int {
	if v <= 0 {
		return def
	}
	return v
}

// perStep bounds the factors checked after one joint move; the others
// wait for the next steps, in turn.
const perStep = 4

// Failure is a check a factor did not pass: in a state mixing the factor's
// part (and the context) of a sampled state with the rest of another, a
// move of the factor was legal in one and not the other ("legal"), or the
// factor's part of the next state differed ("next"); or a fact the
// analysis was given did not keep its value in the match ("given", Factor
// -1).
type Failure struct {
	Factor      int
	Match, Step int // where the sampled state was met (0-based)
	Kind        string
	Detail      string
}

// String describes the failure: its kind, the joint move and what differed.
func (f Failure) String() string {
	return fmt.Sprintf("factor %d, match %d, step %d: %s: %s", f.Factor, f.Match, f.Step, f.Kind, f.Detail)
}

// Verification is the outcome of Verify.
type Verification struct {
	sums    bool // the analysis found sums
	Matches int  // matches played
	// Checks counts the factor checks made whose mixed state differed
	// from the sampled one outside the factor; Vacuous those where it did
	// not (short matches give few distinct states), which prove nothing.
	Checks, Vacuous int
	// Skipped counts checks given up because a role had no legal move
	// outside the factor in the mixed state to stand for its move.
	Skipped int
	// SumChecks counts the sampled states where a goal read as a sum of
	// per-factor scores (Analysis.Sums) was compared with the game's.
	SumChecks int
	// Failures lists the first failure of each factor that failed, of
	// each role whose sum failed (Kind "sum", Factor -1), and the first
	// given fact that changed (Kind "given").
	Failures []Failure
}

// Verified reports whether some check was made, and some sum check for
// every sum found, and none failed.
func (v *Verification) Verified() bool {
	return v.Checks > 0 && len(v.Failures) == 0 && (!v.sums || v.SumChecks > 0)
}

// Verify checks by seeded random play on m, a machine of the analysed
// game, that each factor's part of the state evolves on its own. At a
// sampled state s with joint move j, and another sampled state t, it
// builds the state u holding s's facts in the factor and the context and
// t's elsewhere, and checks that the factor's moves legal in u are those
// legal in s, and that playing j in u, each move outside the factor
// replaced by one legal in u outside the factor when it is not legal
// there, gives the factor and the context the facts j gave them from s.
// States are built through analysis.StateOf, so m must be a network (under
// any wrappers) or a machine with a StateOf method, such as the prover.
func Verify(ctx context.Context, m game.Machine, a *Analysis, opt VerifyOptions) (*Verification, error) {
	if a == nil || m == nil {
		return nil, fmt.Errorf("factor: Verify needs a machine and an analysis")
	}
	if !slices.Equal(m.Roles(), a.Roles) {
		return nil, fmt.Errorf("factor: the machine's roles %v are not the analysis's %v", m.Roles(), a.Roles)
	}
	if err := a.holdsGiven(m, opt.Start); err != nil {
		return nil, err
	}
	v := &verifier{m: m, a: a, res: &Verification{}, failed: map[int]bool{}, sumFailed: map[int]bool{}}
	v.index()
	for _, sc := range a.Sums {
		v.res.sums = v.res.sums || sc != nil
	}
	if len(a.Factors) < 2 {
		return v.res, nil // one part is the whole game: nothing to check
	}
	for k := 0; k < opt.matches() && v.res.Checks+v.res.Vacuous < opt.checks(); k++ {
		if err := v.match(ctx, k, game.NewRand(opt.Seed+uint64(k)), opt); err != nil {
			return v.res, err
		}
		v.res.Matches++
	}
	return v.res, nil
}

// holdsGiven checks that start (nil: m's initial state) holds the facts
// the analysis was given.
func (a *Analysis) holdsGiven(m game.Machine, start game.State) error {
	if len(a.Given) == 0 {
		return nil
	}
	if start == nil {
		start = m.Initial()
	}
	facts := map[string]bool{}
	for _, f := range start.Facts() {
		facts[f] = true
	}
	for _, f := range a.Given {
		if facts[a.Bases[f.Base]] != f.Value {
			return fmt.Errorf("factor: the start state does not hold the given fact %s %v", a.Bases[f.Base], f.Value)
		}
	}
	return nil
}

// checkGiven records a failure, the first time, when a given fact does
// not hold in after, the state joint led to: the analysis assumed it kept
// its value, and the mixed states, which take the context (the given
// facts among it) from one state, cannot see that it does not.
func (v *verifier) checkGiven(match, step int, joint []game.Move, after view) {
	if len(v.a.Given) == 0 || v.givenFailed {
		return
	}
	for _, f := range v.a.Given {
		if fact := v.a.Bases[f.Base]; after.has(fact) != f.Value {
			v.givenFailed = true
			v.res.Failures = append(v.res.Failures, Failure{Factor: -1, Match: match, Step: step, Kind: "given",
				Detail: fmt.Sprintf("after %s, %s is %v", v.jointText(joint), fact, !f.Value)})
			return
		}
	}
}

// verifier holds one verification's tables.
type verifier struct {
	m      game.Machine
	a      *Analysis
	res    *Verification
	partOf map[string]int        // fact -> its factor, or context (-1)
	moves  [][]map[string]string // per factor, per role: its moves' texts, to their projections
	pool   []view                // states met, for the rest of mixed states
	next   int                   // the next factor to check
	failed map[int]bool
	// givenFailed marks that a given fact changed (reported once).
	givenFailed bool
	// sumFailed marks the roles whose sum failed; eval reads the
	// network's gates for the sums' conditions.
	sumFailed map[int]bool
	eval      *circuit.Evaluator
}

// outside is the part of a fact of no base proposition of the analysis:
// in no factor and not in the context.
const outside = -2

// view is a state with its facts, sorted, and the part of each (its
// factor, the context -1, or outside), read once however many checks
// use the state.
type view struct {
	s     game.State
	facts []string
	part  []int
}

// view reads s's facts and their parts.
func (v *verifier) view(s game.State) view {
	w := view{s: s, facts: slices.Clone(s.Facts())}
	slices.Sort(w.facts)
	w.part = make([]int, len(w.facts))
	for i, f := range w.facts {
		k, ok := v.partOf[f]
		if !ok {
			k = outside
		}
		w.part[i] = k
	}
	return w
}

// has reports whether the state holds fact.
func (w view) has(fact string) bool {
	_, ok := slices.BinarySearch(w.facts, fact)
	return ok
}

// in reports whether fact i of the view lies in factor k or the context.
func (w view) in(i, k int) bool { return w.part[i] == k || w.part[i] == -1 }

func (v *verifier) index() {
	v.partOf = map[string]int{}
	for _, b := range v.a.Context {
		v.partOf[v.a.Bases[b]] = -1
	}
	for k, f := range v.a.Factors {
		for _, b := range f.Bases {
			v.partOf[v.a.Bases[b]] = k
		}
		ms := make([]map[string]string, len(v.a.Roles))
		for r, rm := range f.Moves {
			ms[r] = map[string]string{}
			for _, mv := range rm {
				ms[r][v.a.Moves[r][mv]] = v.projection(f, r, mv)
			}
		}
		v.moves = append(v.moves, ms)
	}
}

// projection names what move mv of role r does in factor f: the facts of
// f it can change. Moves of several factors at once that change the same
// facts of f are the same move there.
func (v *verifier) projection(f Factor, r int, mv game.Move) string {
	var facts []string
	for _, b := range v.a.effects[r][mv] {
		if _, ok := slices.BinarySearch(f.Bases, b); ok {
			facts = append(facts, v.a.Bases[b])
		}
	}
	return strings.Join(facts, " ")
}

// match plays one random match, checking factors at every step.
func (v *verifier) match(ctx context.Context, match int, rng *rand.Rand, opt VerifyOptions) error {
	start := opt.Start
	if start == nil {
		start = v.m.Initial()
	}
	s := v.view(start)
	for step := 0; step < opt.maxSteps() && v.res.Checks+v.res.Vacuous < opt.checks(); step++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := v.checkSums(match, step, s); err != nil {
			return err
		}
		if term, err := v.m.Terminal(s.s); err != nil || term {
			return err
		}
		joint, err := v.randomJoint(s.s, rng)
		if err != nil {
			return err
		}
		next, err := v.m.Next(s.s, joint)
		if err != nil {
			return err
		}
		after := v.view(next)
		v.checkGiven(match, step, joint, after)
		v.pool = append(v.pool, s)
		if len(v.pool) > 256 {
			v.pool = slices.Delete(v.pool, 0, 1)
		}
		for i := 0; i < min(perStep, len(v.a.Factors)); i++ {
			k := v.next % len(v.a.Factors)
			v.next++
			other := v.pool[rng.IntN(len(v.pool))]
			if err := v.check(k, match, step, s, joint, after, other, rng); err != nil {
				return err
			}
		}
		s = after
	}
	return nil
}

// randomJoint draws a legal joint move in s.
func (v *verifier) randomJoint(s game.State, rng *rand.Rand) ([]game.Move, error) {
	joint := make([]game.Move, len(v.a.Roles))
	for r := range joint {
		legal, err := v.m.Legal(s, r, nil)
		if err != nil {
			return nil, err
		}
		if len(legal) == 0 {
			return nil, fmt.Errorf("factor: %s has no legal move in a non-terminal state", v.a.Roles[r])
		}
		joint[r] = legal[rng.IntN(len(legal))]
	}
	return joint, nil
}

// check runs factor k's checks at state s with joint move joint (leading to
// after), taking the rest of the mixed state from other.
func (v *verifier) check(k, match, step int, s view, joint []game.Move, after, other view, rng *rand.Rand) error {
	if v.failed[k] {
		return nil
	}
	facts := mixed(k, s, other)
	if slices.Equal(facts, s.facts) {
		v.res.Vacuous++
		return nil
	}
	u, err := analysis.StateOf(v.m, facts)
	if err != nil {
		return err
	}
	fail := func(kind, detail string) {
		v.failed[k] = true
		v.res.Failures = append(v.res.Failures, Failure{Factor: k, Match: match, Step: step, Kind: kind, Detail: detail})
	}
	v.res.Checks++
	if d, err := v.legalDiffers(k, s.s, u); err != nil || d != "" {
		if d != "" {
			fail("legal", d)
		}
		return err
	}
	ju, err := v.standIns(k, u, joint, rng)
	if err != nil || ju == nil {
		if ju == nil && err == nil {
			v.res.Skipped++
		}
		return err
	}
	afterU, err := v.m.Next(u, ju)
	if err != nil {
		return err
	}
	if d := partDiffers(k, after, v.view(afterU)); d != "" {
		fail("next", fmt.Sprintf("after %s: %s", v.jointText(joint), d))
	}
	return nil
}

// legalDiffers compares factor k's legal moves in s and u.
func (v *verifier) legalDiffers(k int, s, u game.State) (string, error) {
	for r := range v.a.Roles {
		a, err := v.legalIn(k, r, s)
		if err != nil {
			return "", err
		}
		b, err := v.legalIn(k, r, u)
		if err != nil {
			return "", err
		}
		if !slices.Equal(a, b) {
			return fmt.Sprintf("%s's moves of the factor: %v in the sampled state, %v with the rest of another", v.a.Roles[r], a, b), nil
		}
	}
	return "", nil
}

// legalIn lists what role r's legal moves in s do in factor k: their
// projections, each once, sorted ("" is not listed: a move elsewhere).
func (v *verifier) legalIn(k, r int, s game.State) ([]string, error) {
	legal, err := v.m.Legal(s, r, nil)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, mv := range legal {
		if p, ok := v.moves[k][r][v.m.MoveText(r, mv)]; ok && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out, nil
}

// standIns returns joint with every move not legal in u replaced by a
// random legal move of u that does the same in factor k (a move outside
// the factor by one outside it), or nil when some role has none.
func (v *verifier) standIns(k int, u game.State, joint []game.Move, rng *rand.Rand) ([]game.Move, error) {
	out := slices.Clone(joint)
	for r, mv := range joint {
		legal, err := v.m.Legal(u, r, nil)
		if err != nil {
			return nil, err
		}
		if slices.Contains(legal, mv) {
			continue
		}
		want, mine := v.moves[k][r][v.m.MoveText(r, mv)]
		legal = slices.DeleteFunc(legal, func(x game.Move) bool {
			p, ok := v.moves[k][r][v.m.MoveText(r, x)]
			return ok != mine || p != want
		})
		if len(legal) == 0 {
			return nil, nil
		}
		out[r] = legal[rng.IntN(len(legal))]
	}
	return out, nil
}

// mixed returns the facts of s in factor k and the context and those of
// other elsewhere, sorted: the two views' facts are sorted, so a merge
// keeps them so.
func mixed(k int, s, other view) []string {
	out := make([]string, 0, len(s.facts))
	i, j := 0, 0
	for i < len(s.facts) || j < len(other.facts) {
		for i < len(s.facts) && !s.in(i, k) {
			i++
		}
		for j < len(other.facts) && other.in(j, k) {
			j++
		}
		switch {
		case i < len(s.facts) && (j == len(other.facts) || s.facts[i] < other.facts[j]):
			out = append(out, s.facts[i])
			i++
		case j < len(other.facts):
			out = append(out, other.facts[j])
			j++
		}
	}
	return out
}

// partDiffers names the facts of factor k and the context that hold in
// exactly one of x and y.
func partDiffers(k int, x, y view) string {
	var onlyX, onlyY []string
	i, j := 0, 0
	for {
		for i < len(x.facts) && !x.in(i, k) {
			i++
		}
		for j < len(y.facts) && !y.in(j, k) {
			j++
		}
		if i == len(x.facts) && j == len(y.facts) {
			break
		}
		switch {
		case j == len(y.facts) || i < len(x.facts) && x.facts[i] < y.facts[j]:
			onlyX = append(onlyX, x.facts[i]+" only from the sampled state")
			i++
		case i == len(x.facts) || y.facts[j] < x.facts[i]:
			onlyY = append(onlyY, y.facts[j]+" only from the mixed state")
			j++
		default:
			i, j = i+1, j+1
		}
	}
	diff := append(onlyX, onlyY...)
	if len(diff) > 3 {
		diff = append(diff[:3], fmt.Sprintf("… (%d more)", len(diff)-3))
	}
	return strings.Join(diff, ", ")
}

func (v *verifier) jointText(joint []game.Move) string {
	var parts []string
	for r, mv := range joint {
		parts = append(parts, v.m.MoveText(r, mv))
	}
	return "(" + strings.Join(parts, " ") + ")"
}

// checkSums compares, for each role whose goal is a sum, the game's goal
// in s (where it has one) with the scores of the conditions that hold:
// exactly one condition of each factor must hold and the scores must add
// up to the goal.
func (v *verifier) checkSums(match, step int, s view) error {
	for r, scores := range v.a.Sums {
		if scores == nil || v.sumFailed[r] {
			continue
		}
		goal, err := v.m.Goal(s.s, r)
		if err != nil {
			continue // no goal defined here
		}
		v.res.SumChecks++
		total, held := v.scoresIn(s, scores)
		detail := ""
		for _, k := range slices.Sorted(maps.Keys(held)) { // in order: the message is reproducible
			if n := held[k]; n != 1 {
				detail = fmt.Sprintf("%s's goal: %d of factor %d's conditions hold", v.a.Roles[r], n, k)
				break
			}
		}
		if detail == "" && math.Abs(total-float64(goal)) > 1e-6 {
			detail = fmt.Sprintf("%s's goal is %d, the factors' scores add up to %g", v.a.Roles[r], goal, total)
		}
		if detail != "" {
			v.sumFailed[r] = true
			v.res.Failures = append(v.res.Failures, Failure{Factor: -1, Match: match, Step: step, Kind: "sum", Detail: detail})
		}
	}
	return nil
}

// scoresIn evaluates the scores' conditions in s: their total and, per
// factor, how many hold.
func (v *verifier) scoresIn(s view, scores []Score) (float64, map[int]int) {
	if v.eval == nil {
		v.eval = circuit.NewEvaluator(v.a.circuit)
	}
	bases := make([]int, len(v.a.Bases))
	vals := make([]bool, len(v.a.Bases))
	for b, f := range v.a.Bases {
		bases[b], vals[b] = b, s.has(f)
	}
	total, held := 0.0, map[int]int{}
	for _, sc := range scores {
		if _, ok := held[sc.Factor]; !ok {
			held[sc.Factor] = 0
		}
		all := true
		for _, l := range sc.Lits {
			all = all && v.eval.With(l, bases, vals) == circuit.True
		}
		if all {
			total += sc.Value
			held[sc.Factor]++
		}
	}
	return total, held
}
