package distance

import (
	"fmt"
	"math"
)

// EnableThreshold is the average move distance above which local search
// is enabled (together with no goal coupling). It was chosen from the
// measurements over the datasets games and the shared corpus
// (datasets/results/local-enablement.json, notebooks/06-local-search):
// of the 51 uncoupled games measured, those whose moves interact at once
// (nim, token and free-for-all games) average at most 1.99 and majorities
// 2.2, while the Breakthrough family averages 2.6 (choicethroughalt) to
// 4.55 (breakthrough), with wallmaze and kitten_escapes_from_fire above;
// 2.5 lies in the widest gap between them.
const EnableThreshold = 2.5

// Enabled applies the enablement rule: local search is worth running when
// no goal or terminal disjunct is coupled and the average move distance
// exceeds EnableThreshold. It returns the decision and its reason.
func Enabled(d *Metric) (bool, string) {
	if c := d.Coupling(); c.Coupled {
		return false, "goals coupled: " + c.Why
	}
	avg := d.Average()
	if math.IsNaN(avg) {
		return false, "no two moves interact"
	}
	if avg <= EnableThreshold {
		return false, fmt.Sprintf("average move distance %.2f ≤ %.1f", avg, EnableThreshold)
	}
	return true, fmt.Sprintf("no coupling; average move distance %.2f > %.1f", avg, EnableThreshold)
}
