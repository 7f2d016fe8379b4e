package sweep

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"syscall"

	"gdlab/engine/ledger"
)

// Runners a sweep can run on.
const (
	// RunnerLocal plays the units on this process's goroutines.
	RunnerLocal = "local"
	// RunnerPrism runs the sweep as a Beam pipeline on Beam's Prism runner,
	// embedded in this process: no set-up, works offline. The default.
	RunnerPrism = "prism"
	// RunnerUniversal submits the pipeline to a portable job server (a
	// Prism, Flink or Spark job service) at Options.Endpoint.
	RunnerUniversal = "universal"
)

// Options say where and how a sweep runs.
type Options struct {
	// Runner is RunnerLocal, RunnerPrism or RunnerUniversal; "" means
	// RunnerPrism.
	Runner string
	// Endpoint is the job server's HOST:PORT for RunnerUniversal.
	Endpoint string
	// Dir, when set, receives the table (NAME.csv and NAME.parquet, each
	// written atomically) and one file per
	// finished unit (NAME.units/), from which a rerun resumes: units whose
	// file exists are not played again.
	Dir string
	// Workers bounds the matches played at once by RunnerLocal; 0 means
	// GOMAXPROCS. Beam's runners choose their own parallelism.
	Workers int
	// Progress, if set, is called as units finish with the number done
	// (those resumed included) and the total.
	Progress func(done, total int)
}

// Run plays every unit of the spec not already finished in opt.Dir and
// returns the whole table, also written to opt.Dir. Units that fail are
// reported together in the error; the table then holds those that did not.
func Run(ctx context.Context, spec *Spec, opt Options) (*Table, error) {
	if err := spec.Check(); err != nil {
		return nil, err
	}
	done, err := loadFinished(spec, opt.Dir)
	if err != nil {
		return nil, err
	}
	var todo []Unit
	for _, u := range spec.Units() {
		if _, ok := done[u.Key()]; !ok {
			todo = append(todo, u)
		}
	}
	total := len(done) + len(todo)
	report := counter(opt.Progress, len(done), total)
	report(0)
	var fresh []Result
	switch opt.Runner {
	case RunnerLocal:
		fresh, err = runLocal(ctx, spec, todo, opt, report)
	case "", RunnerPrism, RunnerUniversal:
		fresh, err = runBeam(ctx, spec, todo, opt, report)
	default:
		return nil, fmt.Errorf("sweep: unknown runner %q (have local, prism, universal)", opt.Runner)
	}
	t := &Table{Spec: spec}
	for _, r := range done {
		t.Results = append(t.Results, r)
	}
	t.Results = append(t.Results, fresh...)
	spec.sortResults(t.Results)
	if opt.Dir != "" && len(t.Results) > 0 {
		if werr := saveAtomic(filepath.Join(opt.Dir, spec.Name+".csv"), func(f *os.File) error { return t.WriteCSV(f, true) }); werr != nil {
			err = errors.Join(err, werr)
		}
		if werr := saveAtomic(filepath.Join(opt.Dir, spec.Name+".parquet"), func(f *os.File) error { return t.WriteParquet(f) }); werr != nil {
			err = errors.Join(err, werr)
		}
	}
	return t, err
}

// counter returns a function that adds to the units done and reports.
func counter(progress func(done, total int), start, total int) func(int) {
	var mu sync.Mutex
	done := start
	return func(n int) {
		mu.Lock()
		defer mu.Unlock()
		done += n
		if progress != nil {
			progress(done, total)
		}
	}
}

// runLocal plays the units on opt.Workers goroutines.
func runLocal(ctx context.Context, spec *Spec, units []Unit, opt Options, report func(int)) ([]Result, error) {
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	queue := make(chan Unit)
	results := make([]Result, 0, len(units))
	var errs []error
	var mu sync.Mutex
	var wg sync.WaitGroup
	ms := &machines{}
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for u := range queue {
				r, err := playAndKeep(ctx, spec, u, ms, opt.Dir)
				mu.Lock()
				if err != nil {
					errs = append(errs, err)
				} else {
					results = append(results, r)
				}
				mu.Unlock()
				report(1)
			}
		}()
	}
feed:
	for _, u := range units {
		select {
		case queue <- u:
		case <-ctx.Done():
			break feed
		}
	}
	close(queue)
	wg.Wait()
	return results, errors.Join(ctx.Err(), errors.Join(errs...))
}

// playAndKeep plays a unit on one of the process's cores (see cores: the
// local runner's workers take them as Beam's units do, so budgets mean the
// same on every runner) and, when dir is set, saves its result there.
func playAndKeep(ctx context.Context, spec *Spec, u Unit, ms *machines, dir string) (Result, error) {
	release, err := cores.take(ctx)
	if err != nil {
		return Result{}, fmt.Errorf("sweep: unit %s: %w", u.Key(), err)
	}
	defer release()
	r, err := spec.Play(ctx, u, ms)
	if err != nil || dir == "" {
		return r, err
	}
	return r, saveUnit(spec, dir, r)
}

// unitDir is where a sweep's finished units are kept.
func unitDir(spec *Spec, dir string) string { return filepath.Join(dir, spec.Name+".units") }

// unitFile names a unit's file: its key with the slashes replaced.
func unitFile(u Unit) string { return strings.ReplaceAll(u.Key(), "/", "_") + ".json" }

// saveUnit writes one result atomically to the sweep's unit directory.
func saveUnit(spec *Spec, dir string, r Result) error {
	ud := unitDir(spec, dir)
	if err := os.MkdirAll(ud, 0o755); err != nil {
		return err
	}
	data, err := json.Marshal(r)
	if err != nil {
		return err
	}
	return saveAtomic(unitPath(spec, dir, r.Unit), func(f *os.File) error {
		_, err := f.Write(append(data, '\n'))
		return err
	})
}

