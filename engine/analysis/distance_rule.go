package analysis

import (
	"fmt"
	"math"
)

// EnableThreshold is the average move distance above which local search
// is enabled (together with no goal coupling). It was chosen from the
// measurements of notebooks/06-local-search.ipynb over the datasets games
// and the shared corpus: uncoupled games where moves interact at once
// (nim, counting and token games) average at most about 1.5, while the
// Breakthrough family averages 2.8 (6×6) to 3.8 (8×8); 2 separates them
// with room on both sides.
const EnableThreshold = 2.0

// Enabled applies the enablement rule: local search is worth running when
// no goal or terminal disjunct is coupled and the average move distance
// exceeds EnableThreshold. It returns the decision and its reason.
func Enabled(d *Distances) (bool, string) {
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
