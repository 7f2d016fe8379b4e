// Package layering holds no code: its test checks the import rules that
// keep gdlab's layers apart, reading the module's import graph with
// `go list`.
package layering
