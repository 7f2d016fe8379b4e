// Package check owns the semantic validation of GDL game descriptions: the
// rules a parsed description must obey beyond its syntax (fixed arities,
// safety, stratified negation, the recursion restriction, the placement of
// GDL keywords and the role declarations), and the relation dependency graph
// those rules are defined on.
//
// It is a separate pass over a *gdl.Description, as go/types is over go/ast:
// the parser accepts any well-formed KIF, and Check reports every semantic
// problem at once as a gdl.ErrorList sorted by file:line:col.
//
// The rules checked follow the GDL specification (Love et al., "General Game
// Playing: Game Description Language Specification", 2008) as ggp-base's
// StaticValidator reads it, with the exceptions documented on Check.
package check
