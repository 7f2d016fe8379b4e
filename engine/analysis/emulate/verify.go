package emulate

import (
	"context"
	"fmt"
	"math/rand/v2"

	"gdlab/engine/game"
	"gdlab/engine/propnet"
)

// VerifyOptions tune Verify. The zero value gives the defaults.
type VerifyOptions struct {
	Matches  int    // seeded random matches sampled; 0 means 1000
	MaxSteps int    // joint moves per match at most; 0 means 1000
	Seed     uint64 // match k is played with game.NewRand(Seed + k)
}

func (o VerifyOptions) matches() int {
	if o.Matches <= 0 {
		return 1000
	}
	return o.Matches
}

func (o VerifyOptions) maxSteps() int {
	if o.MaxSteps <= 0 {
		return 1000
	}
	return o.MaxSteps
}

// Counterexample is a sampled state where a hypothesis and the network
// disagree.
type Counterexample struct {
	Match, Step int // the match (0-based) and the joint moves before the state
	Role        string
	Network     int   // the network's goal, -1 when it has no single one
	Hypothesis  int   // the hypothesis's goal, -1 when it has none
	Counts      []int // the hypothesis's counts, per role
	Terminal    bool
	Facts       []string
}

func (c *Counterexample) String() string {
	where := "state"
	if c.Terminal {
		where = "terminal state"
	}
	return fmt.Sprintf("match %d, step %d (%s): %s's goal is %s in the network, %s by the hypothesis (counts %v)",
		c.Match, c.Step, where, c.Role, goalWord(c.Network), goalWord(c.Hypothesis), c.Counts)
}

func goalWord(g int) string {
	if g < 0 {
		return "undefined"
	}
	return fmt.Sprint(g)
}

// Verdict is the outcome of testing one hypothesis against the network.
type Verdict struct {
	Hypothesis Hypothesis // with its Table read off the network
	// Accepted: the hypothesis gave the network's goal for every role in
	// every sampled state (TerminalOnly: in every sampled terminal state,
	// the network defining no goal in any non-terminal one).
	Accepted     bool
	TerminalOnly bool
	Matches      int // random matches sampled
	States       int // states sampled
	Agreed       int // states where every role's goal agreed
	Terminals    int // terminal states sampled
	TerminalsOK  int // terminal states where every role's goal agreed
	// MaxTotal is the largest sum of the roles' counts seen; virtual
	// terminality needs it to stay within the fixed set's size.
	MaxTotal int
	// Persistent lists the counted propositions that held in some sampled
	// state and, once they held, never stopped holding within a match:
	// latches by observation, where a proof may be out of reach.
	Persistent []int
	First      *Counterexample // the first disagreement, nil when none
	Why        string
}

// Agreement is the fraction of sampled states where the hypothesis agreed.
func (v *Verdict) Agreement() float64 {
	if v.States == 0 {
		return 0
	}
	return float64(v.Agreed) / float64(v.States)
}

// tally is Verify's running record of one hypothesis.
type tally struct {
	v         Verdict
	firstTerm *Counterexample // the first disagreement in a terminal state
	seen      []map[int]bool  // per role: the goal values the hypothesis gave
}

// Verify tests each hypothesis against the network's goals in every state
// of opt.Matches seeded random matches (all roles choosing uniformly). The
// goal values of the outcome classes of majority and compare hypotheses are
// read off the first state that shows them and must hold in every other
// one. A hypothesis is accepted only when it agrees everywhere and gives at
// least two different goals to some role (a constant explains nothing).
// When ctx ends first, the verdicts cover the matches played and none is
// accepted.
func Verify(ctx context.Context, net *propnet.Net, hyps []Hypothesis, opt VerifyOptions) ([]Verdict, error) {
	ts := make([]*tally, len(hyps))
	for i, h := range hyps {
		ts[i] = newTally(h, len(net.Roles()))
	}
	s := &sampler{net: net, sim: net.NewSim(), ts: ts, netGoals: make([]int, 0, 8)}
	s.watchCounted(hyps)
	stats := &sampleStats{}
	var stopped error
	for k := 0; k < opt.matches(); k++ {
		if err := ctx.Err(); err != nil {
			stopped = err
			break
		}
		if err := s.match(ctx, k, game.NewRand(opt.Seed+uint64(k)), opt.maxSteps(), stats); err != nil {
			return nil, err
		}
	}
	if stopped == nil {
		stopped = ctx.Err() // the last match may have been cut short
	}
	out := make([]Verdict, len(ts))
	for i, t := range ts {
		out[i] = t.finish(stats, stopped, opt.matches())
		out[i].Persistent = s.persistent(&hyps[i])
	}
	return out, nil
}

