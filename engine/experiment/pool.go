package experiment

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"gdlab/engine/ledger"
	"gdlab/engine/stats"
)

// LedgerDir is where full runs are recorded, relative to the repository
// root: the ledger is committed with the code, so every reader pools the
// same runs.
const LedgerDir = "datasets/ledger"

// ScratchLedgerDir is where quick runs are recorded, relative to the
// repository root: they check that an experiment runs, are never pooled,
// and stay out of the committed ledger.
const ScratchLedgerDir = "out/ledger"

// Run describes one run of an experiment for the ledger: what was set,
// which seeds, and one result per game or position. An experiment id names
// one configuration, since its full runs are pooled: a change of settings
// takes a new id.
type Run struct {
	Experiment string
	Settings   map[string]string
	Seeds      []uint64
	Results    []ledger.Result
}

// Record appends the run to the repository's ledger (datasets/ledger, or
// out/ledger for a quick run) with the process's scope (ledger.Scope: in
// the kernel, the packages the notebook imports) and the version of the
// code it reaches, the time and the machine's load, and returns the
// record written.
func Record(run Run) (ledger.Record, error) {
	root, err := ledger.Root()
	if err != nil {
		return ledger.Record{}, err
	}
	if err := ledger.CheckPinned(root); err != nil {
		return ledger.Record{}, err
	}
	scope := ledger.Scope()
	version, err := ledger.CodeVersionOf(root, scope)
	if err != nil {
		return ledger.Record{}, err
	}
	rec := ledger.Record{Experiment: run.Experiment, Version: version, Scope: scope, Quick: Quick(), Settings: run.Settings,
		Seeds: run.Seeds, Load: ledger.Load(), Source: source(), Results: run.Results}
	dir := LedgerDir
	if rec.Quick {
		dir = ScratchLedgerDir
	}
	l, err := ledger.Open(filepath.Join(root, dir))
	if err != nil {
		return ledger.Record{}, err
	}
	return rec, l.Append(rec)
}

// MustPooled is Pooled for notebook cells: it panics on error.
func MustPooled(experiment, game string) Pool {
	p, err := Pooled(experiment, game)
	if err != nil {
		panic(err)
	}
	return p
}

// MustRecord is Record for notebook cells: it panics on error.
func MustRecord(run Run) ledger.Record {
	rec, err := Record(run)
	if err != nil {
		panic(err)
	}
	return rec
}

// source names what ran: the program, which for a notebook is the kernel.
func source() string {
	if len(os.Args) == 0 {
		return ""
	}
	return filepath.Base(os.Args[0])
}

// Pool is an estimate pooled over every full run of the code running now
// (of the code each run could reach: see ledger.CodeVersionOf): the mean
// of the results' values with its 95% Student's t interval. Runs that
// reproduce a pooled run exactly (same settings, seeds and results: a
// deterministic experiment run again) count once. When every result pooled
// is a match score (it has an outcome: see MatchResults), the interval is
// clipped to the scores' range, 0 to 100, as match tables clip theirs.
type Pool struct {
	Experiment string
	Game       string          // the results pooled: one game's, or every game's when ""
	Version    string          // the code version of the runs pooled (several, comma-separated, when their scopes differ)
	Current    bool            // the runs pooled ran the code running now (each judged by its scope)
	Runs       []ledger.Record // the runs pooled
	Replicas   int             // runs left out as exact replicas of a pooled run
	N          int             // results pooled
	Mean       float64
	Low, High  float64
}