// loadFinished reads the results of the units finished in dir by earlier
// runs of the same spec, keyed by unit. The unit directory keeps the spec
// that wrote it; a spec that differs in anything but its number of seeds
// is refused, since its settings' numbers may mean other settings.
func loadFinished(spec *Spec, dir string) (map[string]Result, error) {
	out := map[string]Result{}
	if dir == "" {
		return out, nil
	}
	if err := claimUnitDir(spec, dir); err != nil {
		return nil, err
	}
	if err := removeStaleTemps(spec, dir); err != nil {
		return nil, err
	}
	want := map[string]bool{}
	for _, u := range spec.Units() {
		want[unitFile(u)] = true
	}
	entries, err := os.ReadDir(unitDir(spec, dir))
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if !want[e.Name()] { // spec.json, temporaries, seeds beyond this run's
			continue
		}
		r, err := readUnit(filepath.Join(unitDir(spec, dir), e.Name()))
		if err != nil {
			return nil, err
		}
		out[r.Key()] = r
	}
	return out, nil
}

// claimUnitDir creates the unit directory with the spec in it, or checks
// that the spec already there is this one but for its seeds.
func claimUnitDir(spec *Spec, dir string) error {
	ud := unitDir(spec, dir)
	if err := os.MkdirAll(ud, 0o755); err != nil {
		return err
	}
	base := *spec
	base.Seeds = 0
	mine, err := json.MarshalIndent(base, "", "  ")
	if err != nil {
		return err
	}
	path := filepath.Join(ud, "spec.json")
	kept, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		if err := saveAtomic(path, func(f *os.File) error { _, err := f.Write(append(mine, '\n')); return err }); err != nil {
			return err
		}
		return claimCodeVersion(ud)
	} else if err != nil {
		return err
	}
	if strings.TrimSpace(string(kept)) != string(mine) {
		return fmt.Errorf("sweep: %s holds the units of another spec named %q (it differs in more than its seeds): use another name or directory", ud, spec.Name)
	}
	return claimCodeVersion(ud)
}

// codeVersionFile keeps, in a unit directory, the version of the code that
// played its units.
const codeVersionFile = "code-version"

// claimCodeVersion records this code's version in a new unit directory, or
// checks that the units kept were played by the same code: results of
// older code must not be mixed into a table silently.
func claimCodeVersion(ud string) error {
	mine := codeVersion()
	path := filepath.Join(ud, codeVersionFile)
	kept, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) && !hasUnits(ud) {
		return saveAtomic(path, func(f *os.File) error { _, err := f.WriteString(mine + "\n"); return err })
	} else if err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	if got := strings.TrimSpace(string(kept)); got != mine {
		if got == "" {
			got = "not recorded"
		}
		return fmt.Errorf("sweep: %s holds units played by other code (version %s, this is %s): use a fresh --out directory or remove %s", ud, got, mine, ud)
	}
	return nil
}

// hasUnits reports whether a unit directory holds any unit's result.
func hasUnits(ud string) bool {
	entries, _ := os.ReadDir(ud)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".json") && e.Name() != "spec.json" {
			return true
		}
	}
	return false
}

// codeVersion is the version of the code that decides results
// (ledger.CodeVersion of the repository this process runs in), computed
// once; "unknown" where there is no source tree (an installed binary), and
// then resumption cannot tell old code's units from new.
var codeVersion = sync.OnceValue(func() string {
	root, err := ledger.Root()
	if err != nil {
		return "unknown"
	}
	v, err := ledger.CodeVersion(root)
	if err != nil {
		return "unknown"
	}
	return v
})

func readUnit(path string) (Result, error) {
	var r Result
	data, err := os.ReadFile(path)
	if err != nil {
		return r, err
	}
	if err := json.Unmarshal(data, &r); err != nil {
		return r, fmt.Errorf("sweep: %s: %w", path, err)
	}
	return r, nil
}

// saveAtomic writes a file through a temporary one beside it, synced and
// renamed over it, so a reader sees the old file or the new, never a part.
func saveAtomic(path string, write func(*os.File) error) (err error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	if err = f.Chmod(0o644); err != nil {
		return err
	}
	if err = write(f); err != nil {
		return err
	}
	if err = f.Sync(); err != nil {
		return err
	}
	if err = f.Close(); err != nil {
		return err
	}
	if err = os.Rename(f.Name(), path); err != nil {
		return err
	}
	return syncDir(filepath.Dir(path))
}

// syncDir makes a rename in dir durable: without it a crash may lose the
// new name though the file's data was synced. Systems that cannot sync a
// directory say so with an error, which is ignored there.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, errors.ErrUnsupported) && !errors.Is(err, syscall.EINVAL) && !errors.Is(err, syscall.ENOTSUP) {
		return err
	}
	return nil
}

// tempName matches saveAtomic's temporaries: "." + the file's name +
// ".tmp" + os.CreateTemp's random digits.
var tempName = regexp.MustCompile(`^\..+\.tmp[0-9]+$`)

// removeStaleTemps removes the temporaries a crashed run left in the
// sweep's directories; only names of saveAtomic's pattern are touched.
func removeStaleTemps(spec *Spec, dir string) error {
	var errs []error
	for _, d := range []string{dir, unitDir(spec, dir)} {
		entries, err := os.ReadDir(d)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
		for _, e := range entries {
			if e.Type().IsRegular() && tempName.MatchString(e.Name()) {
				errs = append(errs, os.Remove(filepath.Join(d, e.Name())))
			}
		}
	}
	return errors.Join(errs...)
}

// unitPath is the file of a unit's result.
func unitPath(spec *Spec, dir string, u Unit) string {
	return filepath.Join(unitDir(spec, dir), unitFile(u))
}
