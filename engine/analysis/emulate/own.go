package emulate

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"gdlab/engine/analysis/latch"
	"gdlab/engine/game"
	"gdlab/engine/propnet"
	"gdlab/engine/stats"
)

// HeuristicTest is the evidence for or against the heuristic. In each
// random match, one state is drawn uniformly among the non-terminal states
// where one role owns strictly more of the latched propositions than every
// other (the leader); the match counts as a win for the leader when its
// final goal is above every other role's, a loss when below one, and is
// left out as a draw otherwise. The heuristic is kept when the leader's
// win rate among decided matches is above one half with 95% confidence:
// the lower end of the Wilson score interval exceeds 0.5 (a one-sided
// binomial test at the 2.5% level).
type HeuristicTest struct {
	Matches    int     // matches played
	Sampled    int     // matches with a state that had a leader
	Wins       int     // the leader won
	Losses     int     // the leader lost
	Draws      int     // neither
	Rate       float64 // Wins / (Wins + Losses)
	Low, High  float64 // Wilson 95% interval of Rate
	PValue     float64 // one-sided, normal approximation of the binomial test of Rate = 0.5
	Stopped    bool    // ctx ended before all matches were played
	Kept       bool
	Conclusion string
}

// OwnHeuristic is the inference "own these propositions": the counted
// propositions of an accepted hypothesis that are positive latches (once
// owned, owned for good: the corners in Reversi). Its value for a role is
// 50 + 50·(own − most owned by another)/positions, on the goal scale. It
// implements heuristic.Evaluator.
type OwnHeuristic struct {
	Bases     [][]int    // per role: the latched propositions it can own
	Facts     [][]string // their texts
	Positions int        // latched positions (a position owned by one role at a time counts once)
	Proved    int        // propositions proved positive latches by latch.Analyze
	Observed  int        // propositions never seen to stop holding in Verify's sample
	Test      HeuristicTest
	Kept      bool // the test kept it
	Why       string

	factIndex map[string]int
}

// ownHeuristic finds the latched counted propositions of the first
// accepted set-count hypothesis that has any, and tests the heuristic;
// factIndex maps net's base propositions to their indices.
func ownHeuristic(ctx context.Context, net *propnet.Net, vs []Verdict, an *latch.Analysis, factIndex map[string]int, opt VerifyOptions) (*OwnHeuristic, error) {
	for i := range vs {
		v := &vs[i]
		h := &v.Hypothesis
		if !v.Accepted || h.Held || h.Form == Cardinality {
			continue
		}
		oh := latchedCounted(v, an, net.BaseProps(), factIndex)
		if oh == nil {
			continue
		}
		oh.Test = testOwn(ctx, net, oh, opt)
		oh.Kept = oh.Test.Kept
		oh.Why = fmt.Sprintf("own %s: the counted propositions of %s that are latches (%d of %d: %d proved positive latches, %d never seen to stop holding in %d sampled states); %s",
			oh.sample(), h.Name(), oh.count(), countedBases(h), oh.Proved, oh.Observed, v.States, oh.Test.Conclusion)
		return oh, nil
	}
	return nil, nil
}

// latchedCounted collects the latches among v's counted propositions:
// positive latches proved by latch.Analyze, and propositions that, in Verify's
// sample, never stopped holding once they held (a Reversi corner is a
// latch, but its proof needs the fact that a square holds one colour at a
// time, which three-valued evaluation cannot use).
func latchedCounted(v *Verdict, an *latch.Analysis, facts []string, factIndex map[string]int) *OwnHeuristic {
	persistent := map[int]bool{}
	for _, b := range v.Persistent {
		persistent[b] = true
	}
	oh := &OwnHeuristic{factIndex: factIndex}
	any := false
	for _, c := range v.Hypothesis.Counters {
		var bs []int
		var fs []string
		for _, b := range c.Bases {
			l, ok := an.Latch(b)
			proved := ok && l.Positive
			if proved {
				oh.Proved++
			} else if persistent[b] {
				oh.Observed++
			} else {
				continue
			}
			bs, fs = append(bs, b), append(fs, facts[b])
		}
		any = any || len(bs) > 0
		oh.Bases, oh.Facts = append(oh.Bases, bs), append(oh.Facts, fs)
		oh.Positions = max(oh.Positions, len(bs))
	}
	if !any {
		return nil
	}
	return oh
}

func (oh *OwnHeuristic) count() int {
	n := 0
	for _, bs := range oh.Bases {
		n += len(bs)
	}
	return n
}

func (oh *OwnHeuristic) sample() string {
	var all []string
	for _, fs := range oh.Facts {
		all = append(all, fs...)
	}
	if len(all) > 8 {
		return strings.Join(all[:8], " ") + fmt.Sprintf(" … (%d in all)", len(all))
	}
	return strings.Join(all, " ")
}

