package search_test

import (
	"context"
	"fmt"

	"gdlab/engine/game"
	"gdlab/engine/heuristic"
	"gdlab/engine/search"
	"gdlab/engine/search/searchtest"
)

// greedy is a player written outside the package, as a notebook would: it
// plays the move whose successor has the best intermediate goal, metered by
// a Counter so that it respects its budget.
type greedy struct {
	m    game.Machine
	role int
}

func (g *greedy) Name() string { return "greedy" }

func (g *greedy) Start(ctx context.Context, s search.Setup) error {
	g.m, g.role = s.Machine, s.Role
	return nil
}

func (g *greedy) Play(ctx context.Context, s game.State, b search.Budget) (game.Move, search.Report, error) {
	c := search.NewCounter(ctx, g.m, b)
	moves, err := g.m.Legal(s, g.role, nil)
	if err != nil {
		return game.NoMove, search.Report{}, err
	}
	best, bestV := moves[0], -1.0
	for _, mv := range moves {
		ns, err := c.Next(s, []game.Move{mv}) // a one-player game: the joint move is the move
		if err != nil {
			break // budget spent: play the best so far
		}
		if v, _ := heuristic.Eval(heuristic.IntermediateGoal{}, c, ns, g.role); v > bestV {
			best, bestV = mv, v
		}
	}
	return best, search.Report{Used: c.Used(), Depth: 1, Value: bestV, Stopped: c.Stopped()}, nil
}

func ExampleNewCounter() {
	ctx := context.Background()
	m, _ := searchtest.Game("summit")
	var p search.Player = &greedy{}
	_ = p.Start(ctx, search.Setup{Machine: m})
	mv, rep, _ := p.Play(ctx, m.Initial(), search.Budget{NextCalls: 1})
	fmt.Println(m.MoveText(0, mv), rep.Used.NextCalls, rep.Stopped)
	mv, rep, _ = p.Play(ctx, m.Initial(), search.Budget{})
	fmt.Println(m.MoveText(0, mv), rep.Used.NextCalls, rep.Value)
	// Output:
	// (take ridge) 1 next
	// (take ridge) 2 60
}