func newTally(h Hypothesis, roles int) *tally {
	t := &tally{v: Verdict{Hypothesis: h}}
	if h.Form != Cardinality {
		t.v.Hypothesis.Table = make([][3]int, roles)
		for r := range t.v.Hypothesis.Table {
			t.v.Hypothesis.Table[r] = [3]int{-1, -1, -1}
		}
	}
	t.seen = make([]map[int]bool, roles)
	for r := range t.seen {
		t.seen[r] = map[int]bool{}
	}
	return t
}

// sampleStats records what the sample showed of the network itself.
type sampleStats struct {
	matches, states    int
	definedNonTerminal int // non-terminal states where some role had a goal
}

// sampler plays the random matches on one simulator.
type sampler struct {
	net      *propnet.Net
	sim      *propnet.Sim
	ts       []*tally
	netGoals []int
	counts   []int
	joint    []game.Move
	// Per base proposition, for the counted ones: watched, held in the
	// previous state, ever held, and ever stopped holding.
	watched, prev, held, fell []bool
	watch                     []int
}

// watchCounted starts tracking the counted propositions of hyps.
func (s *sampler) watchCounted(hyps []Hypothesis) {
	n := len(s.net.BaseProps())
	s.watched, s.prev, s.held, s.fell = make([]bool, n), make([]bool, n), make([]bool, n), make([]bool, n)
	for i := range hyps {
		for _, c := range hyps[i].Counters {
			for _, b := range c.Bases {
				if !s.watched[b] {
					s.watched[b] = true
					s.watch = append(s.watch, b)
				}
			}
		}
	}
}

// track updates the persistence record with the current state; first
// marks a match's initial state, which has no predecessor.
func (s *sampler) track(first bool) {
	for _, b := range s.watch {
		on := s.sim.Has(b)
		if !on && s.prev[b] && !first {
			s.fell[b] = true
		}
		s.held[b] = s.held[b] || on
		s.prev[b] = on
	}
}

// persistent returns h's counted propositions that held and never fell.
func (s *sampler) persistent(h *Hypothesis) []int {
	var out []int
	for _, c := range h.Counters {
		for _, b := range c.Bases {
			if s.held[b] && !s.fell[b] {
				out = append(out, b)
			}
		}
	}
	return out
}

// match plays one random match, checking every state on the way. A
// match cut short by ctx ends the sample (Verify then accepts nothing).
func (s *sampler) match(ctx context.Context, k int, rng *rand.Rand, maxSteps int, st *sampleStats) error {
	s.sim.Reset()
	st.matches++
	for step := 0; ; step++ {
		term := terminal(s.sim)
		s.check(k, step, term, st)
		if term || step >= maxSteps || step&63 == 63 && ctx.Err() != nil {
			return nil
		}
		if err := s.randomJoint(rng); err != nil {
			return fmt.Errorf("analysis: match %d, step %d: %w", k, step, err)
		}
	}
}

// randomJoint plays a uniformly random legal move for every role.
func (s *sampler) randomJoint(rng *rand.Rand) error {
	s.joint = s.joint[:0]
	for r := range s.net.Roles() {
		n := s.sim.LegalCount(r)
		if n == 0 {
			return propnet.ErrNoLegalMove
		}
		s.joint = append(s.joint, s.sim.LegalMove(r, rng.IntN(n)))
	}
	return s.sim.Play(s.joint)
}

