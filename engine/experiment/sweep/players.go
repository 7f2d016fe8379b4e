package sweep

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"gdlab/engine/analysis/latch"
	"gdlab/engine/heuristic"
	"gdlab/engine/search"
	"gdlab/engine/search/mcts"
	"gdlab/engine/search/mmapprox"
)

// budgetParams are the parameters every kind takes: the per-move budget.
var budgetParams = []string{"nextcalls", "nodes", "ms"}

// kind is a player kind: its parameters (besides the budget), whether it
// takes an evaluator, how to make one from a setting, and, for a kind that
// searches, its own parameters that bound a move's search (the budget's
// bound every kind) and the check its parameters must pass.
type kind struct {
	params []string
	eval   bool
	make   func(p params, eval heuristic.Evaluator, an *latch.Analysis) search.Player
	// searches is set for kinds whose move search runs until a bound
	// stops it: without one a unit never finishes.
	searches bool
	bounds   []string
	check    func(p params) error
}

// latchParams are MCTS's four latch switches (mcts.Options' LatchTerminal,
// LatchWin, LatchSelect and LatchPlayout), on when not 0.
var latchParams = []string{"latchterminal", "latchwin", "latchselect", "latchplayout"}

// kinds are the players a spec can name. Every one is single-threaded, so
// matches under node or Next-call budgets are reproducible.
var kinds = map[string]kind{
	"mcts": {params: append([]string{"iterations", "c", "power", "polyexplore"}, latchParams...), make: func(p params, _ heuristic.Evaluator, an *latch.Analysis) search.Player {
		o := mcts.Options{Iterations: int64(p.get("iterations", 0)), C: p.get("c", 0), PowerMean: p.get("power", 0), PolyExplore: p.get("polyexplore", 0),
			LatchTerminal: p.get("latchterminal", 0) != 0, LatchWin: p.get("latchwin", 0) != 0,
			LatchSelect: p.get("latchselect", 0) != 0, LatchPlayout: p.get("latchplayout", 0) != 0}
		if p.usesLatches() {
			o.Analysis = an
		}
		return mcts.New(o)
	}, searches: true, bounds: []string{"iterations"}, check: checkMCTS},
	"mm": {params: []string{"p", "reverse", "penalty"}, eval: true, make: func(p params, e heuristic.Evaluator, _ *latch.Analysis) search.Player {
		return &mmapprox.Player{Eval: e, P: p.get("p", 10), Reverse: p.get("reverse", 0) != 0, Penalty: p.get("penalty", 0)}
	}, searches: true, check: checkMM},
	"alphabeta": {params: []string{"notable", "noordering", "maxdepth"}, eval: true, make: func(p params, e heuristic.Evaluator, _ *latch.Analysis) search.Player {
		return &search.AlphaBeta{Eval: e, NoTable: p.get("notable", 0) != 0, NoOrdering: p.get("noordering", 0) != 0, MaxDepth: int(p.get("maxdepth", 0))}
	}, searches: true, bounds: []string{"maxdepth"}},
	"flat-mc":    {make: func(params, heuristic.Evaluator, *latch.Analysis) search.Player { return &search.FlatMonteCarlo{} }},
	"montecarlo": {make: func(params, heuristic.Evaluator, *latch.Analysis) search.Player { return &search.MonteCarlo{} }},
	"random":     {make: func(params, heuristic.Evaluator, *latch.Analysis) search.Player { return &search.Random{} }},
	"legal":      {make: func(params, heuristic.Evaluator, *latch.Analysis) search.Player { return &search.Legal{} }},
}

// evaluators are the static evaluators a spec can name.
var evaluators = map[string]func() heuristic.Evaluator{
	"":          func() heuristic.Evaluator { return nil },
	"mobility":  func() heuristic.Evaluator { return heuristic.Mobility{} },
	"rivest-c4": func() heuristic.Evaluator { return mmapprox.Connect4{} },
}

// Kinds returns the player kinds a spec can name, each with the parameters
// it takes, as "kind(param, ...)".
func Kinds() []string {
	var out []string
	for name, k := range kinds {
		out = append(out, name+"("+k.paramList()+")")
	}
	sort.Strings(out)
	return out
}

func (k kind) takes(param string) bool {
	for _, p := range append(append([]string{}, budgetParams...), k.params...) {
		if p == param {
			return true
		}
	}
	return false
}

func (k kind) paramList() string {
	return strings.Join(append(append([]string{}, k.params...), budgetParams...), ", ")
}

func checkPlayer(p PlayerSpec) error {
	k, ok := kinds[p.Kind]
	if !ok {
		return fmt.Errorf("unknown kind %q (have %s)", p.Kind, strings.Join(Kinds(), ", "))
	}
	if _, ok := evaluators[p.Eval]; !ok {
		return fmt.Errorf("unknown evaluator %q (have mobility, rivest-c4, or none)", p.Eval)
	}
	if p.Eval != "" && !k.eval {
		return fmt.Errorf("a %s player takes no evaluator", p.Kind)
	}
	for _, name := range sortedKeys(p.Params) {
		if !k.takes(name) {
			return fmt.Errorf("a %s player takes no %q (it takes %s)", p.Kind, name, k.paramList())
		}
	}
	return nil
}

// params are a player's parameters in one setting.
type params map[string]float64

func (p params) get(name string, def float64) float64 {
	if v, ok := p[name]; ok {
		return v
	}
	return def
}

// usesLatches reports whether any latch switch is on.
func (p params) usesLatches() bool {
	for _, name := range latchParams {
		if p.get(name, 0) != 0 {
			return true
		}
	}
	return false
}

// budget is the per-move budget the parameters set.
func (p params) budget() search.Budget {
	return search.Budget{NextCalls: int64(p.get("nextcalls", 0)), Nodes: int64(p.get("nodes", 0)),
		Time: time.Duration(p.get("ms", 0) * float64(time.Millisecond))}
}

// in returns the player's parameters in a setting: its own, overridden by
// the setting's axes that name its label.
func (p PlayerSpec) in(setting map[string]float64) params {
	out := params{}
	for k, v := range p.Params {
		out[k] = v
	}
	for k, v := range setting {
		if label, param, _ := strings.Cut(k, "."); label == p.Name() {
			out[param] = v
		}
	}
	return out
}

// player makes the entrant for one match of a setting; an is the game's
// latch analysis, given to the switches that use it (nil when there is
// none: the player then computes its own).
func (p PlayerSpec) player(setting map[string]float64, an *latch.Analysis) (search.Player, search.Budget) {
	ps := p.in(setting)
	return kinds[p.Kind].make(ps, evaluators[p.Eval](), an), ps.budget()
}

// usesLatches reports whether the player switches any latch analysis on in
// the setting.
func (p PlayerSpec) usesLatches(setting map[string]float64) bool { return p.in(setting).usesLatches() }
