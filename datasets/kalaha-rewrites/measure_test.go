package kalaharewrites

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"gdlab/engine/game"
	"gdlab/engine/gdl"
	"gdlab/engine/ground"
	"gdlab/engine/propnet"
	"gdlab/engine/search"
	"gdlab/engine/search/mcts"
)

// measuredFiles are the rulesheets KALAHA_MEASURE reports on, by default
// the four public and curated Kalah rulesheets and every rewrite here.
func measuredFiles(t *testing.T) []string {
	if s := os.Getenv("KALAHA_FILES"); s != "" {
		return strings.Fields(s)
	}
	shared := sharedDir(t)
	files := []string{
		filepath.Join(shared, "games", "kalaha_2009", "kalaha_2009.kif"),
		filepath.Join(shared, "games", "kalaha5x2x3", "kalah.kif"),
		filepath.Join(shared, "games", "kalaha6x2x4", "kalah.kif"),
		filepath.Join("..", "games", "kalaha", "kalaha.kif"),
	}
	return append(files, rewriteFiles(t)...)
}

// TestGroundingPerRule reports, for each rulesheet, the ground rules and
// body literals per head relation (next split by fluent), which is what
// the propositional network is built from. Run with KALAHA_MEASURE=1.
func TestGroundingPerRule(t *testing.T) {
	if os.Getenv("KALAHA_MEASURE") == "" {
		t.Skip("set KALAHA_MEASURE=1 to measure")
	}
	for _, f := range measuredFiles(t) {
		d, err := gdl.ParseFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// NoDecompose keeps each ground rule an instance of one rule of the
		// rulesheet, so that the body's signature names its source rule.
		p, err := ground.Ground(context.Background(), d, ground.Options{NoDecompose: true})
		if err != nil {
			t.Logf("%s: %v; grounding with decomposition instead (auxiliary relations named rel~N)", f, err)
			if p, err = ground.Ground(context.Background(), d, ground.Options{}); err != nil {
				t.Fatal(err)
			}
		}
		rules, lits := map[string]int{}, map[string]int{}
		for _, r := range p.Rules {
			h := p.Atoms[r.Head]
			key := h.Rel
			if (h.Rel == "next" || h.Rel == "true") && len(h.Args) > 0 {
				key += " " + functor(p.TermText(h.Args[0]))
			} else if h.Rel == "legal" && len(h.Args) > 1 {
				key += " " + functor(p.TermText(h.Args[1]))
			}
			if h.Rel == "next" && keeps(h, p, r.Pos) {
				key = "frame " + key
			}
			key += " <-" + signature(p, r.Pos, "") + signature(p, r.Neg, "not ")
			rules[key]++
			lits[key] += len(r.Pos) + len(r.Neg)
		}
		keys := make([]string, 0, len(rules))
		for k := range rules {
			keys = append(keys, k)
		}
		sort.Slice(keys, func(i, j int) bool { return lits[keys[i]] > lits[keys[j]] })
		var b strings.Builder
		for _, k := range keys {
			fmt.Fprintf(&b, "  %8d rules %8d literals  %s\n", rules[k], lits[k], k)
		}
		t.Logf("%s: %d atoms, %d ground rules, %d literals, %v\n%s", f, p.Stats.Atoms, p.Stats.Rules, p.Stats.Literals, p.Stats.Time.Round(time.Millisecond), b.String())
	}
}

// keeps tells whether a ground next rule keeps a fact: one of its
// positive body atoms is (true F) for its head (next F).
func keeps(h ground.Atom, p *ground.Program, pos []ground.AtomID) bool {
	for _, a := range pos {
		if at := p.Atoms[a]; at.Rel == "true" && len(at.Args) == 1 && len(h.Args) == 1 && at.Args[0] == h.Args[0] {
			return true
		}
	}
	return false
}

// signature names the body atoms of a ground rule by relation and, for
// true and does, the functor of the fact or move.
func signature(p *ground.Program, atoms []ground.AtomID, prefix string) string {
	var parts []string
	for _, a := range atoms {
		at := p.Atoms[a]
		name := at.Rel
		switch {
		case at.Rel == "true" && len(at.Args) > 0:
			name += " " + functor(p.TermText(at.Args[0]))
		case at.Rel == "does" && len(at.Args) > 1:
			name += " " + functor(p.TermText(at.Args[1]))
		}
		parts = append(parts, " "+prefix+name)
	}
	sort.Strings(parts)
	return strings.Join(parts, ",")
}

func functor(s string) string {
	s = strings.TrimPrefix(s, "(")
	if i := strings.IndexAny(s, " )"); i >= 0 {
		return s[:i]
	}
	return s
}

