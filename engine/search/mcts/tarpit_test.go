package mcts

import (
	"context"
	"fmt"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"gdlab/engine/game"
	"gdlab/engine/heuristic"
	"gdlab/engine/search"
	"gdlab/engine/stats"
)

// TestTarPit is the measured comparison of issue 27, run only when
// GDLAB_TARPIT is set (it takes minutes; GDLAB_TARPIT_SEEDS and
// GDLAB_TARPIT_BUDGETS, a comma-separated list, change its size):
//
//	GDLAB_TARPIT=1 go test ./engine/search/mcts -run TestTarPit -v -timeout 2h
//
// For each configuration (the joint tree against decision nodes only,
// heuristic blending off against on at two weights where the game has a
// heuristic) and iteration budget, it searches every position of the
// regression set with several seeds and reports the share of searches whose
// move is a best move, with two 95% intervals: Wilson's over the searches
// (which treats a position's seeds as independent, so it is too narrow)
// and a percentile bootstrap that resamples positions (2,000 resamples).
func TestTarPit(t *testing.T) {
	if os.Getenv("GDLAB_TARPIT") == "" {
		t.Skip("the measured comparison runs with GDLAB_TARPIT=1")
	}
	seeds := envInt(t, "GDLAB_TARPIT_SEEDS", 10)
	budgets := envInts(t, "GDLAB_TARPIT_BUDGETS", []int{100, 300, 1000, 10000})
	cases := tarpitCases(t)
	all := map[string][]int{} // by configuration and budget
	for _, cfg := range tarpitConfigs() {
		for _, budget := range budgets {
			hits := tarpitRun(t, cases, cfg, budget, seeds)
			all[fmt.Sprint(cfg.name, budget)] = hits
			tarpitMisses(t, cases, cfg.name, budget, seeds, hits)
			for _, class := range []string{"one chooses", "both choose", "heuristic games"} {
				var in []int
				for i, c := range cases {
					if hits[i] >= 0 && inClass(c, class) {
						in = append(in, hits[i])
					}
				}
				if len(in) > 0 {
					t.Log(tarpitLine(cfg.name, class, budget, seeds, in))
				}
			}
		}
	}
	for _, d := range []struct{ a, b, class string }{
		{"decision", "joint", "both choose"},
		{"joint+h0.25", "joint", "heuristic games"},
		{"joint+h0.5", "joint", "heuristic games"},
		{"decision+h0.25", "decision", "heuristic games"},
	} {
		for _, budget := range budgets {
			a, b := all[fmt.Sprint(d.a, budget)], all[fmt.Sprint(d.b, budget)]
			t.Log(tarpitDiff(cases, d.a+" − "+d.b, d.class, budget, seeds, a, b))
		}
	}
}

// tarpitDiff formats the difference in the share of best moves between two
// configurations on a class's positions, with a paired percentile bootstrap
// over positions (95%, 2,000 resamples).
func tarpitDiff(cases []tarpitCase, what, class string, budget, seeds int, a, b []int) string {
	var da, db []int
	for i, c := range cases {
		if inClass(c, class) && a[i] >= 0 && b[i] >= 0 {
			da, db = append(da, a[i]), append(db, b[i])
		}
	}
	n := float64(len(da) * seeds)
	diff := func(draw []int) float64 {
		s := 0
		for _, i := range draw {
			s += da[i] - db[i]
		}
		return float64(s) / n
	}
	all := make([]int, len(da))
	for i := range all {
		all[i] = i
	}
	var ds []float64
	stats.Bootstrap(len(da), 2000, game.NewRand(27), func(draw []int) { ds = append(ds, diff(draw)) })
	sort.Float64s(ds)
	return fmt.Sprintf("%-26s %-16s %6d iters: difference %+.3f, paired positions bootstrap [%+.3f, %+.3f] (%d positions)",
		what, class, budget, diff(all), stats.Percentile(ds, 0.025), stats.Percentile(ds, 0.975), len(da))
}

// tarpitCase is a position of the regression set ready to search.
type tarpitCase struct {
	m    game.Machine
	s    game.State
	role int
	pos  position
	heur heuristic.Evaluator // the game's heuristic, or nil
}

// tarpitConfig is one configuration measured.
type tarpitConfig struct {
	name      string
	opt       Options
	heuristic bool // blend the game's heuristic (only games that have one)
}

func tarpitConfigs() []tarpitConfig {
	return []tarpitConfig{
		{name: "joint", opt: Options{}},
		{name: "decision", opt: Options{DecisionNodes: true}},
		{name: "joint+h0.25", opt: Options{HeuristicWeight: 0.25}, heuristic: true},
		{name: "joint+h0.5", opt: Options{HeuristicWeight: 0.5}, heuristic: true},
		{name: "decision+h0.25", opt: Options{DecisionNodes: true, HeuristicWeight: 0.25}, heuristic: true},
	}
}

