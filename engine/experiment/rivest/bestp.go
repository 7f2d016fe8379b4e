package rivest

import (
	"fmt"
	"math/rand/v2"
	"slices"

	"gdlab/engine/stats"
)

// PEvidence is one p's standing in a sweep (see BestP).
type PEvidence struct {
	P     float64
	Games int     // games over all the blocks
	Score float64 // MM's mean score over them
	// Top is the share of bootstrap resamples in which this p has the
	// highest score (ties share): how often it would come out best.
	Top float64
	// Diff is the best p's score minus this one's, with its 95% bootstrap
	// interval [Low, High]; all zero for the best p itself.
	Diff, Low, High float64
	// SimLow and SimHigh bound Diff by a simultaneous 95% interval: each
	// of the comparisons with the best p at level 1 − 0.05/(comparisons)
	// (Bonferroni), so that all of them hold together with 95% confidence.
	// The best p was itself picked from the data, which these intervals do
	// not correct for: its lead is optimistic.
	SimLow, SimHigh float64
}

// PSweep is the verdict of a sweep on p: every p's evidence, best first.
type PSweep struct {
	Blocks    []string // the blocks pooled
	Resamples int
	Seed      uint64
	Ps        []PEvidence // sorted by score, the best first
}

// BestP pools sweep blocks (each holding one Result per p, the same p in
// the same order, with Outcomes indexed alike) and ranks the p values by
// MM's mean score over all their games. How sure that ranking is comes
// from a paired bootstrap: each resample draws the opening-and-colour
// units with replacement, the same draw for every p and block (the games
// of one unit share opening, colour and seed), and records which p scores
// highest and by how much the best p of the full data beats each other.
func BestP(blocks []Block, resamples int, seed uint64) PSweep {
	out := PSweep{Resamples: resamples, Seed: seed}
	if len(blocks) == 0 || len(blocks[0].Results) == 0 {
		return out
	}
	nP := len(blocks[0].Results)
	units := 0
	for _, b := range blocks {
		out.Blocks = append(out.Blocks, b.Title)
		for _, r := range b.Results {
			units = max(units, len(r.Outcomes))
		}
	}
	// sums[k][u], games[k][u]: p number k's score and games in unit u, pooled over blocks.
	sums, games := make([][]float64, nP), make([][]int, nP)
	for k := range nP {
		sums[k], games[k] = make([]float64, units), make([]int, units)
		for _, b := range blocks {
			for u, o := range b.Results[k].Outcomes {
				if o >= 0 {
					sums[k][u] += o
					games[k][u]++
				}
			}
		}
	}
	all := make([]int, units)
	for u := range all {
		all[u] = u
	}
	score := func(k int, draw []int) (float64, int) {
		s, g := 0.0, 0
		for _, u := range draw {
			s, g = s+sums[k][u], g+games[k][u]
		}
		if g == 0 {
			return 0, 0
		}
		return s / float64(g), g
	}
	full := make([]float64, nP)
	best := 0
	for k := range nP {
		var g int
		full[k], g = score(k, all)
		out.Ps = append(out.Ps, PEvidence{P: blocks[0].Results[k].P, Games: g, Score: full[k]})
		if full[k] > full[best] {
			best = k
		}
	}
	diffs := make([][]float64, nP)
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	scores := make([]float64, nP)
	stats.Bootstrap(units, resamples, rng, func(draw []int) {
		top := 0.0
		for k := range nP {
			scores[k], _ = score(k, draw)
			top = max(top, scores[k])
		}
		ties := 0
		for k := range nP {
			if scores[k] == top {
				ties++
			}
		}
		for k := range nP {
			if scores[k] == top {
				out.Ps[k].Top += 1 / float64(ties)
			}
			diffs[k] = append(diffs[k], scores[best]-scores[k])
		}
	})
	alpha := SimultaneousAlpha(nP)
	for k := range nP {
		if resamples > 0 {
			out.Ps[k].Top /= float64(resamples)
		}
		if k == best {
			continue
		}
		out.Ps[k].Diff = full[best] - full[k]
		if resamples > 0 {
			slices.Sort(diffs[k])
			out.Ps[k].Low, out.Ps[k].High = stats.Percentile(diffs[k], 0.025), stats.Percentile(diffs[k], 0.975)
			out.Ps[k].SimLow, out.Ps[k].SimHigh = stats.Percentile(diffs[k], alpha/2), stats.Percentile(diffs[k], 1-alpha/2)
		}
	}
	slices.SortStableFunc(out.Ps, func(a, b PEvidence) int {
		switch {
		case a.Score > b.Score:
			return -1
		case a.Score < b.Score:
			return 1
		}
		return 0
	})
	return out
}

// SweepSummary is the verdict on p of a sweep's blocks, as the sweep's
// report states it: BestP pooled over the blocks, then block by block,
// each with Resamples resamples from seed.
func SweepSummary(blocks []Block, seed uint64) []string {
	lines := BestP(blocks, Resamples, seed).Markdown()
	for _, b := range blocks {
		lines = append(lines, "")
		lines = append(lines, BestP([]Block{b}, Resamples, seed).Markdown()...)
	}
	return lines
}

// SimultaneousAlpha is the error rate of each of the comparisons of the
// best of nP values with the others that keeps the family's at 5%
// (Bonferroni): 0.05/(nP − 1).
func SimultaneousAlpha(nP int) float64 {
	if nP < 2 {
		return 0.05
	}
	return 0.05 / float64(nP-1)
}

// Markdown renders the verdict as a sentence and a table.
func (ps PSweep) Markdown() []string {
	if len(ps.Ps) == 0 {
		return nil
	}
	b := ps.Ps[0]
	lines := []string{
		fmt.Sprintf("Pooled over %q: best p = %g, MM score %.3f over %d games; it scores highest in %.0f%% of %d paired bootstrap resamples (seed %d) of the openings and colours.",
			ps.Blocks, b.P, b.Score, b.Games, 100*b.Top, ps.Resamples, ps.Seed),
		"",
		"| p | games | MM score | share of resamples where best | best p's score minus this one [95% interval] | [simultaneous 95%] |",
		"|---|---|---|---|---|---|",
	}
	for i, e := range ps.Ps {
		diff, sim := "(best)", ""
		if i > 0 {
			diff = fmt.Sprintf("%+.3f [%+.3f, %+.3f]", e.Diff, e.Low, e.High)
			sim = fmt.Sprintf("[%+.3f, %+.3f]", e.SimLow, e.SimHigh)
		}
		lines = append(lines, fmt.Sprintf("| %g | %d | %.3f | %.0f%% | %s | %s |", e.P, e.Games, e.Score, 100*e.Top, diff, sim))
	}
	return lines
}
