// Package logic owns the compiled form of GDL rules that the reasoners share:
// rules flattened into conjunctions of literals over hash-consed ground
// terms, the dependency graph of their relations and its strongly connected
// components in evaluation order.
//
// A reasoner keeps its own table of relations, with whatever it needs per
// relation, and lends it to this package as Relations: Compile numbers the
// relations it meets through it, and the stratification reads the rules
// back through it. Bindings instantiates and matches the compiled patterns
// during a join. Components is the one strongly connected components
// search of the engine; the GDL checker and the propositional network use it
// on their own graphs.
package logic