// owned writes every role's number of owned latched propositions.
func (oh *OwnHeuristic) owned(has func(int) bool, dst []int) []int {
	dst = dst[:0]
	for _, bs := range oh.Bases {
		n := 0
		for _, b := range bs {
			if has(b) {
				n++
			}
		}
		dst = append(dst, n)
	}
	return dst
}

// leader returns the role owning strictly more than every other, or -1.
func leader(owned []int) int {
	best, who := -1, -1
	for r, n := range owned {
		switch {
		case n > best:
			best, who = n, r
		case n == best:
			who = -1
		}
	}
	return who
}

// Evaluate returns 50 + 50·(own − most owned by another)/positions.
func (oh *OwnHeuristic) Evaluate(m game.Machine, s game.State, role int) (float64, error) {
	if role < 0 || role >= len(oh.Bases) {
		return 0, fmt.Errorf("analysis: no role %d", role)
	}
	var has func(int) bool
	if st, ok := s.(*propnet.State); ok {
		has = st.Has
	} else {
		set := map[int]bool{}
		for _, f := range s.Facts() {
			if b, ok := oh.factIndex[f]; ok {
				set[b] = true
			}
		}
		has = func(b int) bool { return set[b] }
	}
	var buf [8]int
	owned := oh.owned(has, buf[:0])
	other := 0
	for r, n := range owned {
		if r != role {
			other = max(other, n)
		}
	}
	return 50 + 50*float64(owned[role]-other)/float64(max(oh.Positions, 1)), nil
}

// testOwn runs the heuristic's statistical test on random matches.
func testOwn(ctx context.Context, net *propnet.Net, oh *OwnHeuristic, opt VerifyOptions) HeuristicTest {
	matches, maxSteps := opt.matches(), opt.maxSteps()
	s := &sampler{net: net, sim: net.NewSim()}
	var t HeuristicTest
	for k := 0; k < matches; k++ {
		if ctx.Err() != nil {
			t.Stopped = true
			break
		}
		t.Matches++
		lead, goals := s.ownMatch(oh, game.NewRand(opt.Seed+uint64(k)), maxSteps)
		if lead < 0 {
			continue
		}
		t.Sampled++
		switch outcomeOf(goals, lead) {
		case 1:
			t.Wins++
		case -1:
			t.Losses++
		default:
			t.Draws++
		}
	}
	t.conclude(matches)
	return t
}

// ownMatch plays a random match and returns the leader in one state drawn
// uniformly (reservoir sampling) among the states with a leader, and the
// final goals.
func (s *sampler) ownMatch(oh *OwnHeuristic, rng *rand.Rand, maxSteps int) (int, []int) {
	s.sim.Reset()
	lead, seen := -1, 0
	for step := 0; step < maxSteps && !terminal(s.sim); step++ {
		s.counts = oh.owned(s.sim.Has, s.counts)
		if l := leader(s.counts); l >= 0 {
			seen++
			if rng.IntN(seen) == 0 {
				lead = l
			}
		}
		if s.randomJoint(rng) != nil {
			return -1, nil
		}
	}
	if !terminal(s.sim) {
		return -1, nil
	}
	s.netGoals, _ = s.sim.Goals(s.netGoals)
	return lead, s.netGoals
}

// outcomeOf is 1 when role r's goal is above every other, -1 when below
// one, 0 otherwise.
func outcomeOf(goals []int, r int) int {
	best := math.MinInt
	for q, g := range goals {
		if q != r {
			best = max(best, g)
		}
	}
	switch {
	case goals[r] > best:
		return 1
	case goals[r] < best:
		return -1
	}
	return 0
}

// conclude computes the rate, the Wilson interval and the p-value, and
// decides.
func (t *HeuristicTest) conclude(want int) {
	n := float64(t.Wins + t.Losses)
	if n == 0 {
		t.Conclusion = "rejected: no decided match had a leader in owned latched propositions"
		return
	}
	t.Rate, t.Low, t.High = stats.WilsonZ(float64(t.Wins), t.Wins+t.Losses, stats.Z975)
	zs := (t.Rate - 0.5) / math.Sqrt(0.25/n)
	t.PValue = 0.5 * math.Erfc(zs/math.Sqrt2)
	t.Kept = t.Low > 0.5 && !t.Stopped
	verdict := "kept"
	if !t.Kept {
		verdict = "rejected"
	}
	if t.Stopped {
		verdict += fmt.Sprintf(" (stopped after %d of %d matches)", t.Matches, want)
	}
	t.Conclusion = fmt.Sprintf("%s: in %d random matches, the role owning more of them at a random state won %d and lost %d (%d draws): rate %.3f, 95%% Wilson interval [%.3f, %.3f], one-sided p = %.2g",
		verdict, t.Matches, t.Wins, t.Losses, t.Draws, t.Rate, t.Low, t.High, t.PValue)
}