// check compares every hypothesis with the network in the current state.
func (s *sampler) check(k, step int, term bool, st *sampleStats) {
	st.states++
	s.track(step == 0)
	s.netGoals, _ = s.sim.Goals(s.netGoals)
	for _, g := range s.netGoals {
		if g >= 0 && !term {
			st.definedNonTerminal++
			break
		}
	}
	for _, t := range s.ts {
		var d disagreement
		s.counts, d = t.observe(s.sim.Has, s.netGoals, term, s.counts)
		if d.role < 0 || (t.v.First != nil && (!term || t.firstTerm != nil)) {
			continue
		}
		ce := &Counterexample{Match: k, Step: step, Role: s.net.Roles()[d.role], Network: d.want, Hypothesis: d.got,
			Counts: append([]int(nil), s.counts...), Terminal: term, Facts: s.sim.State().Facts()}
		if t.v.First == nil {
			t.v.First = ce
		}
		if term && t.firstTerm == nil {
			t.firstTerm = ce
		}
	}
}

// disagreement is the first role whose goal differed in a state (role -1
// when none did).
type disagreement struct{ role, want, got int }

// observe records one state: it reads the counts, fills unknown entries of
// the table from the network's goals, and compares.
func (t *tally) observe(has func(int) bool, netGoals []int, term bool, counts []int) ([]int, disagreement) {
	h := &t.v.Hypothesis
	counts, ok := h.counts(has, counts)
	t.v.States++
	if term {
		t.v.Terminals++
	}
	if total := sum(counts); ok && total > t.v.MaxTotal {
		t.v.MaxTotal = total
	}
	d := disagreement{role: -1}
	for r, want := range netGoals {
		got := -1
		if ok {
			if h.Table != nil && want >= 0 {
				if c := h.class(counts, r); h.Table[r][c] < 0 {
					h.Table[r][c] = want
				}
			}
			got = h.goal(counts, r)
		}
		if want >= 0 && got >= 0 {
			t.seen[r][got] = true
		}
		if (got != want || want < 0) && d.role < 0 {
			d = disagreement{r, want, got}
		}
	}
	if d.role < 0 {
		t.v.Agreed++
		if term {
			t.v.TerminalsOK++
		}
	}
	return counts, d
}

func sum(xs []int) int {
	n := 0
	for _, x := range xs {
		n += x
	}
	return n
}

// finish decides the verdict once the sample is complete.
func (t *tally) finish(st *sampleStats, stopped error, want int) Verdict {
	v := t.v
	v.Matches = st.matches
	if st.definedNonTerminal == 0 {
		v.First = t.firstTerm // the network has goals in terminal states only
	}
	informative := false
	for _, vals := range t.seen {
		informative = informative || len(vals) >= 2
	}
	full := v.States > 0 && v.Agreed == v.States
	termOnly := !full && st.definedNonTerminal == 0 && v.Terminals > 0 && v.TerminalsOK == v.Terminals
	switch {
	case stopped != nil:
		v.Why = fmt.Sprintf("inconclusive: stopped (%v) after %d of %d matches", stopped, st.matches, want)
	case !full && !termOnly:
		v.Why = fmt.Sprintf("rejected: agreed in %d of %d states; first counterexample: %v", v.Agreed, v.States, v.First)
	case !moreIsBetter(v.Hypothesis.Table):
		v.Why = fmt.Sprintf("rejected: agreed in all %d states, but holding more is not better for every role (goals ahead/equal/behind per role: %v): a misère rule, or the wrong owners", v.States, v.Hypothesis.Table)
	case !informative:
		v.Why = fmt.Sprintf("rejected: agreed in all %d states, but gave every role a single goal value", v.States)
	case full:
		v.Accepted = true
		v.Why = fmt.Sprintf("accepted: agreed with the network in all %d states of %d random matches", v.States, v.Matches)
	default:
		v.Accepted, v.TerminalOnly = true, true
		v.Why = fmt.Sprintf("accepted for terminal states: agreed in all %d terminal states of %d random matches; the network defines no goal in the %d non-terminal states", v.Terminals, v.Matches, v.States-v.Terminals)
	}
	return v
}

// moreIsBetter reports whether, for every role, the known goals of the
// outcome classes do not decrease from behind to equal to ahead. Without
// it, assigning marks to the wrong roles would fit as well as the right
// assignment, and "own more" inferences would point the wrong way.
func moreIsBetter(table [][3]int) bool {
	for _, t := range table {
		last := -1
		for c := ClassBehind; c >= ClassAhead; c-- {
			if t[c] < 0 {
				continue
			}
			if t[c] < last {
				return false
			}
			last = t[c]
		}
	}
	return true
}
