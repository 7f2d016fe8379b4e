// Package experiment holds what gdlab's experiments share, so that the
// notebooks and the command line import it rather than copy it: loading
// a curated game as its propositional network (or, when the network
// exceeds its bounds, as the reference prover), telling a quick run from
// a full one, and stating a verdict under a claim.
//
// Its subpackages are experiments in their own right: rivest (Rivest's
// min/max approximation against alpha-beta) and corpus (the tables
// computed over the shared game corpus).
package experiment
