package search

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	"gdlab/engine/game"
	"gdlab/engine/heuristic"
)

// Player chooses moves for one role in one match at a time. A referee calls
// Start once, then Play once per state in which the match goes on; a fresh
// Player value (or a new Start) is needed for each match, and one Player must
// not play two matches at once.
//
// Play must return one of its role's legal moves in s and report what it
// spent. It should stop promptly when ctx ends or b runs out, and still
// return its best move so far; the built-in players do so within one
// machine call. Implementations written outside this package, in a notebook
// cell say, can meter themselves with NewCounter.
type Player interface {
	Name() string
	Start(ctx context.Context, setup Setup) error
	Play(ctx context.Context, s game.State, b Budget) (game.Move, Report, error)
}

// Watcher is a Player that must be told every joint move and the end of
// its match, such as a remote player whose program keeps its own copy of
// the game. A referee calls Moved after each joint move, with the moves in
// role order, and Ended once when the match is over: finished when it
// reached a terminal state, false when it was cut off.
type Watcher interface {
	Player
	Moved(joint []game.Move)
	Ended(ctx context.Context, finished bool)
}

// Preparer is a Player that decides things in Start (the analyses it ran
// under the start clock and the switches they turned on) and says what,
// for a log.
type Preparer interface {
	Player
	Prepared() string
}

// Setup is what a player learns at the start of a match.
type Setup struct {
	Machine game.Machine
	Role    int    // index into Machine.Roles()
	Seed    uint64 // the player's source of all randomness in this match
	Budget  Budget // the start clock
}

// ErrNotStarted is returned by Play before Start.
var ErrNotStarted = errors.New("search: Play called before Start")

// seat is the per-match state every built-in player keeps.
type seat struct {
	m    game.Machine
	role int
	rng  *rand.Rand
	eval heuristic.Evaluator
}

// start checks the setup, seeds the generator and prepares eval (the default
// evaluator is heuristic.IntermediateGoal) under the start clock.
func (p *seat) start(ctx context.Context, setup Setup, eval heuristic.Evaluator) error {
	if setup.Machine == nil {
		return errors.New("search: Setup has no Machine")
	}
	if setup.Role < 0 || setup.Role >= len(setup.Machine.Roles()) {
		return fmt.Errorf("search: role %d out of range", setup.Role)
	}
	*p = seat{m: setup.Machine, role: setup.Role, rng: game.NewRand(setup.Seed)}
	if eval == nil {
		eval = heuristic.IntermediateGoal{}
	}
	ctx, cancel := setup.Budget.Context(ctx)
	defer cancel()
	e, err := heuristic.Prepare(ctx, p.m, eval)
	if err != nil {
		// Keep the player able to move: a referee replaces nothing if it
		// plays on with the plainest evaluator.
		p.eval = heuristic.IntermediateGoal{}
		return fmt.Errorf("search: preparing %s (playing on with intermediate goals): %w", heuristic.Name(eval), err)
	}
	p.eval = e
	return nil
}

// legal returns the role's legal moves in s in a random order: shuffling
// once per move breaks ties between equally valued moves at random (the
// searches keep the first best move they meet) while staying reproducible.
// The root's moves come from the unmetered machine, so a player whose budget
// is already spent can still move.
func (p *seat) legal(s game.State) ([]game.Move, error) {
	if p.m == nil {
		return nil, ErrNotStarted
	}
	moves, err := p.m.Legal(s, p.role, nil)
	if err != nil {
		return nil, err
	}
	if len(moves) == 0 {
		return nil, &game.NoLegalMoveError{Role: p.m.Roles()[p.role]}
	}
	p.rng.Shuffle(len(moves), func(i, j int) { moves[i], moves[j] = moves[j], moves[i] })
	return moves, nil
}

// noSearch is the report of a move chosen without searching.
func noSearch(c *Counter) Report { return Report{Used: c.Used(), Value: -1} }

// Legal is Genesereth's legal player: it always plays its first legal move
// in canonical order. It is the weakest baseline and uses no budget.
type Legal struct{ p seat }

// Name returns "legal".
func (*Legal) Name() string { return "legal" }

// Start records the machine and role.
func (l *Legal) Start(ctx context.Context, setup Setup) error { return l.p.start(ctx, setup, nil) }

// Play returns the first legal move.
func (l *Legal) Play(ctx context.Context, s game.State, b Budget) (game.Move, Report, error) {
	c := NewCounter(ctx, l.p.m, b)
	if l.p.m == nil {
		return game.NoMove, noSearch(c), ErrNotStarted
	}
	moves, err := l.p.m.Legal(s, l.p.role, nil)
	if err == nil && len(moves) == 0 {
		err = &game.NoLegalMoveError{Role: l.p.m.Roles()[l.p.role]}
	}
	if err != nil {
		return game.NoMove, noSearch(c), err
	}
	return moves[0], noSearch(c), nil
}

// Random plays a uniformly random legal move, drawn from the seed of Setup.
type Random struct{ p seat }

// Name returns "random".
func (*Random) Name() string { return "random" }

// Start records the machine and role and seeds the generator.
func (r *Random) Start(ctx context.Context, setup Setup) error { return r.p.start(ctx, setup, nil) }

// Play returns a random legal move.
func (r *Random) Play(ctx context.Context, s game.State, b Budget) (game.Move, Report, error) {
	c := NewCounter(ctx, r.p.m, b)
	moves, err := r.p.legal(s)
	if err != nil {
		return game.NoMove, noSearch(c), err
	}
	return moves[0], noSearch(c), nil
}

// evalName names an evaluator, nil being the default IntermediateGoal.
func evalName(e heuristic.Evaluator) string {
	if e == nil {
		return heuristic.Name(heuristic.IntermediateGoal{})
	}
	return heuristic.Name(e)
}
