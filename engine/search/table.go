package search

import (
	"math/bits"

	"gdlab/engine/game"
	"gdlab/engine/heuristic"
)

// bound says what a stored value means.
type bound uint8

const (
	exact bound = iota // the node's value
	lower              // the value is at least this (the search failed high)
	upper              // the value is at most this (the search failed low)
)

// entry is one transposition-table slot. It keeps the state itself, so a
// hash collision can never pass one state's value off as another's.
type entry struct {
	state  game.State
	value  float64
	best   game.Move
	depth  int
	flag   bound
	solved bool // every line below reached its end within depth
}

// table is a fixed-size, always-replace transposition table.
type table struct {
	slots []entry
	mask  uint64
}

// newTable returns a table of size entries rounded up to a power of two
// (0 means 1<<16).
func newTable(size int) *table {
	if size <= 0 {
		size = 1 << 16
	}
	n := 1 << bits.Len(uint(size-1))
	return &table{slots: make([]entry, n), mask: uint64(n - 1)}
}

func (t *table) slot(s game.State) *entry { return &t.slots[heuristic.Mix(s.Hash())&t.mask] }

// probe returns the entry for s, or nil.
func (t *table) probe(s game.State) *entry {
	if t == nil {
		return nil
	}
	e := t.slot(s)
	if e.state == nil || e.state.Hash() != s.Hash() || !e.state.Equal(s) {
		return nil
	}
	return e
}

// store records a search result for s.
func (t *table) store(s game.State, depth int, value float64, flag bound, solved bool, best game.Move) {
	if t == nil {
		return
	}
	*t.slot(s) = entry{state: s, value: value, best: best, depth: depth, flag: flag, solved: solved}
}

// usable reports whether an entry answers a search of the given depth
// exactly as a fresh search would: it was made at that depth, or its lines
// all ended within a smaller depth, where more depth changes nothing. Using
// deeper results would be stronger but would break the guarantee that
// alpha-beta returns exactly the minimax value of its depth.
func (e *entry) usable(depth int) bool {
	return e.depth == depth || (e.solved && e.depth <= depth)
}
