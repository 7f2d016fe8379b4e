// Package propnet owns gdlab's propositional-network reasoner: building a
// network from a ground game (engine/ground), optimising it, compiling it
// into flat read-only tables (Net), and simulating it with per-goroutine
// simulators (Sim) that propagate changes differentially and allocate
// nothing on the playout path. A Net is a game.Machine.
//
// # Construction
//
// Build grounds the rules, then makes a base proposition per fact a state
// may hold, an input proposition per move a role may make, an AND gate per
// ground rule and an OR gate per derived atom. Cycles of ground recursion
// are unrolled into acyclic circuits (unroll.go). The optimiser folds
// constants, bypasses one-input gates, merges duplicate gates, inlines
// single-reader gates into readers of the same kind (De Morgan for negated
// ones; NOT is a property of a connection, not a component) and drops what
// no output needs (optimize.go). Each role's legal outputs then have their
// most common conjunct, typically "it is my turn", factored out as a gate
// (gate.go), and pairs of inputs shared by many gates become gates of their
// own (factor.go). Compilation lays the network out as flat arrays and
// leaves the gates that only goals read to be evaluated on demand
// (compile.go).
//
// # Simulation
//
// Each node is a counter in the simulator (see Net). Setting a proposition
// pushes a change event; processing an event moves each reader's counter by
// one and pushes an event for each reader whose value changes. Watchers on
// legal and next outputs keep the legal move lists and the next state up to
// date, so a playout step touches only what changed. States are bitsets of
// base propositions.
//
// # Moves and states
//
// A role's moves are numbered from 0 in byte order of their canonical text,
// over every move the grounding finds the role may ever make, so Legal
// returns moves sorted by number and by text alike. ParseMove of a
// well-formed move the role can never make fails with ErrUnknownMove: the
// network has no input proposition to play it with. Base propositions are
// numbered in byte order of their facts, which is the order State.Facts
// lists them in.
package propnet
