package session_test

// Cells that drive the compiled engine through the extracted symbols: the
// kernel's promise is that a loop written in a cell runs at nearly the
// speed of the same loop compiled, because the work happens in native
// engine calls, and that types a cell declares can stand in for the
// engine's interfaces.

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/traefik/yaegi/interp"
	"github.com/traefik/yaegi/stdlib"

	"gdlab/datasets"
	"gdlab/engine/game"
	"gdlab/engine/prover"
	"gdlab/kernel/session"
	"gdlab/kernel/symbols"
)

// engineSession returns a session with the standard library and the
// project's symbols, as the kernel makes it, and the cells declaring the
// playout loops and a ticTacToe prover m.
func engineSession(tb testing.TB) (*session.Session, *bytes.Buffer) {
	tb.Helper()
	var out bytes.Buffer
	s, err := session.New(session.Options{Stdout: &out, Stderr: &out, Symbols: []interp.Exports{stdlib.Symbols, symbols.Symbols}})
	if err != nil {
		tb.Fatal(err)
	}
	for _, src := range []string{srcImports, srcMachine, srcPlayouts, srcWalk} {
		if _, err := s.Eval(context.Background(), src); err != nil {
			tb.Fatalf("%v\n%s\noutput: %s", err, src, out.String())
		}
	}
	return s, &out
}

const srcImports = `import (
	"context"
	"gdlab/datasets"
	"gdlab/engine/game"
	"gdlab/engine/heuristic"
	"gdlab/engine/match"
	"gdlab/engine/prover"
	"gdlab/engine/search"
)`

const srcMachine = `g, err := datasets.Game("ticTacToe")
if err != nil { panic(err) }
d, err := g.Description()
if err != nil { panic(err) }
m, err := prover.New(d)
if err != nil { panic(err) }`

// srcPlayouts and srcWalk are the cell versions of playouts and walk
// below, character for character but for the package qualifier.
const srcPlayouts = `func playouts(m game.Machine, n int, seed uint64) int {
	rng := game.NewRand(seed)
	steps := 0
	for i := 0; i < n; i++ {
		r, err := game.Playout(context.Background(), m, m.Initial(), rng, 0)
		if err != nil {
			panic(err)
		}
		steps += r.Steps
	}
	return steps
}`

const srcWalk = `func walk(m game.Machine, n int, seed uint64) int {
	rng := game.NewRand(seed)
	roles := len(m.Roles())
	moves := make([]game.Move, 0, 64)
	joint := make([]game.Move, roles)
	steps := 0
	for i := 0; i < n; i++ {
		s := m.Initial()
		for {
			done, err := m.Terminal(s)
			if err != nil {
				panic(err)
			}
			if done {
				break
			}
			for r := 0; r < roles; r++ {
				moves, err = m.Legal(s, r, moves)
				if err != nil {
					panic(err)
				}
				joint[r] = moves[rng.IntN(len(moves))]
			}
			s, err = m.Next(s, joint)
			if err != nil {
				panic(err)
			}
			steps++
		}
	}
	return steps
}`

// playouts is srcPlayouts compiled: n depth charges through game.Playout.
func playouts(m game.Machine, n int, seed uint64) int {
	rng := game.NewRand(seed)
	steps := 0
	for i := 0; i < n; i++ {
		r, err := game.Playout(context.Background(), m, m.Initial(), rng, 0)
		if err != nil {
			panic(err)
		}
		steps += r.Steps
	}
	return steps
}

// walk is srcWalk compiled: n depth charges written out move by move, so
// that a cell makes four machine calls per step rather than one per playout.
func walk(m game.Machine, n int, seed uint64) int {
	rng := game.NewRand(seed)
	roles := len(m.Roles())
	moves := make([]game.Move, 0, 64)
	joint := make([]game.Move, roles)
	steps := 0
	for i := 0; i < n; i++ {
		s := m.Initial()
		for {
			done, err := m.Terminal(s)
			if err != nil {
				panic(err)
			}
			if done {
				break
			}
			for r := 0; r < roles; r++ {
				moves, err = m.Legal(s, r, moves)
				if err != nil {
					panic(err)
				}
				joint[r] = moves[rng.IntN(len(moves))]
			}
			s, err = m.Next(s, joint)
			if err != nil {
				panic(err)
			}
			steps++
		}
	}
	return steps
}

func ticTacToe(tb testing.TB) game.Machine {
	tb.Helper()
	g, err := datasets.Game("ticTacToe")
	if err != nil {
		tb.Fatal(err)
	}
	d, err := g.Description()
	if err != nil {
		tb.Fatal(err)
	}
	m, err := prover.New(d)
	if err != nil {
		tb.Fatal(err)
	}
	return m
}

// cellValue returns the value of a cell's variable.
func cellValue(tb testing.TB, s *session.Session, name string) any {
	tb.Helper()
	r, err := s.Eval(context.Background(), name)
	if err != nil || len(r.Values) != 1 {
		tb.Fatalf("Eval(%s) = %v, %v", name, r.Values, err)
	}
	return r.Values[0].Interface()
}

