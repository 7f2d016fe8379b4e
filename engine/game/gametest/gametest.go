// Package gametest holds the contract and differential tests that every
// game.Machine runs: Conform checks the interface's promises on seeded random
// matches, Compare checks two reasoners against each other step by step.
package gametest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sort"
	"testing"

	"gdlab/engine/game"
)

// Conform plays seeded random matches (seeds 1..matches, at most maxSteps
// joint moves each) and checks at every state what game.Machine promises:
// facts sorted and stable, Hash and Equal consistent, legal moves sorted by
// text without duplicates, moves that survive MoveText and ParseMove,
// deterministic transitions, and legal moves for every role in every
// non-terminal state. Along the same matches it checks that the machine's
// simulator (game.NewSimulator) agrees with the machine in every state.
func Conform(t testing.TB, m game.Machine, matches, maxSteps int) {
	t.Helper()
	if len(m.Roles()) == 0 {
		t.Fatal("machine has no roles")
	}
	if !m.Initial().Equal(m.Initial()) {
		t.Fatal("Initial() is not stable")
	}
	for seed := 1; seed <= matches; seed++ {
		if err := conformMatch(m, uint64(seed), maxSteps); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if err := conformSimulator(m, uint64(seed), maxSteps); err != nil {
			t.Fatalf("seed %d: simulator: %v", seed, err)
		}
	}
}

func conformMatch(m game.Machine, seed uint64, maxSteps int) error {
	rng := game.NewRand(seed)
	s := m.Initial()
	for step := 0; step <= maxSteps; step++ {
		if err := conformState(m, s); err != nil {
			return fmt.Errorf("step %d: %w", step, err)
		}
		term, err := m.Terminal(s)
		if err != nil || term {
			return err
		}
		legal, err := game.LegalAll(m, s)
		if err != nil {
			return err
		}
		joint := make([]game.Move, len(legal))
		for r, ms := range legal {
			if len(ms) == 0 {
				return fmt.Errorf("step %d: role %s has no legal move in a non-terminal state", step, m.Roles()[r])
			}
			joint[r] = ms[rng.IntN(len(ms))]
		}
		next, err := m.Next(s, joint)
		if err != nil {
			return err
		}
		again, err := m.Next(s, joint)
		if err != nil || !again.Equal(next) || again.Hash() != next.Hash() {
			return fmt.Errorf("step %d: Next is not deterministic", step)
		}
		s = next
	}
	return nil
}

func conformState(m game.Machine, s game.State) error {
	facts := s.Facts()
	if !sort.StringsAreSorted(facts) {
		return fmt.Errorf("Facts not sorted: %v", facts)
	}
	if !slices.Equal(facts, s.Facts()) {
		return fmt.Errorf("Facts not stable")
	}
	if !s.Equal(s) {
		return fmt.Errorf("state not Equal to itself")
	}
	for r := range m.Roles() {
		if err := conformLegal(m, s, r); err != nil {
			return err
		}
	}
	return nil
}

func conformLegal(m game.Machine, s game.State, r int) error {
	ms, err := m.Legal(s, r, nil)
	if err != nil {
		return err
	}
	texts := game.MovesText(m, r, ms)
	for i := 1; i < len(texts); i++ {
		if texts[i-1] >= texts[i] {
			return fmt.Errorf("legal moves of %s not strictly sorted: %q before %q", m.Roles()[r], texts[i-1], texts[i])
		}
	}
	for i, text := range texts {
		mv, err := m.ParseMove(r, text)
		if err != nil {
			return fmt.Errorf("ParseMove(%q): %v", text, err)
		}
		if mv != ms[i] {
			return fmt.Errorf("ParseMove(%q) = %d, want %d", text, mv, ms[i])
		}
	}
	return nil
}

// Compare records seeded random matches with a (the moves chosen as the
// shared traces choose them) and replays each through b, failing at the first
// step where the two reasoners differ in state, legal moves, terminal or goals.
func Compare(t testing.TB, a, b game.Machine, seeds []int64, maxSteps int) {
	t.Helper()
	for _, seed := range seeds {
		_, d, err := Differ(context.Background(), a, b, seed, maxSteps)
		switch {
		case errors.Is(err, ErrReference):
			t.Fatalf("seed %d: recording with the first machine: %v", seed, err)
		case err != nil:
			t.Fatalf("seed %d: replaying with the second machine: %v", seed, err)
		case d != nil:
			t.Fatalf("seed %d: %v", seed, d)
		}
	}
}

// ErrReference marks an error of Differ's reference machine, which
// differential tests usually read as the reference reaching its own limits
// rather than as a disagreement.
var ErrReference = errors.New("reference machine failed")

// Differ records one seeded random match of at most maxSteps joint moves
// with ref, choosing moves as the shared traces do, and replays it through
// m. It returns the number of states recorded, the first disagreement (nil
// when m agrees with every step), and an error when a machine fails: one
// that wraps ErrReference when ref failed, or ctx's error.
func Differ(ctx context.Context, ref, m game.Machine, seed int64, maxSteps int) (int, *game.Disagreement, error) {
	tr, err := game.Record(ctx, ref, "differ", seed, game.RecordOptions{MaxSteps: maxSteps})
	if err != nil {
		return 0, nil, fmt.Errorf("%w: %w", ErrReference, err)
	}
	d, err := game.Replay(ctx, m, tr)
	return len(tr.Steps), d, err
}

// Play applies joint moves given as text, one joint move per entry in role
// order, from s, failing the test on a move the machine cannot parse or
// play, and returns the state reached.
func Play(t testing.TB, m game.Machine, s game.State, joints ...[]string) game.State {
	t.Helper()
	for _, j := range joints {
		joint := make([]game.Move, len(j))
		for r, txt := range j {
			mv, err := m.ParseMove(r, txt)
			if err != nil {
				t.Fatal(err)
			}
			joint[r] = mv
		}
		var err error
		if s, err = m.Next(s, joint); err != nil {
			t.Fatal(err)
		}
	}
	return s
}
