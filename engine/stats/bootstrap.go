package stats

import "math/rand/v2"

// Bootstrap draws resamples of n units with replacement: for each
// resample it fills a slice of n unit indices, each rng.IntN(n) in turn,
// and calls stat with it (stat must not keep the slice, which the next
// resample overwrites). The same generator state gives the same draws, so
// a seeded generator makes the bootstrap reproducible; a paired bootstrap
// evaluates every statistic it compares inside one call of stat.
func Bootstrap(n, resamples int, rng *rand.Rand, stat func(draw []int)) {
	draw := make([]int, n)
	for range resamples {
		for u := range draw {
			draw[u] = rng.IntN(n)
		}
		stat(draw)
	}
}

// Percentile returns the q-quantile (0..1) of sorted, ascending values:
// the element at index ⌊q·(len−1)⌋, the lower of the two nearest ranks.
// With q = 0.025 and 0.975 over a bootstrap's sorted statistics it gives
// the 95% percentile interval. It panics on an empty slice.
func Percentile(sorted []float64, q float64) float64 {
	return sorted[int(q*float64(len(sorted)-1))]
}
