// Package kalaharewrites holds rewritten versions of the public kalaha_2009
// rulesheet (the .kif files in this folder, see README.md) and the tests
// that check each one is the same game as the original, move by move.
package kalaharewrites