func evalInt(tb testing.TB, s *session.Session, src string) int {
	tb.Helper()
	r, err := s.Eval(context.Background(), src)
	if err != nil {
		tb.Fatalf("Eval(%q): %v", src, err)
	}
	if len(r.Values) != 1 || r.Values[0].Kind() != reflect.Int {
		tb.Fatalf("Eval(%q) = %v, want one int", src, r.Values)
	}
	return int(r.Values[0].Int())
}

// TestCellPlayoutsMatchCompiled checks that the loops play the same games
// in a cell as compiled: same seed, same number of steps.
func TestCellPlayoutsMatchCompiled(t *testing.T) {
	s, _ := engineSession(t)
	m := ticTacToe(t)
	if got, want := evalInt(t, s, "playouts(m, 50, 7)"), playouts(m, 50, 7); got != want {
		t.Errorf("playouts in a cell: %d steps, compiled: %d", got, want)
	}
	if got, want := evalInt(t, s, "walk(m, 50, 7)"), walk(m, 50, 7); got != want {
		t.Errorf("walk in a cell: %d steps, compiled: %d", got, want)
	}
}

// loopPlayouts is the number of playouts per benchmark op, about 10 ms of
// ticTacToe prover work: enough that a cell's fixed cost (some 50 µs)
// shows as it would in a notebook's timing loop, not magnified.
const loopPlayouts = 100