// tarpitCases loads every position of the regression set.
func tarpitCases(t *testing.T) []tarpitCase {
	var out []tarpitCase
	for _, f := range readPositionFiles(t) {
		m, skip := positionMachine(t, f)
		if m == nil {
			t.Logf("%s: skipped: %s", f.Game, skip)
			continue
		}
		for _, p := range f.Positions {
			s, err := reach(m, p.Moves)
			if err != nil {
				t.Fatal(err)
			}
			role, err := roleIndex(m, p.Role)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, tarpitCase{m: m, s: s, role: role, pos: p, heur: gameHeuristic(f.Game)})
		}
	}
	return out
}

// gameHeuristic returns the heuristic of the set's games that have one:
// material in breakthroughSmall. (Tic-tac-toe, Connect Four and Blocker
// count no pieces worth comparing, and their goals say nothing before the
// end.)
func gameHeuristic(game string) heuristic.Evaluator {
	if game == "breakthroughSmall" {
		return material{}
	}
	return nil
}

// material is the share of pieces a role owns, Sancho's piece heuristic in
// its simplest form:
//
//	material(s, role) = 100 · own / (own + others)
//
// where a role's pieces are the state's facts whose last argument is the
// role's name (breakthroughSmall's (cell x y white)); 50 when no piece is on
// the board.
type material struct{}

// Evaluate returns role's share of the pieces in s.
func (material) Evaluate(m game.Machine, s game.State, role int) (float64, error) {
	own, all := 0, 0
	for _, f := range s.Facts() {
		last := strings.TrimSuffix(f[strings.LastIndexByte(f, ' ')+1:], ")")
		if i := slices.Index(m.Roles(), last); i >= 0 {
			all++
			if i == role {
				own++
			}
		}
	}
	if all == 0 {
		return 50, nil
	}
	return 100 * float64(own) / float64(all), nil
}

// tarpitRun searches every position with cfg at budget iterations, once
// per seed, and returns per position the number of searches that chose a
// best move (-1 where cfg blends a heuristic the game does not have).
func tarpitRun(t *testing.T, cases []tarpitCase, cfg tarpitConfig, budget, seeds int) []int {
	var hits []int
	for _, c := range cases {
		if cfg.heuristic && c.heur == nil {
			hits = append(hits, -1)
			continue
		}
		k := 0
		for seed := 1; seed <= seeds; seed++ {
			opt := cfg.opt
			opt.Iterations = int64(budget)
			if cfg.heuristic {
				opt.Heuristic = c.heur
			}
			p := started(t, c.m, c.role, opt, uint64(seed))
			mv, _, err := p.Play(context.Background(), c.s, search.Budget{})
			if err != nil {
				t.Fatalf("%s: %v", c.pos.Name, err)
			}
			if slices.Contains(c.pos.Best, c.m.MoveText(c.role, mv)) {
				k++
			}
		}
		hits = append(hits, k)
	}
	return hits
}

// tarpitMisses logs the positions where some search missed a best move.
func tarpitMisses(t *testing.T, cases []tarpitCase, cfg string, budget, seeds int, hits []int) {
	var miss []string
	for i, c := range cases {
		if hits[i] >= 0 && hits[i] < seeds {
			miss = append(miss, fmt.Sprintf("%s %d/%d", c.pos.Name, hits[i], seeds))
		}
	}
	if len(miss) > 0 {
		t.Logf("%s at %d: missed in %s", cfg, budget, strings.Join(miss, ", "))
	}
}

// inClass reports whether a case belongs to a row of the table: positions
// where both roles choose, positions where one does (biddingTicTacToe's
// marking positions among them, below which both choose again), and the
// games with a heuristic.
func inClass(c tarpitCase, class string) bool {
	switch class {
	case "both choose":
		return c.pos.Simultaneous
	case "heuristic games":
		return c.heur != nil
	}
	return !c.pos.Simultaneous
}

// tarpitLine formats one row: the share of best moves with Wilson's and
// the position bootstrap's 95% intervals.
func tarpitLine(cfg, class string, budget, seeds int, hits []int) string {
	total := 0
	for _, k := range hits {
		total += k
	}
	n := len(hits) * seeds
	p, lo, hi := stats.Wilson(float64(total), n)
	var shares []float64
	stats.Bootstrap(len(hits), 2000, game.NewRand(27), func(draw []int) {
		s := 0
		for _, i := range draw {
			s += hits[i]
		}
		shares = append(shares, float64(s)/float64(n))
	})
	sort.Float64s(shares)
	return fmt.Sprintf("%-15s %-16s %6d iters: %3d/%-3d best = %.3f  Wilson [%.3f, %.3f]  positions bootstrap [%.3f, %.3f]  (%d positions × %d seeds)",
		cfg, class, budget, total, n, p, lo, hi, stats.Percentile(shares, 0.025), stats.Percentile(shares, 0.975), len(hits), seeds)
}

func envInt(t *testing.T, name string, def int) int {
	if v := os.Getenv(name); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			t.Fatalf("%s=%q: want a positive integer", name, v)
		}
		return n
	}
	return def
}

func envInts(t *testing.T, name string, def []int) []int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	var out []int
	for _, f := range strings.Split(v, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n <= 0 {
			t.Fatalf("%s=%q: want positive integers separated by commas", name, v)
		}
		out = append(out, n)
	}
	return out
}
