// Package search owns gdlab's game players: the legal and random players,
// one- and two-step lookahead, depth-limited minimax, iterative deepening,
// alpha-beta with move ordering and a transposition table, and Monte Carlo
// search with depth charges. Every player works with any game.Machine,
// shares the Player interface, and spends an exactly counted Budget.
//
// # Several roles, simultaneous moves
//
// Games with more than two roles, and simultaneous moves, are searched the
// standard paranoid way: the other roles are one coalition that minimises
// the searching role's value, and each joint move is taken as if the
// searching role chose first and the coalition answered knowing that choice:
//
//	V(s) = goal(s, me)                                   s terminal
//	V(s) = eval(s, me)                                   depth exhausted
//	V(s) = max_{a ∈ legal(me,s)} min_{b ∈ Π legal(other,s)} V(next(s, a·b))
//
// In turn-taking games one side has a single noop, so this is ordinary
// minimax over plies; in simultaneous games it is the pure-strategy maxmin,
// a lower bound of the game's value. Depth counts joint moves.
//
// # Budgets
//
// A Budget limits wall-clock time, node expansions (states whose moves are
// generated to reach their successors, in the tree or in a playout) and
// calls to Next (the move operator, wherever made, evaluators included).
// Players meter themselves through a Counter, a game.Machine wrapper that
// refuses the call that would exceed a limit, so reported usage never
// exceeds the budget and equal-budget comparisons are exact.
//
// # Players written elsewhere
//
// Player is a plain interface: a type defined in a notebook cell can
// implement it, wrap its machine in NewCounter to obey a budget, and call
// MinimaxValue or AlphaBeta.Value to reuse the searches. AlphaBeta.ValueSolved
// also says when a value is final (every line ended, or a proven win), which
// is what a caller needs to stop deepening: the factored player
// (engine/search/factored) searches each factor that way.
package search
