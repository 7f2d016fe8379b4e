package tarpit

import (
	"context"
	"fmt"

	"gdlab/engine/search"
	"gdlab/engine/search/mcts"
)

// Config is one configuration measured: the kind of tree and the weight of
// the game's heuristic blended into new nodes' values.
type Config struct {
	Name string
	// DecisionNodes searches a tree of decision nodes only, one role
	// choosing at each node (mcts.Options.DecisionNodes); false, the joint
	// tree (one node a state, a bandit a choosing role).
	DecisionNodes bool
	// HeuristicWeight, when above 0, blends the game's heuristic
	// (GameHeuristic) at this weight; such a configuration skips the
	// positions of games without one.
	HeuristicWeight float64
}

// Blends reports whether the configuration blends a heuristic.
func (c Config) Blends() bool { return c.HeuristicWeight > 0 }

// Applies reports whether the configuration searches p: every position,
// or with blending those of games with a heuristic.
func (c Config) Applies(p Position) bool { return !c.Blends() || p.Heuristic != nil }

// Options returns the MCTS options of a search of p at budget iterations:
// plain UCT on one thread with the configuration's tree and blending.
func (c Config) Options(p Position, budget int64) mcts.Options {
	opt := mcts.Options{Iterations: budget, DecisionNodes: c.DecisionNodes}
	if c.Blends() {
		opt.Heuristic, opt.HeuristicWeight = p.Heuristic, c.HeuristicWeight
	}
	return opt
}

// Configs returns the five configurations of the comparison: the joint
// tree and decision nodes only, without blending; the joint tree blending
// at weights 0.25 and 0.5; decision nodes blending at 0.25.
func Configs() []Config {
	return []Config{
		{Name: "joint"},
		{Name: "decision", DecisionNodes: true},
		{Name: "joint+h0.25", HeuristicWeight: 0.25},
		{Name: "joint+h0.5", HeuristicWeight: 0.5},
		{Name: "decision+h0.25", DecisionNodes: true, HeuristicWeight: 0.25},
	}
}

// ConfigNamed returns the configuration of Configs with the given name.
func ConfigNamed(name string) (Config, error) {
	for _, c := range Configs() {
		if c.Name == name {
			return c, nil
		}
	}
	return Config{}, fmt.Errorf("tarpit: no configuration %q", name)
}

// Search runs one search of p with cfg at budget iterations, seeded by
// seed, and reports whether the move chosen is a best move. ctx stops it.
func Search(ctx context.Context, p Position, cfg Config, budget int64, seed uint64) (bool, error) {
	pl := mcts.New(cfg.Options(p, budget))
	if err := pl.Start(ctx, search.Setup{Machine: p.Machine, Role: p.Role, Seed: seed}); err != nil {
		return false, err
	}
	mv, _, err := pl.Play(ctx, p.State, search.Budget{})
	if err != nil {
		return false, fmt.Errorf("tarpit: %s: %w", p.Name(), err)
	}
	return p.IsBest(mv), nil
}

// Count searches p with cfg at budget iterations once for each seed
// firstSeed, firstSeed+1, ... (seeds searches) and returns how many chose
// a best move; -1 when cfg does not apply to p (Config.Applies).
func Count(ctx context.Context, p Position, cfg Config, budget int64, firstSeed uint64, seeds int) (int, error) {
	if !cfg.Applies(p) {
		return -1, nil
	}
	hits := 0
	for i := 0; i < seeds; i++ {
		best, err := Search(ctx, p, cfg, budget, firstSeed+uint64(i))
		if err != nil {
			return hits, err
		}
		if best {
			hits++
		}
	}
	return hits, nil
}

// Run is Count for every position, in order: the per-position counts of
// searches choosing a best move (-1 where cfg does not apply).
func Run(ctx context.Context, ps []Position, cfg Config, budget int64, firstSeed uint64, seeds int) ([]int, error) {
	out := make([]int, 0, len(ps))
	for _, p := range ps {
		k, err := Count(ctx, p, cfg, budget, firstSeed, seeds)
		if err != nil {
			return out, err
		}
		out = append(out, k)
	}
	return out, nil
}