// TestMCTSSpeed runs plain UCT (mcts.Options{}) for KALAHA_SECONDS (default
// 3) from the initial state as the first role, three times per machine,
// alternating prover and propnet, and logs iterations per second.
// Run with KALAHA_MEASURE=1.
func TestMCTSSpeed(t *testing.T) {
	if os.Getenv("KALAHA_MEASURE") == "" {
		t.Skip("set KALAHA_MEASURE=1 to measure")
	}
	secs := 3.0
	if s := os.Getenv("KALAHA_SECONDS"); s != "" {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatal(err)
		}
		secs = v
	}
	machines := []string{"prover", "propnet"}
	if s := os.Getenv("KALAHA_MACHINES"); s != "" {
		machines = strings.Fields(s)
	}
	for _, f := range measuredFiles(t) {
		ms := map[string]game.Machine{}
		for _, name := range machines {
			if name == "prover" {
				ms[name] = loadProver(t, f)
			} else {
				ms[name] = loadNet(t, f)
			}
		}
		runs, cpuRuns := map[string][]float64{}, map[string][]float64{}
		for rep := 0; rep < 3; rep++ {
			for _, name := range machines {
				m := ms[name]
				p := mcts.New(mcts.Options{})
				cpu0 := cpuTime(t)
				if err := p.Start(context.Background(), search.Setup{Machine: m, Role: 0, Seed: uint64(rep + 1)}); err != nil {
					t.Fatal(err)
				}
				if _, err := p.Search(context.Background(), m.Initial(), search.Budget{Time: time.Duration(secs * float64(time.Second))}); err != nil {
					t.Fatal(err)
				}
				st := p.LastStats()
				runs[name] = append(runs[name], st.IterationsPerSecond())
				cpuRuns[name] = append(cpuRuns[name], float64(st.Iterations)/(cpuTime(t)-cpu0).Seconds())
			}
		}
		for _, name := range machines {
			t.Logf("%s %s: MCTS iterations per wall second %s; per CPU second %s", f, name, runsText(runs[name]), runsText(cpuRuns[name]))
		}
	}
}

// BenchmarkPlayout plays seeded random playouts of the rulesheet
// KALAHA_FILE (default the original) on KALAHA_MACHINE (prover or
// propnet), for profiling.
func BenchmarkPlayout(b *testing.B) {
	f := os.Getenv("KALAHA_FILE")
	if f == "" {
		f = originalPath(b)
	}
	var m game.Machine
	if os.Getenv("KALAHA_MACHINE") == "propnet" {
		m = loadNet(b, f)
	} else {
		m = loadProver(b, f)
	}
	rng := game.NewRand(1)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := game.Playout(context.Background(), m, m.Initial(), rng, 1000); err != nil {
			b.Fatal(err)
		}
	}
}

// runsText lists measurements in the order made and their median.
func runsText(v []float64) string {
	r := append([]float64(nil), v...)
	sort.Float64s(r)
	var b strings.Builder
	for _, x := range v {
		fmt.Fprintf(&b, "%.0f ", x)
	}
	fmt.Fprintf(&b, "(median %.0f)", r[len(r)/2])
	return b.String()
}

// cpuTime is the user and system CPU time of this process so far: on a
// shared machine, work per CPU second is steadier than per wall second.
func cpuTime(t testing.TB) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		t.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestPlayoutSpeed plays random playouts for KALAHA_SECONDS (default 3) on
// each machine, three times alternating propnet and prover, and logs
// playouts per wall second and per CPU second, with the network's size
// and build time. A propnet plays through its simulator, as gdlab bench
// does. Run with KALAHA_MEASURE=1.
func TestPlayoutSpeed(t *testing.T) {
	if os.Getenv("KALAHA_MEASURE") == "" {
		t.Skip("set KALAHA_MEASURE=1 to measure")
	}
	secs := 3.0
	if s := os.Getenv("KALAHA_SECONDS"); s != "" {
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			t.Fatal(err)
		}
		secs = v
	}
	d := time.Duration(secs * float64(time.Second))
	for _, f := range measuredFiles(t) {
		start, cpu0 := time.Now(), cpuTime(t)
		net := loadNet(t, f)
		st := net.Stats()
		t.Logf("%s: propnet built in %v wall, %v CPU: %d base props, %d ANDs, %d ORs, %d links",
			f, time.Since(start).Round(time.Millisecond), (cpuTime(t) - cpu0).Round(time.Millisecond),
			st.Bases, st.Optimized.Ands, st.Optimized.Ors, st.Optimized.Links)
		pr := loadProver(t, f)
		wall, cpu := map[string][]float64{}, map[string][]float64{}
		for rep := 0; rep < 3; rep++ {
			for _, name := range []string{"propnet", "prover"} {
				rng := game.NewRand(uint64(rep + 1))
				start, cpu0 := time.Now(), cpuTime(t)
				var n int
				if name == "propnet" {
					n = simPlayouts(t, net.NewSim(), rng, start.Add(d))
				} else {
					n = machinePlayouts(t, pr, rng, start.Add(d))
				}
				wall[name] = append(wall[name], float64(n)/time.Since(start).Seconds())
				cpu[name] = append(cpu[name], float64(n)/(cpuTime(t)-cpu0).Seconds())
			}
		}
		for _, name := range []string{"propnet", "prover"} {
			t.Logf("%s %s: playouts per wall second %s; per CPU second %s", f, name, runsText(wall[name]), runsText(cpu[name]))
		}
	}
}

// simPlayouts plays whole playouts on a propnet simulator until end.
func simPlayouts(t testing.TB, sim *propnet.Sim, rng *rand.Rand, end time.Time) int {
	n := 0
	for time.Now().Before(end) {
		sim.Reset()
		for {
			if _, err := sim.Playout(rng, 64); err != nil {
				t.Fatal(err)
			}
			if term, _ := sim.Terminal(); term {
				break
			}
		}
		if _, err := sim.Goals(nil); err != nil {
			t.Fatal(err)
		}
		n++
	}
	return n
}

// machinePlayouts plays whole playouts through the Machine interface.
func machinePlayouts(t testing.TB, m game.Machine, rng *rand.Rand, end time.Time) int {
	n := 0
	for time.Now().Before(end) {
		if _, err := game.Playout(context.Background(), m, m.Initial(), rng, 0); err != nil {
			t.Fatal(err)
		}
		n++
	}
	return n
}
