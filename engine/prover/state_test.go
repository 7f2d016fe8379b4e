package prover_test

import (
	"strings"
	"testing"

	"gdlab/engine/game"
	"gdlab/engine/prover"
)

// fakeState is a game.State that no prover made, as a state of another
// reasoner is.
type fakeState struct{}

func (fakeState) Facts() []string         { return nil }
func (fakeState) Hash() uint64            { return 0 }
func (fakeState) Equal(o game.State) bool { return false }

// TestForeignState passes every Machine method that takes a state a state
// the prover did not make: it must return an error, not panic.
func TestForeignState(t *testing.T) {
	pr, err := load(t, selfNegatingGoal, prover.Options{})
	if err != nil {
		t.Fatal(err)
	}
	other, err := load(t, selfNegatingGoal, prover.Options{})
	if err != nil {
		t.Fatal(err)
	}
	move, err := pr.ParseMove(0, "(go 0)")
	if err != nil {
		t.Fatal(err)
	}
	states := map[string]game.State{
		"fake":         fakeState{},
		"other prover": other.Initial(),
		"nil":          nil,
		"nil *State":   (*prover.State)(nil),
	}
	for name, s := range states {
		t.Run(name, func(t *testing.T) {
			calls := map[string]func() error{
				"Legal":    func() error { _, err := pr.Legal(s, 0, nil); return err },
				"Next":     func() error { _, err := pr.Next(s, []game.Move{move}); return err },
				"Terminal": func() error { _, err := pr.Terminal(s); return err },
				"Goal":     func() error { _, err := pr.Goal(s, 0); return err },
			}
			for method, call := range calls {
				err := call()
				if err == nil || !strings.Contains(err.Error(), "does not belong to this prover") {
					t.Errorf("%s: got %v, want an error saying the state does not belong to this prover", method, err)
				}
			}
		})
	}
	// The prover still answers for its own states afterwards.
	if _, err := pr.Legal(pr.Initial(), 0, nil); err != nil {
		t.Errorf("Legal on its own initial state: %v", err)
	}
}

// TestRoleOutOfRange asks Legal and Goal for a role the game does not have.
func TestRoleOutOfRange(t *testing.T) {
	pr, err := load(t, selfNegatingGoal, prover.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, role := range []int{-1, 1} {
		if _, err := pr.Legal(pr.Initial(), role, nil); err == nil {
			t.Errorf("Legal for role %d: no error", role)
		}
		if _, err := pr.Goal(pr.Initial(), role); err == nil {
			t.Errorf("Goal for role %d: no error", role)
		}
	}
}
