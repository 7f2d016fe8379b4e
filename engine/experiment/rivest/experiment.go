package rivest

import (
	"context"
	"errors"
	"fmt"
	"time"

	"gdlab/engine/game"
	"gdlab/engine/heuristic"
	"gdlab/engine/search"
	"gdlab/engine/search/mmapprox"
)

// Settings choose the size of the whole experiment.
type Settings struct {
	Openings int           // openings per bound (two games each); 0 means all 49
	Seed     uint64        // base seed of every block
	Step     time.Duration // time bounds are 1..5 × Step; 0 means 5 ms
	Workers  int           // games at once; 0 means GOMAXPROCS
	P        float64       // MM's p in the main tables; 0 means 10
	Reverse  bool          // MM's variant in the main tables
	Sweep    []float64     // the p values of the sweep; nil means 1, 2, 5, 10, 20, 50, 1e6
	Command  string        // the command line, recorded in the reports
	// Progress, if set, is called after each game with the block's title,
	// the games done and the block's total.
	Progress func(block string, done, total int)
}

// Resamples is the number of bootstrap resamples behind the verdict on p.
const Resamples = 2000

// Names of the reports Experiment returns, in order, as saved under
// datasets/results.
var Names = []string{"rivest-main", "rivest-psweep", "rivest-general"}

// Experiment runs the reproduction: the main tables (MM with the chosen p
// against AB under the five move bounds and the five time bounds, Rivest's
// evaluator), the sweep of p at the middle bounds (3000 calls and 3 × Step),
// and the same middle bounds with a general GDL evaluator (mobility)
// instead of Rivest's. It returns the three reports named by Names.
func Experiment(ctx context.Context, m game.Machine, st Settings) ([]*Report, error) {
	if st.Step <= 0 {
		st.Step = 5 * time.Millisecond
	}
	if st.P == 0 {
		st.P = 10
	}
	if st.Sweep == nil {
		st.Sweep = []float64{1, 2, 5, 10, 20, 50, 1e6}
	}
	n := st.Openings
	if n <= 0 || n > 49 {
		n = 49
	}
	seeds := fmt.Sprintf("the game from opening o (0..48, white's column slowest) with MM in seat c (0 white, 1 black) has match seed heuristic.Mix(%d + 2o + c) (rivest.GameSeed) in every bound and block", st.Seed)
	notes := []string{
		fmt.Sprintf("Connect Four 7×6 (datasets connectFour, propositional network); %d openings (first two moves fixed) × 2 colours per bound", n),
		fmt.Sprintf("time bounds are 1–5 × %v per move, Rivest's 1–5 s scaled to this implementation's speed", st.Step),
		"AB is engine/search.AlphaBeta: iterative deepening, move ordering, transposition table; both programs use the same evaluator",
		"MM score: (wins + ties/2) / games with a 95% Wilson interval; AB/MM calls per s: AB's move-operator calls per second of thinking over MM's",
	}
	middle := []Bound{MoveBounds()[2], TimeBounds(st.Step)[2]}
	var out []*Report
	var errs []error
	run := func(title string, cfg Config, bounds []Bound) []Result {
		cfg.Openings, cfg.Seed, cfg.Workers = n, st.Seed, st.Workers
		if st.Progress != nil {
			cfg.Progress = func(done, total int) { st.Progress(title, done, total) }
		}
		rs, _, err := Run(ctx, m, cfg, bounds)
		errs = append(errs, err)
		return rs
	}
	variant := "mean"
	if st.Reverse {
		variant = "reverse approximation"
	}
	main := &Report{Title: "Rivest's Connect Four experiment: min/max approximation against alpha-beta", Command: st.Command, Seeds: seeds, Notes: notes}
	for _, kind := range []string{"moves", "time"} {
		bounds := MoveBounds()
		if kind == "time" {
			bounds = TimeBounds(st.Step)
		}
		title := fmt.Sprintf("%s bounds, MM p=%g (%s)", kind, st.P, variant)
		rs := run(title, Config{P: st.P, Reverse: st.Reverse}, bounds)
		rs = append(rs, Total("total", rs), PaperTotal(kind))
		main.Blocks = append(main.Blocks, Block{Title: title, Results: rs})
	}
	out = append(out, main)
	sweep := &Report{Title: "Tuning p: MM against alpha-beta at the middle bounds", Command: st.Command, Seeds: seeds, Notes: notes}
	for _, b := range middle {
		var rs []Result
		for _, p := range st.Sweep {
			r := run(fmt.Sprintf("sweep %s p=%g", b.Label, p), Config{P: p, Reverse: st.Reverse}, []Bound{b})
			rs = append(rs, r...)
		}
		sweep.Blocks = append(sweep.Blocks, Block{Title: fmt.Sprintf("p sweep at %s (%s)", b.Label, variant), Results: rs})
	}
	sweep.Summary = SweepSummary(sweep.Blocks, st.Seed)
	out = append(out, sweep)
	general := &Report{Title: "A general GDL evaluator (mobility) in place of Rivest's", Command: st.Command, Seeds: seeds, Notes: notes}
	rs := run("general evaluator", Config{P: st.P, Reverse: st.Reverse, Eval: heuristic.Mobility{}}, middle)
	general.Blocks = append(general.Blocks, Block{Title: fmt.Sprintf("mobility, MM p=%g (%s)", st.P, variant), Results: rs})
	out = append(out, general)
	return out, errors.Join(errs...)
}

// Shape is the tree-shape summary of one MM search, for charts of shape
// against p.
type Shape struct {
	P            float64
	Nodes        int
	MaxDepth     int
	MeanTipDepth float64
	Depths       []int
}

// Shapes runs one MM search per p from each of the given openings (indices
// into Openings) with the given budget and Rivest's evaluator, and returns
// the tree shapes, p by p and opening by opening.
func Shapes(ctx context.Context, m game.Machine, ps []float64, openings []int, reverse bool, b search.Budget) ([]Shape, error) {
	states, _, err := Openings(m)
	if err != nil {
		return nil, err
	}
	var out []Shape
	for _, p := range ps {
		for _, o := range openings {
			sh, err := shape(ctx, m, states[o], p, reverse, b)
			if err != nil {
				return out, err
			}
			out = append(out, sh)
		}
	}
	return out, nil
}

// shape searches once from s, white to move, and describes the tree.
func shape(ctx context.Context, m game.Machine, s game.State, p float64, reverse bool, b search.Budget) (Shape, error) {
	pl := &mmapprox.Player{P: p, Reverse: reverse, Eval: mmapprox.Connect4{}}
	if err := pl.Start(ctx, search.Setup{Machine: m, Role: 0, Seed: 1}); err != nil {
		return Shape{}, err
	}
	if _, _, err := pl.Play(ctx, s, b); err != nil {
		return Shape{}, err
	}
	sh := pl.Shape()
	return Shape{P: p, Nodes: sh.Nodes, MaxDepth: sh.MaxDepth, MeanTipDepth: sh.MeanTipDepth, Depths: sh.Depths}, nil
}
