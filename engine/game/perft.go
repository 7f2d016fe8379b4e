package game

import "context"

// PerftLevel counts what lies at one depth below a state.
type PerftLevel struct {
	Depth     int
	Sequences int64 // joint-move sequences of exactly Depth moves (none passes through a terminal state)
	States    int64 // distinct states those sequences reach
	Terminals int64 // sequences among them that end in a terminal state
}

// Perft counts, for every depth 1..depth, the joint-move sequences from s, the
// distinct states they reach and how many end in a terminal state. A joint
// move is one legal move per role; terminal states are not expanded. Summing
// Terminals over all depths to the end of the game counts complete games
// (255,168 for tic-tac-toe).
//
// It walks level by level over distinct states, carrying how many sequences
// reach each, so transpositions are expanded once.
func Perft(ctx context.Context, m Machine, s State, depth int) ([]PerftLevel, error) {
	level := newStateCounts()
	level.add(s, 1)
	out := make([]PerftLevel, 0, depth)
	for d := 1; d <= depth; d++ {
		next := newStateCounts()
		for _, e := range level.entries {
			if err := ctx.Err(); err != nil {
				return out, err
			}
			if err := expandCounted(m, e, next); err != nil {
				return out, err
			}
		}
		lv := PerftLevel{Depth: d, States: int64(len(next.entries))}
		for _, e := range next.entries {
			lv.Sequences += e.count
			if e.terminal, _ = m.Terminal(e.state); e.terminal {
				lv.Terminals += e.count
			}
		}
		out = append(out, lv)
		level = next
	}
	return out, nil
}

// expandCounted adds every successor of a non-terminal e to next, weighted by
// the number of sequences that reach e.
func expandCounted(m Machine, e *countedState, next *stateCounts) error {
	if e.terminal {
		return nil
	}
	legal, err := LegalAll(m, e.state)
	if err != nil {
		return err
	}
	return ForEachJoint(legal, func(joint []Move) error {
		ns, err := m.Next(e.state, joint)
		if err != nil {
			return err
		}
		next.add(ns, e.count)
		return nil
	})
}

// ForEachJoint calls fn with every joint move of the cross product of legal,
// one move per role, in lexicographic order of move indices. fn must not keep
// the slice. A role without moves makes the product empty.
func ForEachJoint(legal [][]Move, fn func(joint []Move) error) error {
	for _, ms := range legal {
		if len(ms) == 0 {
			return nil
		}
	}
	idx := make([]int, len(legal))
	joint := make([]Move, len(legal))
	for {
		for r := range legal {
			joint[r] = legal[r][idx[r]]
		}
		if err := fn(joint); err != nil {
			return err
		}
		r := len(legal) - 1
		for ; r >= 0; r-- {
			idx[r]++
			if idx[r] < len(legal[r]) {
				break
			}
			idx[r] = 0
		}
		if r < 0 {
			return nil
		}
	}
}

type countedState struct {
	state    State
	count    int64
	terminal bool
}

// stateCounts is a set of distinct states with a count each, in insertion order.
type stateCounts struct {
	byHash  map[uint64][]*countedState
	entries []*countedState
}

func newStateCounts() *stateCounts { return &stateCounts{byHash: map[uint64][]*countedState{}} }

func (c *stateCounts) add(s State, n int64) {
	h := s.Hash()
	for _, e := range c.byHash[h] {
		if e.state.Equal(s) {
			e.count += n
			return
		}
	}
	e := &countedState{state: s, count: n}
	c.byHash[h] = append(c.byHash[h], e)
	c.entries = append(c.entries, e)
}
