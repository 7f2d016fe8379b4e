package sweep

import (
	"context"
	"fmt"
	"sync"
	"time"

	"gdlab/engine/analysis/latch"
	"gdlab/engine/experiment"
	"gdlab/engine/experiment/rivest"
	"gdlab/engine/game"
	"gdlab/engine/heuristic"
	"gdlab/engine/match"
	"gdlab/engine/propnet"
)

// Unit is one unit of work: the match with seed number Seed (0-based) of
// setting Setting on Game.
type Unit struct {
	Setting int    `json:"setting"`
	Game    string `json:"game"`
	Seed    int    `json:"seed"`
}

// Key names the unit uniquely within its sweep.
func (u Unit) Key() string { return fmt.Sprintf("%d/%s/%d", u.Setting, u.Game, u.Seed) }

// Units returns every unit of the sweep, ordered by setting, game and seed
// number.
func (s *Spec) Units() []Unit {
	var out []Unit
	for i := range s.Settings() {
		for _, g := range s.Games {
			for k := 0; k < s.Seeds; k++ {
				out = append(out, Unit{Setting: i, Game: g, Seed: k})
			}
		}
	}
	return out
}

// MatchSeed returns the seed of a unit's match. It depends on the seed
// number alone, so every setting and game plays the same seeds: settings
// are compared on common random numbers.
// With Rivest's openings it is rivest.GameSeed's seed of the unit's opening
// and seat, which depends on the seed number alone too.
func (s *Spec) MatchSeed(u Unit) uint64 {
	if s.Openings == OpeningsRivest {
		return rivest.GameSeed(s.Seed, s.opening(u.Seed), u.Seed%2)
	}
	return heuristic.Mix(s.Seed + uint64(u.Seed))
}

// opening returns the index into rivest.Openings of seed number k's
// opening: the openings rivest.Run picks for Seeds/2 openings, two seed
// numbers (two seats) each.
func (s *Spec) opening(k int) int {
	n := s.Seeds / 2
	return (k / 2) * rivestOpenings / n
}

// rivestOpenings is the number of Rivest's openings on the 7×6 board.
const rivestOpenings = 49

// machines builds each game's machine once per process and shares it
// between units (machines are safe for concurrent use).
type machines struct {
	mu   sync.Mutex
	byGm map[string]*machineOnce
}

type machineOnce struct {
	mu  sync.Mutex // held while the machine is built, so it is built once
	m   game.Machine
	err error // kept unless the context ended: a cancelled unit must not decide later ones

	anMu  sync.Mutex // held while the analysis runs, so it runs once
	an    *latch.Analysis
	anErr error // kept unless the context ended, as err

	openOnce sync.Once
	opens    []game.State
	openErr  error
}

func (ms *machines) get(ctx context.Context, name string) (game.Machine, error) {
	ms.mu.Lock()
	if ms.byGm == nil {
		ms.byGm = map[string]*machineOnce{}
	}
	mo := ms.byGm[name]
	if mo == nil {
		mo = &machineOnce{}
		ms.byGm[name] = mo
	}
	ms.mu.Unlock()
	mo.mu.Lock()
	defer mo.mu.Unlock()
	if mo.m != nil || mo.err != nil {
		return mo.m, mo.err
	}
	m, err := experiment.Machine(ctx, name)
	if ctx.Err() != nil {
		// The caller's cancellation, not the game's fault: keep nothing
		// (experiment.Machine falls back to the prover when the network's
		// build is cut short, which must not stand for later units).
		return nil, ctx.Err()
	}
	mo.m, mo.err = m, err
	return m, err
}

func (ms *machines) entry(name string) *machineOnce {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	return ms.byGm[name]
}

// analysis returns the latch analysis of a game's network, computed once
// per process and shared by the units (an analysis is read-only).
func (ms *machines) analysis(ctx context.Context, name string, m game.Machine) (*latch.Analysis, error) {
	mo := ms.entry(name)
	mo.anMu.Lock()
	defer mo.anMu.Unlock()
	if mo.an != nil || mo.anErr != nil {
		return mo.an, mo.anErr
	}
	net, ok := m.(*propnet.Net)
	if !ok {
		mo.anErr = fmt.Errorf("%s has no propositional network for the latch analysis", name)
		return nil, mo.anErr
	}
	an, err := latch.Analyze(ctx, net, latch.Options{})
	if ctx.Err() != nil {
		return nil, ctx.Err() // the caller's cancellation: not kept for later units
	}
	mo.an, mo.anErr = an, err
	return an, err
}