// BenchmarkPlayoutLoop compares the playout loops evaluated in a cell with
// the same loops compiled, on one prover each for ticTacToe and for
// connectFour (20 playouts per op there); ns/op of cell over compiled is
// the overhead of driving the engine from a notebook.
func BenchmarkPlayoutLoop(b *testing.B) {
	s, _ := engineSession(b)
	if _, err := s.Eval(context.Background(), srcConnectFour); err != nil {
		b.Fatal(err)
	}
	for _, g := range []struct {
		name, machine string
		n             int
	}{{"ticTacToe", "m", loopPlayouts}, {"connectFour", "m4", loopPlayouts / 5}} {
		m := cellValue(b, s, g.machine).(game.Machine)
		for _, loop := range []struct {
			name     string
			compiled func(game.Machine, int, uint64) int
		}{{"playouts", playouts}, {"walk", walk}} {
			b.Run(g.name+"/"+loop.name+"/compiled", func(b *testing.B) {
				for b.Loop() {
					loop.compiled(m, g.n, 1)
				}
			})
			b.Run(g.name+"/"+loop.name+"/cell", func(b *testing.B) {
				src := fmt.Sprintf("%s(%s, %d, 1)", loop.name, g.machine, g.n)
				for b.Loop() {
					if _, err := s.Eval(context.Background(), src); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// srcConnectFour declares m4, a connectFour prover, whose steps cost some
// ten times ticTacToe's.
const srcConnectFour = `g4, err := datasets.Game("connectFour")
if err != nil { panic(err) }
d4, err := g4.Description()
if err != nil { panic(err) }
m4, err := prover.New(d4)
if err != nil { panic(err) }`

// TestPlayoutLoopOverhead measures what BenchmarkPlayoutLoop does, the
// loops' time in a cell over their time compiled, and logs it (go test -v
// -run Overhead). The machine may be shared, so the two are timed in
// alternation and each ratio is of the least disturbed rounds; even so
// the test fails only on a gross slowdown, one that means the loop's work
// is no longer done natively. The target is a ratio within 1.10.
func TestPlayoutLoopOverhead(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: timing")
	}
	s, _ := engineSession(t)
	m := cellValue(t, s, "m").(game.Machine) // one machine for both, so that only the loop differs
	for _, loop := range []struct {
		name     string
		compiled func(game.Machine, int, uint64) int
		limit    float64
	}{{"playouts", playouts, 1.5}, {"walk", walk, 2.5}} {
		src := fmt.Sprintf("%s(m, %d, 1)", loop.name, loopPlayouts)
		compiled, cell := overhead(t, func() { loop.compiled(m, loopPlayouts, 1) }, func() {
			if _, err := s.Eval(context.Background(), src); err != nil {
				t.Fatal(err)
			}
		})
		ratio := cell / compiled
		t.Logf("%s: %d ticTacToe playouts, compiled %.2f ms, cell %.2f ms, ratio %.3f", loop.name, loopPlayouts, compiled*1e3, cell*1e3, ratio)
		if ratio > loop.limit {
			t.Errorf("%s in a cell is %.2fx slower than compiled (limit %.1fx)", loop.name, ratio, loop.limit)
		}
	}
}

// overhead times a and b in rounds, alternating which goes first (the
// second of a pair runs measurably slower on a busy machine), and returns
// the least time per call of each, in seconds.
func overhead(t *testing.T, a, b func()) (float64, float64) {
	const rounds, calls = 20, 3
	a() // warm both: memo tables, the interpreter's first run
	b()
	best := [2]float64{math.Inf(1), math.Inf(1)}
	fns := [2]func(){a, b}
	for r := range rounds {
		for k := range 2 {
			i := (r + k) % 2
			runtime.GC()
			start := time.Now()
			for range calls {
				fns[i]()
			}
			best[i] = min(best[i], time.Since(start).Seconds()/calls)
		}
	}
	return best[0], best[1]
}

// TestCellEvaluatorInSearch passes evaluation functions written in a cell,
// a declared type implementing heuristic.Evaluator and a function made a
// heuristic.Func, to the engine's searchers, which call them back from
// compiled code; both must be called and the matches must finish.
func TestCellEvaluatorInSearch(t *testing.T) {
	s, out := engineSession(t)
	cells := []string{
		// Prefer states where the role holds the centre: a tiny,
		// recognisably ticTacToe evaluator that a researcher might write.
		`type centre struct{ calls *int }`,
		`func (c centre) Evaluate(m game.Machine, s game.State, role int) (float64, error) {
	*c.calls++
	mark := "x"
	if role == 1 {
		mark = "o"
	}
	for _, f := range s.Facts() {
		if f == "(cell 2 2 "+mark+")" {
			return 75, nil
		}
	}
	return 50, nil
}`,
		`var typeCalls, funcCalls int`,
		`mobility := heuristic.Func(func(m game.Machine, s game.State, role int) (float64, error) {
	funcCalls++
	moves, err := m.Legal(s, role, nil)
	if err != nil {
		return 0, err
	}
	return float64(len(moves)) * 10, nil
})`,
		// A value of a cell's type goes into an engine struct's interface
		// field by assignment: yaegi v0.16.1 cannot put it there in the
		// composite literal itself (reflect.Set panics), but it wraps it
		// when it is assigned, passed as an argument, or held in a
		// variable of the interface type.
		`ab := &search.AlphaBeta{MaxDepth: 2}
ab.Eval = centre{&typeCalls}
mm := &search.Minimax{Depth: 2, Eval: mobility}
row, err := match.Run(context.Background(), m, []match.Seat{{Player: ab}, {Player: mm}}, match.Options{}, 3)
if err != nil {
	panic(err)
}`,
		`row.Finished`,
		`len(row.Errors) == 2 && row.Errors[0] == 0 && row.Errors[1] == 0`,
		`typeCalls > 0 && funcCalls > 0`,
		`v, _, err := search.MinimaxValue(context.Background(), m, m.Initial(), 0, 1, centre{&typeCalls}, search.Budget{})
if err != nil {
	panic(err)
}`,
		`v`,
	}
	var last []string
	for _, src := range cells {
		r, err := s.Eval(context.Background(), src)
		if err != nil {
			t.Fatalf("Eval(%q): %v\noutput: %s", src, err, out.String())
		}
		last = last[:0]
		for _, v := range r.Values {
			last = append(last, fmt.Sprint(v))
		}
		if strings.HasPrefix(src, "row.") || strings.HasPrefix(src, "len(") || strings.HasPrefix(src, "typeCalls") {
			if got := strings.Join(last, " "); got != "true" {
				t.Errorf("%s = %s, want true", src, got)
			}
		}
	}
	// One ply from the start with the centre evaluator: x can take the
	// centre, so the best reply-proof value is 75.
	if got := strings.Join(last, " "); got != "75" {
		t.Errorf("MinimaxValue with the cell's evaluator = %s, want 75", got)
	}
}

// TestCellLoadsNativeKernels: a cell builds and loads a game's native
// kernels into the running session, without a restart, and its lanes play
// the same seeded playouts as the interpreted lanes compiled here.
func TestCellLoadsNativeKernels(t *testing.T) {
	s, out := engineSession(t)
	cache := t.TempDir()
	src := fmt.Sprintf(`import (
	"gdlab/engine/propnet"
	"gdlab/engine/propnet/native"
)

func streamSteps(f *propnet.Flat) int {
	_, steps, err := f.NewLanes().Stream(context.Background(), game.NewRand(5), 300, nil)
	if err != nil { panic(err) }
	return steps
}

gc, err := datasets.Game("connectFour")
if err != nil { panic(err) }
dc, err := gc.Description()
if err != nil { panic(err) }
netc, err := propnet.Build(context.Background(), dc, propnet.Options{})
if err != nil { panic(err) }
flatc, err := propnet.NewFlat(netc)
if err != nil { panic(err) }
nativec, rep, err := native.Load(context.Background(), flatc, native.Options{CacheDir: %q})
if err != nil { panic(err) }`, cache)
	if _, err := s.Eval(context.Background(), src); err != nil {
		t.Fatalf("%v\noutput: %s", err, out.String())
	}
	got, want := evalInt(t, s, "streamSteps(nativec)"), evalInt(t, s, "streamSteps(flatc)")
	if got != want {
		t.Errorf("native lanes in a cell played %d moves, interpreted ones %d", got, want)
	}
	if cached := cellValue(t, s, "rep.Cached").(bool); cached {
		t.Error("the first load in an empty cache reported a cached plugin")
	}
}
