package sweep

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	beamlog "github.com/apache/beam/sdks/v2/go/pkg/beam/log"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/options/jobopts"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/universal"
)

func init() {
	beam.RegisterType(reflect.TypeOf((*playFn)(nil)).Elem())
	beam.RegisterFunction(discardKey)
}

// discardKey reads a played unit's key and does nothing with it.
func discardKey(string) {}

// playFn is the pipeline's transform: it plays a unit, given as JSON, and
// saves its result in the sweep's unit directory, from which the driver
// reads the table (so a run that stops part-way resumes from there).
type playFn struct {
	Spec  string // the spec, as JSON
	Dir   string // where the results go: shared by the workers and the driver
	Token string // this process's progress hook for the run, if any

	spec *Spec
	ms   *machines
}

// Setup reads the spec once per instance.
func (f *playFn) Setup() error {
	var s Spec
	if err := json.Unmarshal([]byte(f.Spec), &s); err != nil {
		return fmt.Errorf("sweep: the pipeline's spec: %w", err)
	}
	f.spec, f.ms = &s, &machines{}
	return nil
}

// ProcessElement plays one unit, keeps its result and emits the unit's
// key, which a stage of its own (the reshuffle is a fusion break) reads and
// drops: a stage whose output no other stage reads makes Prism (v2.77)
// wait for its bundles in a loop that spins on a closed channel, a core
// per running bundle, which made a sweep on two cores three times slower
// than the local runner.
func (f *playFn) ProcessElement(ctx context.Context, unit string, emit func(string)) error {
	var u Unit
	if err := json.Unmarshal([]byte(unit), &u); err != nil {
		return fmt.Errorf("sweep: a unit of the pipeline: %w", err)
	}
	_, err := playAndKeep(ctx, f.spec, u, f.ms, f.Dir)
	if err != nil && ctx.Err() == nil {
		// A unit's failure is the unit's, not the job's: failing the job
		// would end the others too. The driver reads it back with the
		// results, as the local runner reports its failed units.
		err = saveFailure(f.spec, f.Dir, u, err)
	}
	if err != nil {
		return err
	}
	hooks.report(f.Token)
	emit(u.Key())
	return nil
}

// failurePath is the file recording why a unit failed on a pipeline.
func failurePath(spec *Spec, dir string, u Unit) string {
	return strings.TrimSuffix(unitPath(spec, dir, u), ".json") + ".failed"
}

// saveFailure records a unit's failure for the driver.
func saveFailure(spec *Spec, dir string, u Unit, failure error) error {
	return saveAtomic(failurePath(spec, dir, u), func(f *os.File) error {
		_, err := f.WriteString(failure.Error())
		return err
	})
}

// cores bounds the units a process plays at once to its cores. Runners
// hand a process more bundles at once than it has cores (Prism ran six
// units at once on two); matches under time budgets would then search on
// a fraction of a core each.
var cores = &slots{}

type slots struct {
	once  sync.Once
	ch    chan struct{}
	taken atomic.Int64 // how many times a slot was taken, for the tests
}

