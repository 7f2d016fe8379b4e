// Package propnet owns gdlab's propositional-network reasoner: building a
// network from a ground game (engine/ground), optimising it, compiling it
// into flat read-only tables (Net), and simulating it with per-goroutine
// simulators (Sim) that propagate changes differentially and allocate
// nothing on the playout path. A Net is a game.Machine.
package propnet
