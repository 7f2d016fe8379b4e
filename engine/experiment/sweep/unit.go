package sweep

import (
	"context"
	"fmt"
	"sync"

	"gdlab/engine/experiment"
	"gdlab/engine/game"
	"gdlab/engine/heuristic"
	"gdlab/engine/match"
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
func (s *Spec) MatchSeed(u Unit) uint64 { return heuristic.Mix(s.Seed + uint64(u.Seed)) }

// machines builds each game's machine once per process and shares it
// between units (machines are safe for concurrent use).
type machines struct {
	mu   sync.Mutex
	byGm map[string]*machineOnce
}

type machineOnce struct {
	once sync.Once
	m    game.Machine
	err  error
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
	mo.once.Do(func() { mo.m, mo.err = experiment.Machine(ctx, name) })
	return mo.m, mo.err
}

// Play plays one unit and returns its result. The seating rotates with the
// seed number over the seatings a tournament of the spec's players has on
// the game (two players on a two-role game: the first as the first role on
// even numbers, as the second on odd ones).
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
		return Result{}, fmt.Errorf("sweep: %s has %d roles, which %d players cannot fill with a mixed seating", u.Game, len(m.Roles()), len(s.Players))
	}
	seating := seatings[u.Seed%len(seatings)]
	setting := settings[u.Setting]
	seats := make([]match.Seat, len(seating))
	for r, i := range seating {
		pl, budget := s.Players[i].player(setting)
		seats[r] = match.Seat{Name: s.Players[i].Name(), Player: pl, Budget: budget}
	}
	row, err := match.Run(ctx, m, seats, match.Options{MaxMoves: s.MaxMoves}, s.MatchSeed(u))
	if err != nil {
		return Result{}, fmt.Errorf("sweep: unit %s: %w", u.Key(), err)
	}
	return newResult(s, u, seating, row), nil
}