// take waits for a free core and returns its release.
func (s *slots) take(ctx context.Context) (func(), error) {
	s.once.Do(func() { s.ch = make(chan struct{}, runtime.GOMAXPROCS(0)) })
	select {
	case s.ch <- struct{}{}:
		s.taken.Add(1)
		return func() { <-s.ch }, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// hooks lets the pipeline's workers report progress to the driver when
// both run in this process (the embedded runner, or a job server's
// loopback workers); elsewhere the token finds nothing.
var hooks = &progressHooks{byToken: map[string]func(int){}}

type progressHooks struct {
	mu      sync.Mutex
	next    atomic.Int64
	byToken map[string]func(int)
}

func (h *progressHooks) add(fn func(int)) (token string, remove func()) {
	token = strconv.FormatInt(h.next.Add(1), 10) + "-" + strconv.Itoa(os.Getpid())
	h.mu.Lock()
	h.byToken[token] = fn
	h.mu.Unlock()
	return token, func() {
		h.mu.Lock()
		delete(h.byToken, token)
		h.mu.Unlock()
	}
}

func (h *progressHooks) report(token string) {
	h.mu.Lock()
	fn := h.byToken[token]
	h.mu.Unlock()
	if fn != nil {
		fn(1)
	}
}

// runBeam runs the units as a Beam pipeline: the units, reshuffled so
// that the runner can spread them over its workers, into playFn.
func runBeam(ctx context.Context, spec *Spec, units []Unit, opt Options, report func(int)) ([]Result, error) {
	if len(units) == 0 {
		return nil, nil
	}
	dir := opt.Dir
	if dir == "" {
		tmp, err := os.MkdirTemp("", "gdlab-sweep-*")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(tmp)
		dir = tmp
		if err := claimUnitDir(spec, dir); err != nil {
			return nil, err
		}
	}
	p, err := pipeline(spec, units, dir, report)
	if err != nil {
		return nil, err
	}
	defer p.done()
	for _, u := range units {
		os.Remove(failurePath(spec, dir, u)) // an earlier run's, not this one's
	}
	var perr error
	if err := execute(ctx, p.p, opt); err != nil {
		perr = fmt.Errorf("sweep: the pipeline: %w", err)
	}
	// The units that finished are kept whether or not the job did.
	out, err := collectUnits(spec, dir, units)
	return out, errors.Join(perr, err)
}

// built is a pipeline and what to release after it ran.
type built struct {
	p    *beam.Pipeline
	done func()
}

func pipeline(spec *Spec, units []Unit, dir string, report func(int)) (built, error) {
	specJSON, err := json.Marshal(spec)
	if err != nil {
		return built{}, err
	}
	elems := make([]string, len(units))
	for i, u := range units {
		b, _ := json.Marshal(u)
		elems[i] = string(b)
	}
	token, remove := hooks.add(report)
	p, s := beam.NewPipelineWithRoot()
	us := beam.Reshuffle(s, beam.CreateList(s, elems))
	played := beam.ParDo(s, &playFn{Spec: string(specJSON), Dir: dir, Token: token}, us)
	beam.ParDo0(s, discardKey, beam.Reshuffle(s, played)) // see ProcessElement
	return built{p: p, done: remove}, nil
}

// execute runs a pipeline on the chosen runner. The SDK takes the job
// server's address from a process-wide flag, which the embedded runner
// also sets to its own server's: pipelines are therefore run one at a time,
// and the flag is set afresh for each (the embedded server's address, kept
// from its first run, or the universal runner's endpoint), so that a run on
// a job server does not send later embedded runs there.
func execute(ctx context.Context, p *beam.Pipeline, opt Options) error {
	initBeam()
	submit.Lock()
	defer submit.Unlock()
	switch opt.Runner {
	case RunnerUniversal:
		if opt.Endpoint == "" {
			return errors.New("the universal runner needs an endpoint (HOST:PORT of a job server)")
		}
		*jobopts.Endpoint = opt.Endpoint
		if *jobopts.EnvironmentType == "" {
			// Workers run in this process, beside the driver: the job
			// server must reach it (the same machine, or a routable address).
			*jobopts.EnvironmentType = "LOOPBACK"
		}
		_, err := universal.Execute(ctx, p)
		return err
	default:
		*jobopts.Endpoint = embeddedEndpoint // "" the first time: prism starts its server
		_, err := prism.Execute(ctx, p)
		embeddedEndpoint = *jobopts.Endpoint
		return err
	}
}

var (
	// submit serialises pipeline runs: see execute.
	submit sync.Mutex
	// embeddedEndpoint is the embedded Prism server's address once started.
	embeddedEndpoint string
)

var beamOnce sync.Once

// initBeam initialises the Go SDK once. beam.Init must run in main for a
// binary launched as a remote worker; gdlab's workers run in the driver's
// process (embedded or loopback), where it only needs the flags parsed.
func initBeam() {
	beamOnce.Do(func() {
		if !flag.Parsed() {
			flag.CommandLine.Parse(nil)
		}
		// beam.Init points the process's default slog logger (which gdlab
		// does not otherwise use) at standard error, and the SDK and Prism
		// log every step of every job there at Info: keep warnings and
		// errors only.
		beamlog.LogLevel = "warn"
		beam.Init()
	})
}

// collectUnits reads back the results of the units the pipeline played.
func collectUnits(spec *Spec, dir string, units []Unit) ([]Result, error) {
	var out []Result
	var errs []error
	for _, u := range units {
		r, err := readUnit(unitPath(spec, dir, u))
		switch {
		case err == nil:
			out = append(out, r)
		case errors.Is(err, os.ErrNotExist):
			errs = append(errs, unitFailure(spec, dir, u))
		default:
			errs = append(errs, err)
		}
	}
	return out, errors.Join(errs...)
}

// unitFailure is why a unit has no result: the failure its worker
// recorded, or that it was not played.
func unitFailure(spec *Spec, dir string, u Unit) error {
	if why, err := os.ReadFile(failurePath(spec, dir, u)); err == nil {
		return errors.New(string(why))
	}
	return fmt.Errorf("sweep: unit %s: not played", u.Key())
}
