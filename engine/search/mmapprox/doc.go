// Package mmapprox owns Rivest's min/max approximation (Rivest 1987, "Game
// tree searching by min/max approximation"): a best-first searcher that
// approximates max and min by generalized p-means, uses their derivatives
// to find the tip on which the root's value depends most, and expands it.
// It also holds Rivest's Connect Four evaluator; the driver of his Connect
// Four experiment (MM against alpha-beta under equal move-operator calls and
// under equal time) is engine/experiment/rivest.
//
// # The scheme
//
// Values v ∈ [0, 100] (goals and evaluations, from the searching role's
// point of view) are mapped to positive reals x = v + 1. A max node's value
// approximates the max of its children's by the generalized mean
//
//	M_p(a) = ((1/n) Σ a_i^p)^(1/p)        (M_0: the geometric mean)
//
// and a min node's the min by M_−p. Each edge from a parent f(c) to a child c
// gets the weight w(c) = −log D(f(c), c) + Penalty, where D is the partial
// derivative of the parent's mean with respect to the child's value,
//
//	∂M_p/∂a_i = (1/n) (a_i / M_p(a))^(p−1),
//
// and a tip's penalty is the sum of the weights on its path to the root.
// Every node stores ṽ (its backed-up value), a (the child leading to its
// least-penalty expandable tip) and π (that tip's penalty; ∞ for terminal
// tips and solved subtrees). One step descends from the root along a to
// that tip, expands it (one call of Next per joint move, each successor
// evaluated), and recomputes ṽ, a and π on the path back to the root.
//
// Two variants: with Reverse false the backed-up values are the generalized
// means themselves; with Reverse true ("reverse approximation") they are
// the true minimax values of the tree grown so far and the means serve only
// to compute the weights. The root's move is the child with the best
// backed-up value. Large p approaches minimax: the weights of all but the
// best children grow like p, so the search grows narrow deep trees; small p
// spreads the search and grows broad ones.
//
// Several roles and simultaneous moves are treated as in engine/search
// (paranoid): the searching role chooses first and the other roles answer
// as one minimising coalition. Levels with a single choice are folded away
// (their weight would be −log 1 = 0).
package mmapprox
