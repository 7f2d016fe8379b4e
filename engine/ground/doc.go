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
// Joins are planned by cost, from the index statistics of the tables they
// read; tables index their facts by any combination of known subterms and
// function symbols. Rules whose bodies join variables the head does not
// mention are decomposed into auxiliary atoms (decompose.go), which keeps
// the ground program small: Hex's 647 thousand ground rules become 45
// thousand. Negation must be stratified among static relations only; a
// dynamic relation may read its own negation through other atoms, as
// (goal ?p 0) reading (not (goal ?p 100)) does, and the network checks that
// no ground atom depends on its own negation.
//
// Groundings are bounded: Options.MaxSize bounds atoms plus rules and
// Options.MaxWork the join steps, and a game that would exceed either fails
// promptly with a *LimitError naming the bound and the size reached.
package ground
