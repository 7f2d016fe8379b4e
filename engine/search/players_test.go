package search_test

import (
	"testing"

	"gdlab/engine/heuristic"
	"gdlab/engine/search"
	"gdlab/engine/search/playertest"
)

// players returns one fresh player of every built-in kind.
func players() map[string]func() search.Player {
	return map[string]func() search.Player{
		"legal":      func() search.Player { return &search.Legal{} },
		"random":     func() search.Player { return &search.Random{} },
		"onestep":    func() search.Player { return search.OneStep(nil) },
		"twostep":    func() search.Player { return search.TwoStep(heuristic.Mobility{Ahead: 1}) },
		"minimax":    func() search.Player { return &search.Minimax{Depth: 3, Eval: heuristic.Pessimism{}} },
		"deepening":  func() search.Player { return &search.Deepening{MaxDepth: 4} },
		"alphabeta":  func() search.Player { return &search.AlphaBeta{} },
		"ab-notable": func() search.Player { return &search.AlphaBeta{NoTable: true, NoOrdering: true, MaxDepth: 6} },
		"montecarlo": func() search.Player { return &search.MonteCarlo{Charges: 3} },
		"flat-mc":    func() search.Player { return &search.FlatMonteCarlo{Charges: 3} },
	}
}

func TestConform(t *testing.T) {
	for name, newPlayer := range players() {
		t.Run(name, func(t *testing.T) { playertest.Conform(t, newPlayer) })
	}
}
