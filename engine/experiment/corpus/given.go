package corpus

import (
	"context"
	"math/rand/v2"
	"slices"

	"gdlab/engine/analysis/factor"
	"gdlab/engine/analysis/latch"
	"gdlab/engine/game"
	"gdlab/engine/propnet"
)

// givenSteps bounds the seeded random match that conditional reads.
const givenSteps = 200

// conditional looks for factors that appear only in some states: it plays
// one random match (seed 1) and, at a quarter, half and three quarters of
// its length, analyses the game given the facts its latches keep from
// there on. It returns the checkpoint with the most relevant factors with
// moves (then the most factors with moves), verified from its state, when
// that is at least two and more than the game has in every state
// (relevant); nil otherwise. Factors that no output reads do not count:
// where the latches have settled the outcome, every factor is one. Latches
// are found without pairs (the goal latches' refinement, which the
// factoring does not read).
func conditional(ctx context.Context, net *propnet.Net, relevant int) (*GivenEntry, error) {
	lat, err := latch.Analyze(ctx, net, latch.Options{MaxPairLatches: -1})
	if err != nil || len(lat.Latches) == 0 {
		return nil, err
	}
	states, err := randomMatch(ctx, net, game.NewRand(1))
	if err != nil {
		return nil, err
	}
	var best *GivenEntry
	var bestA *factor.Analysis
	var last []factor.Fact
	for _, step := range checkpoints(len(states)) {
		given := factor.LatchedIn(lat, states[step])
		if len(given) == 0 || slices.Equal(given, last) {
			continue
		}
		last = given
		a, err := factor.AnalyzeGiven(ctx, net, given, factor.Options{})
		if err != nil {
			return nil, err
		}
		if g := givenEntry(a, step, len(given)); g.Relevant >= 2 && g.Relevant > relevant && g.better(best) {
			best, bestA = g, a
		}
	}
	if best == nil {
		return nil, nil
	}
	v, err := factor.Verify(ctx, net, bestA, factor.VerifyOptions{Seed: 1, Start: states[best.Step]})
	if err != nil {
		return nil, err
	}
	best.Verified, best.Checks = v.Verified(), v.Checks
	if len(v.Failures) > 0 {
		best.Failure = v.Failures[0].String()
	}
	return best, nil
}

// better reports whether g has more relevant factors than h (nil: none),
// or as many and more factors.
func (g *GivenEntry) better(h *GivenEntry) bool {
	return h == nil || g.Relevant > h.Relevant || g.Relevant == h.Relevant && g.Factors > h.Factors
}

// givenEntry counts a conditional factoring's factors with moves.
func givenEntry(a *factor.Analysis, step, facts int) *GivenEntry {
	g := &GivenEntry{Step: step, Facts: facts}
	for _, f := range a.Factors {
		if _, m := f.Size(); m > 0 {
			g.Factors++
			if f.Relevant {
				g.Relevant++
			}
		}
	}
	return g
}

// checkpoints returns the distinct steps at a quarter, half and three
// quarters of a match of n states (the last terminal or the step limit),
// step 0 left out: the initial state's factoring is the game's own.
func checkpoints(n int) []int {
	var out []int
	for _, q := range []int{1, 2, 3} {
		if s := (n - 1) * q / 4; s > 0 && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// randomMatch plays uniformly random joint moves (game.Playout, one
// move at a time) from net's initial state until a terminal state or
// givenSteps moves, and returns the states met.
func randomMatch(ctx context.Context, net *propnet.Net, rng *rand.Rand) ([]game.State, error) {
	states := []game.State{net.Initial()}
	for len(states) <= givenSteps {
		p, err := game.Playout(ctx, net, states[len(states)-1], rng, 1)
		if err != nil || p.Steps == 0 {
			return states, err
		}
		states = append(states, p.Final)
	}
	return states, nil
}
