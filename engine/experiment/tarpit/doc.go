// Package tarpit measures the tar pit of issue 27: how often MCTS chooses a
// verified best move on the regression set of positions
// (datasets.PositionSets), with a joint tree against a tree of decision
// nodes only (mcts.Options.DecisionNodes), and with heuristic blending off
// against on (mcts.Options.HeuristicWeight) where a game has a heuristic.
//
// Load reaches every position of the set on its game's network; Count runs
// one configuration's searches at one position, a seed a search; ShareOf
// and DiffOf turn per-position counts into shares with Wilson and
// position-bootstrap intervals (engine/stats), and Results and DiffResults
// into ledger results. Notebook 12 (notebooks/12-tar-pit.ipynb) runs the
// comparison; the best moves themselves are verified by exhaustive search
// in engine/search/mcts's tests.
package tarpit
