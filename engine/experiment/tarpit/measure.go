package tarpit

import (
	"fmt"
	"sort"

	"gdlab/engine/game"
	"gdlab/engine/ledger"
	"gdlab/engine/stats"
)

// The classes of positions the comparison reports on.
const (
	BothChoose     = "both choose"     // both roles choose at the position
	OneChooses     = "one chooses"     // one role chooses (turn-taking positions)
	HeuristicGames = "heuristic games" // positions of games with a heuristic
	All            = "all"             // every position
)

// Classes returns the classes in the order the notebook reports them.
func Classes() []string { return []string{BothChoose, OneChooses, HeuristicGames, All} }

// InClass reports whether p belongs to class.
func InClass(p Position, class string) bool {
	switch class {
	case BothChoose:
		return p.Entry.Simultaneous
	case OneChooses:
		return !p.Entry.Simultaneous
	case HeuristicGames:
		return p.Heuristic != nil
	}
	return class == All
}

// Select returns the counts of the positions of class that were searched
// (count ≥ 0), in order.
func Select(ps []Position, hits []int, class string) []int {
	var out []int
	for i, p := range ps {
		if hits[i] >= 0 && InClass(p, class) {
			out = append(out, hits[i])
		}
	}
	return out
}

// SelectPaired returns the counts of two runs at the positions of class
// where both searched, in order.
func SelectPaired(ps []Position, a, b []int, class string) ([]int, []int) {
	var da, db []int
	for i, p := range ps {
		if a[i] >= 0 && b[i] >= 0 && InClass(p, class) {
			da, db = append(da, a[i]), append(db, b[i])
		}
	}
	return da, db
}

// Share is the share of searches choosing a best move over some positions,
// with two 95% intervals: Wilson's over the searches (which takes a
// position's seeds as independent, so it is too narrow) and a percentile
// bootstrap that resamples positions.
type Share struct {
	Hits, Searches, Positions int
	Share                     float64
	WilsonLow, WilsonHigh     float64
	BootLow, BootHigh         float64
}

// ShareOf returns the share of hits (per position, seeds searches each),
// its bootstrap drawing resamples resamples of the positions seeded by seed.
func ShareOf(hits []int, seeds, resamples int, seed uint64) Share {
	total := 0
	for _, k := range hits {
		total += k
	}
	n := len(hits) * seeds
	sh := Share{Hits: total, Searches: n, Positions: len(hits)}
	if n == 0 {
		return sh
	}
	sh.Share, sh.WilsonLow, sh.WilsonHigh = stats.Wilson(float64(total), n)
	sh.BootLow, sh.BootHigh = bootstrap(len(hits), resamples, seed, func(draw []int) float64 {
		s := 0
		for _, i := range draw {
			s += hits[i]
		}
		return float64(s) / float64(n)
	})
	return sh
}

// String formats the share as the notebook's tables show it.
func (s Share) String() string {
	return fmt.Sprintf("%d/%d = %.3f, Wilson [%.3f, %.3f], positions bootstrap [%.3f, %.3f]",
		s.Hits, s.Searches, s.Share, s.WilsonLow, s.WilsonHigh, s.BootLow, s.BootHigh)
}

// Diff is the difference a − b in the share of searches choosing a best
// move between two configurations on the same positions, with a paired
// percentile bootstrap over positions (95%).
type Diff struct {
	Positions         int
	Diff              float64
	BootLow, BootHigh float64
}

// DiffOf returns the paired difference of counts a and b (the same
// positions in the same order, seeds searches each), its bootstrap drawing
// resamples resamples of the positions seeded by seed.
func DiffOf(a, b []int, seeds, resamples int, seed uint64) Diff {
	d := Diff{Positions: len(a)}
	if len(a) == 0 || len(a) != len(b) {
		return d
	}
	n := float64(len(a) * seeds)
	diff := func(draw []int) float64 {
		s := 0
		for _, i := range draw {
			s += a[i] - b[i]
		}
		return float64(s) / n
	}
	all := make([]int, len(a))
	for i := range all {
		all[i] = i
	}
	d.Diff = diff(all)
	d.BootLow, d.BootHigh = bootstrap(len(a), resamples, seed, diff)
	return d
}

// String formats the difference as the notebook's tables show it.
func (d Diff) String() string {
	return fmt.Sprintf("%+.3f, paired positions bootstrap [%+.3f, %+.3f] (%d positions)", d.Diff, d.BootLow, d.BootHigh, d.Positions)
}

// bootstrap returns the 95% percentile interval of stat over resamples of
// n units, drawn by a generator seeded by seed.
func bootstrap(n, resamples int, seed uint64, stat func(draw []int) float64) (float64, float64) {
	if n == 0 || resamples <= 0 {
		return 0, 0
	}
	xs := make([]float64, 0, resamples)
	stats.Bootstrap(n, resamples, game.NewRand(seed), func(draw []int) { xs = append(xs, stat(draw)) })
	sort.Float64s(xs)
	return stats.Percentile(xs, 0.025), stats.Percentile(xs, 0.975)
}

// Key names a configuration at a budget in the ledger ("decision 300").
func Key(cfg string, budget int64) string { return fmt.Sprintf("%s %d", cfg, budget) }

// DiffKey names a paired difference at a budget on a class in the ledger
// ("decision-joint 300 both choose").
func DiffKey(a, b string, budget int64, class string) string {
	return fmt.Sprintf("%s-%s %d %s", a, b, budget, class)
}

// Results returns a configuration's counts as ledger results: one a
// position searched, labelled key, its value the percentage of its seeds
// searches that chose a best move, its detail the position's name.
func Results(ps []Position, hits []int, seeds int, key string) []ledger.Result {
	var out []ledger.Result
	for i, p := range ps {
		if hits[i] >= 0 {
			out = append(out, ledger.Result{Game: key, Value: 100 * float64(hits[i]) / float64(seeds), Detail: p.Name()})
		}
	}
	return out
}

// DiffResults returns the paired differences a − b on class as ledger
// results: one a position both searched, labelled key, its value the
// difference in percentage points.
func DiffResults(ps []Position, a, b []int, seeds int, class, key string) []ledger.Result {
	var out []ledger.Result
	for i, p := range ps {
		if a[i] >= 0 && b[i] >= 0 && InClass(p, class) {
			out = append(out, ledger.Result{Game: key, Value: 100 * float64(a[i]-b[i]) / float64(seeds), Detail: p.Name()})
		}
	}
	return out
}