// openings returns Rivest's openings on a game's machine, once per process.
func (ms *machines) openings(name string, m game.Machine) ([]game.State, error) {
	mo := ms.entry(name)
	mo.openOnce.Do(func() {
		mo.opens, _, mo.openErr = rivest.Openings(m)
		if mo.openErr == nil && len(mo.opens) != rivestOpenings {
			mo.openErr = fmt.Errorf("%s has %d openings, not Rivest's %d", name, len(mo.opens), rivestOpenings)
		}
	})
	return mo.opens, mo.openErr
}

// Play plays one unit and returns its result. The seating rotates with the
// seed number over the seatings a tournament of the spec's players has on
// the game (two players on a two-role game: the first as the first role on
// even numbers, as the second on odd ones), or follows Spec.Seating and
// Spec.Openings.
func (s *Spec) Play(ctx context.Context, u Unit, ms *machines) (Result, error) {
	settings := s.Settings()
	if u.Setting < 0 || u.Setting >= len(settings) {
		return Result{}, fmt.Errorf("sweep: unit %s: no such setting", u.Key())
	}
	m, err := ms.get(ctx, u.Game)
	if err != nil {
		return Result{}, fmt.Errorf("sweep: unit %s: %w", u.Key(), err)
	}
	seatings := (&match.Tournament{Entrants: make([]match.Entrant, len(s.Players))}).Seatings(len(m.Roles()))
	if len(seatings) == 0 {
		return Result{}, fmt.Errorf("sweep: unit %s: %s has %d roles, which %d players cannot fill with a mixed seating", u.Key(), u.Game, len(m.Roles()), len(s.Players))
	}
	seating, err := s.seating(u, seatings)
	if err != nil {
		return Result{}, fmt.Errorf("sweep: unit %s: %w", u.Key(), err)
	}
	setting := settings[u.Setting]
	var an *latch.Analysis
	for _, p := range s.Players {
		if p.usesLatches(setting) {
			if an, err = ms.analysis(ctx, u.Game, m); err != nil {
				return Result{}, fmt.Errorf("sweep: unit %s: %w", u.Key(), err)
			}
			break
		}
	}
	seats := make([]match.Seat, len(seating))
	for r, i := range seating {
		pl, budget := s.Players[i].player(setting, an)
		seats[r] = match.Seat{Name: s.Players[i].Name(), Player: pl, Budget: budget}
	}
	opt := match.Options{MaxMoves: s.MaxMoves}
	if s.Openings == OpeningsRivest {
		opens, err := ms.openings(u.Game, m)
		if err != nil {
			return Result{}, fmt.Errorf("sweep: unit %s: %w", u.Key(), err)
		}
		m = rivest.FromOpening(m, opens[s.opening(u.Seed)])
		opt.Abandon = rivestAbandon
	}
	row, err := match.Run(ctx, m, seats, opt, s.MatchSeed(u))
	if err != nil {
		return Result{}, fmt.Errorf("sweep: unit %s: %w", u.Key(), err)
	}
	if err := startFailure(row); err != nil {
		return Result{}, fmt.Errorf("sweep: unit %s: %w", u.Key(), err)
	}
	return newResult(s, u, seating, row), nil
}

// startFailure reports a seat whose player failed to start: the referee
// then plays random moves for it, which must not pass for the player's
// result.
func startFailure(row *match.Row) error {
	for _, e := range row.Events {
		if e.Move < 0 && e.Kind == "error" {
			return fmt.Errorf("seat %d (%s) failed to start, so the referee played random moves for it: %s", e.Seat, row.Players[e.Seat], e.Detail)
		}
	}
	return nil
}

// rivestAbandon is how long rivest.Run's referee waits for a late player.
const rivestAbandon = 10 * time.Second

// seating returns the seating of a unit: alternating by seed number, in
// blocks as match.Tournament plays them, or, with Rivest's openings, the
// first player in seat k mod 2.
func (s *Spec) seating(u Unit, seatings [][]int) ([]int, error) {
	switch {
	case s.Openings == OpeningsRivest:
		if u.Seed%2 == 1 {
			return []int{1, 0}, nil
		}
		return []int{0, 1}, nil
	case s.Seating == SeatingGrouped:
		if s.Seeds%len(seatings) != 0 {
			return nil, fmt.Errorf("grouped seating needs seeds in multiples of the %d seatings, not %d", len(seatings), s.Seeds)
		}
		return seatings[u.Seed/(s.Seeds/len(seatings))], nil
	}
	return seatings[u.Seed%len(seatings)], nil
}
