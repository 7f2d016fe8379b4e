// Package layering holds no code: its tests enforce the import layering of
// gdlab that docs/architecture.md describes. They read the module's import
// graph from `go list` and check that nothing under engine/ depends on
// kernel/, that the searchers under engine/search do not import the
// propositional network, that the gdlab binary does not link package
// testing, and that every import between gdlab packages is one the block
// under "Layers and import direction" in docs/architecture.md allows.
package layering