// Pooled returns the pool of an experiment's results for game ("" for all
// games) over the full runs that ran the code running now: those whose
// version is still their scope's version. When none did, it pools the
// runs of the latest version that has a full run, with Current false. A
// pool with no runs has N = 0.
func Pooled(experiment, game string) (Pool, error) {
	root, err := ledger.Root()
	if err != nil {
		return Pool{}, err
	}
	versions := ledger.NewVersions(root)
	dir := filepath.Join(root, LedgerDir)
	var recs []ledger.Record
	if _, err := os.Stat(dir); !errors.Is(err, fs.ErrNotExist) {
		l, err := ledger.Open(dir)
		if err != nil {
			return Pool{}, err
		}
		if recs, err = l.Runs(experiment); err != nil {
			return Pool{}, err
		}
	}
	current := map[int]bool{}
	for i, r := range recs {
		ok, err := versions.Current(r)
		if err != nil {
			return Pool{}, err
		}
		current[i] = ok
	}
	p := PoolCurrent(experiment, game, recs, func(i int) bool { return current[i] })
	if p.Version == "" {
		if p.Version, err = versions.Of(ledger.Scope()); err != nil {
			return Pool{}, err
		}
	}
	return p, nil
}

// PoolOf pools recs as Pooled does, taking version as the version of the
// code running now for every record.
func PoolOf(experiment, game, version string, recs []ledger.Record) Pool {
	p := PoolCurrent(experiment, game, recs, func(i int) bool { return recs[i].Version == version })
	if p.Version == "" {
		p.Version = version
	}
	return p
}

// PoolCurrent pools recs as Pooled does, current(i) telling whether
// recs[i] ran the code running now. A pool of no current run has no
// Version unless it falls back to an older one.
func PoolCurrent(experiment, game string, recs []ledger.Record, current func(i int) bool) Pool {
	p := Pool{Experiment: experiment, Game: game, Current: true}
	var runs []ledger.Record
	for i, r := range recs {
		if !r.Quick && current(i) {
			runs = append(runs, r)
		}
	}
	if len(runs) == 0 {
		for i := len(recs) - 1; i >= 0; i-- {
			if !recs[i].Quick {
				p.Current = false
				runs = ledger.Select(recs, recs[i].Version)
				break
			}
		}
	}
	p.Version = versionsOf(runs)
	var xs []float64
	seen := map[string]bool{}
	for _, r := range runs {
		vs := values(r, game)
		if len(vs) == 0 {
			continue
		}
		if key := ledger.ReplicaKey(r); seen[key] {
			p.Replicas++
			continue
		} else {
			seen[key] = true
		}
		p.Runs = append(p.Runs, r)
		xs = append(xs, vs...)
	}
	p.N = len(xs)
	p.Mean, p.Low, p.High = p.clip(stats.MeanInterval(xs, 0.95))
	return p
}

// clip clips an interval of the pool's results to 0..100 when they are all
// match scores, and returns it unchanged otherwise.
func (p Pool) clip(mean, low, high float64) (float64, float64, float64) {
	for _, r := range p.Runs {
		for _, res := range r.Results {
			if (p.Game == "" || res.Game == p.Game) && res.Outcome == "" {
				return mean, low, high
			}
		}
	}
	return mean, math.Max(0, low), math.Min(100, high)
}

// values returns a record's result values for game ("" for all).
func values(r ledger.Record, game string) []float64 {
	var xs []float64
	for _, res := range r.Results {
		if game == "" || res.Game == game {
			xs = append(xs, res.Value)
		}
	}
	return xs
}

// RunInterval returns the mean of run i's values for the pool's game with
// its 95% t interval, clipped as the pool's is: one point of a chart of
// the runs.
func (p Pool) RunInterval(i int) (mean, low, high float64) {
	return p.clip(stats.MeanInterval(values(p.Runs[i], p.Game), 0.95))
}

// String describes the pool as a verdict quotes it.
func (p Pool) String() string {
	if p.N == 0 {
		return fmt.Sprintf("no full run of %s recorded", p.Experiment)
	}
	return fmt.Sprintf("%.1f [%.1f, %.1f] pooled over %d results of %s", p.Mean, finite(p.Low), finite(p.High), p.N, p.runsText())
}

