package propnet

import (
	"context"
	"fmt"
	"time"

	"gdlab/engine/gdl"
	"gdlab/engine/ground"
)

// DefaultMaxNodes bounds the nodes of a network under construction.
const DefaultMaxNodes = 20_000_000

// Options tune Build. The zero value gives the defaults.
type Options struct {
	Ground   ground.Options // bounds of the grounding
	MaxNodes int            // nodes of the network; 0 means DefaultMaxNodes
	// NoOptimize skips optimisation, to measure what it gains.
	NoOptimize bool
	// EagerGoals propagates into the gates only goals read at every step,
	// as a network without lazy gates does, to measure what laziness
	// gains (and what goal emulation gains over such a network).
	EagerGoals bool
}

// Load parses the GDL file at path and builds its network.
func Load(ctx context.Context, path string, opt Options) (*Net, error) {
	d, err := gdl.ParseFile(path)
	if err != nil {
		return nil, err
	}
	return Build(ctx, d, opt)
}

// Build grounds a game, builds its propositional network, optimises it and
// compiles it into flat tables. It fails with a *ground.LimitError or a
// *SizeError when the game is too large, and with ctx's error when
// cancelled.
func Build(ctx context.Context, d *gdl.Description, opt Options) (net *Net, err error) {
	defer func() {
		if r := recover(); r != nil {
			net, err = nil, fmt.Errorf("propnet: internal error: %v", r)
		}
	}()
	start := time.Now()
	p, err := ground.Ground(ctx, d, opt.Ground)
	if err != nil {
		return nil, err
	}
	grounded := time.Now()
	maxNodes := opt.MaxNodes
	if maxNodes <= 0 {
		maxNodes = DefaultMaxNodes
	}
	if n := len(p.Atoms) + len(p.Rules); n > maxNodes {
		return nil, &SizeError{Limit: maxNodes, Reached: n, Where: "building the network from the ground rules"}
	}
	g, m, err := fromProgram(ctx, p)
	if err != nil {
		return nil, err
	}
	raw := g.counts(g.allNodes())
	cycles, err := g.unroll(ctx, maxNodes)
	if err != nil {
		return nil, err
	}
	if !opt.NoOptimize {
		if g, err = g.optimize(ctx); err != nil {
			return nil, err
		}
		g.gateLegal()
		g.factorPairs(ctx)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	g.splitWide(maxFanIn)
	built := time.Now()
	net = &Net{meta: *m}
	if err := net.compile(g, opt.EagerGoals); err != nil {
		return nil, err
	}
	net.initState(g, p)
	net.stats.Ground = p.Stats
	net.stats.Raw = raw
	net.stats.Cycles = cycles
	net.stats.Bases = len(m.facts)
	net.stats.Inputs = len(g.inputs)
	net.stats.StateBytes = 8 * net.words
	net.stats.SimBytes = 4*int(net.nodes) + 3*8*net.words + 8*len(net.legal)
	net.stats.GroundTime = grounded.Sub(start)
	net.stats.BuildTime = built.Sub(grounded)
	net.stats.TotalTime = time.Since(start)
	net.pool.New = func() any { return net.NewSim() }
	return net, nil
}

// initState sets the initial state's bitset.
func (n *Net) initState(g *graph, p *ground.Program) {
	n.words = (len(n.facts) + 63) / 64
	n.initial = make([]uint64, n.words)
	n.factIdx = make(map[string]int32, len(n.facts))
	for b, f := range n.facts {
		n.factIdx[f] = int32(b)
	}
	for _, a := range p.Init {
		b := n.factIdx[p.TermText(p.Atoms[a].Args[0])]
		n.initial[b>>6] |= 1 << uint(b&63)
	}
}
