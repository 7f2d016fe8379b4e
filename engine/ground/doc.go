// Package ground owns the instantiation of a GDL game description into a
// ground program: the atoms that may hold in some reachable state and the
// variable-free rules that derive them, with static relations evaluated away.
//
// Grounding is bottom-up and relevance-driven. Only the relations that
// legal, goal, terminal, next, init and role depend on are considered. Static
// relations are computed exactly (stratified negation, semi-naive fixpoints
// for recursion). The dynamic part is computed on a relaxation of the game in
// which negated dynamic literals are assumed true, true may hold whatever
// init or next may hold and does whatever legal may: its least model contains
// every atom of every reachable state, whatever the moves. Every rule is then
// instantiated by joining its body over that model, so function terms,
// recursion, distinct, not and or need no special domain analysis.
//
// Groundings are bounded: Options.MaxSize bounds atoms plus rules and
// Options.MaxWork the join steps, and a game that would exceed either fails
// promptly with a *LimitError naming the bound and the size reached.
package ground