// TableString describes a pool of match tables (see Table) as a verdict
// quotes it: how many matches, from which runs.
func (p Pool) TableString() string {
	if p.N == 0 {
		return fmt.Sprintf("no full run of %s recorded", p.Experiment)
	}
	return fmt.Sprintf("%d matches pooled over %s", len(p.Table().Rows), p.runsText())
}

// runsText names the pooled runs: how many, of which code, and the
// replicas left out.
func (p Pool) runsText() string {
	s := fmt.Sprintf("%s of code version %s", plural(len(p.Runs), "full run"), p.Version)
	if p.Replicas > 0 {
		s += fmt.Sprintf(" (%s reproduced a pooled run exactly: counted once)", plural(p.Replicas, "more run"))
	}
	if !p.Current {
		s += " (not the code running now, which has no full run yet)"
	}
	return s
}

// plural writes n things, with an s when n is not 1.
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// finite clips an infinite interval end (one result) for printing.
func finite(x float64) float64 {
	return math.Max(-1e9, math.Min(1e9, x))
}

// ScoreRule decides a claim that a player scores at least Target (0 to
// 100) against an opponent, from a pool of its scores. The rule, fixed
// before the runs: Supported when the pooled mean reaches Target and the
// whole pooled interval lies above Floor (50: it beats the opponent);
// Refuted when the whole interval lies below Target; otherwise not
// supported, the data being short of deciding. Claim names the claim in
// the verdict (see Verdict.Claim).
type ScoreRule struct {
	Claim         string
	Target, Floor float64
}

// Decide returns the verdict of the rule on p, its text the pool's figures
// followed by detail.
func (r ScoreRule) Decide(p Pool, detail string) Verdict {
	text := fmt.Sprintf("Pooled score: %s.", p)
	if p.N == 0 {
		text = fmt.Sprintf("No full run of %s is recorded: nothing to decide.", p.Experiment)
	}
	text += fmt.Sprintf(" The rule: supported when the pooled mean is at least %g and its interval lies above %g, refuted when the interval lies below %g.",
		r.Target, r.Floor, r.Target)
	if detail != "" {
		text += " " + detail
	}
	return PoolVerdict(r.Claim, p, p.Mean >= r.Target && p.Low > r.Floor, p.High < r.Target, text)
}

// PoolVerdict returns the verdict of a claim decided from pooled data:
// supported and refuted as the claim's rule computed them from p. A pool
// with no run decides nothing; a pool of runs of other code than the code
// running now is marked Stale (see Verdict).
func PoolVerdict(claim string, p Pool, supported, refuted bool, text string) Verdict {
	v := Verdict{Claim: claim, Text: text, Quick: Quick(), Stale: !p.Current}
	if p.N > 0 {
		v.Supported, v.Refuted = supported, refuted
	}
	return v
}

// ChartData returns a chart of the pool: one category per run ("run 1",
// …) and a last one, "pooled", with each one's mean and 95% interval,
// the interval clipped to [min, max] (a run of one result has an infinite
// one). xs numbers the categories from 0, as a bar chart places them.
func (p Pool) ChartData(min, max float64) (categories []string, xs, means, lows, highs []float64) {
	add := func(name string, m, lo, hi float64) {
		categories = append(categories, name)
		xs = append(xs, float64(len(xs)))
		means, lows, highs = append(means, m), append(lows, math.Max(min, lo)), append(highs, math.Min(max, hi))
	}
	for i := range p.Runs {
		m, lo, hi := p.RunInterval(i)
		add(fmt.Sprintf("run %d", i+1), m, lo, hi)
	}
	if p.N > 0 {
		add("pooled", p.Mean, p.Low, p.High)
	}
	return categories, xs, means, lows, highs
}

// versionsOf lists the distinct versions of runs, in order, comma-separated.
func versionsOf(runs []ledger.Record) string {
	var vs []string
	for _, r := range runs {
		if !slices.Contains(vs, r.Version) {
			vs = append(vs, r.Version)
		}
	}
	return strings.Join(vs, ", ")
}
