package distance

import (
	"fmt"
	"math"
)

// EnableThreshold is the average move distance above which local search
// is enabled (together with no goal coupling). It lies in the widest gap of
// the corpus table (datasets/results/local-enablement.json): of the 58
// uncoupled games measured, those whose moves interact at once (nim,
// token and free-for-all games) average at most 1.99 and majorities 2.2,
// while the Breakthrough family averages 2.6 (choicethroughalt) to 4.55
// (breakthrough). Above it too are puzzles whose moves rarely interact
// (futoshiki, hidato), wallmaze and kitten_escapes_from_fire. The value was
// read off the same corpus; notebook 06 refits it on half the corpus and
// scores it on the other half.
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
