package tarpit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"gdlab/datasets"
	"gdlab/engine/experiment"
	"gdlab/engine/game"
	"gdlab/engine/heuristic"
	"gdlab/engine/ledger"
	"gdlab/engine/propnet"
)

// ErrNoCorpus is returned for a corpus game when the shared corpus is
// absent.
var ErrNoCorpus = errors.New("tarpit: no shared corpus (../shared or $GDLAB_SHARED)")

// Position is a position of the regression set reached on its game's
// network, ready to search.
type Position struct {
	Game      string
	Entry     datasets.Position // the set's entry: name, moves, role, value, best moves
	Machine   game.Machine
	State     game.State
	Role      int                 // the index of Entry.Role
	Heuristic heuristic.Evaluator // the game's heuristic for blending, or nil (GameHeuristic)
}

// Name is the position's name in the set ("blocker-3").
func (p Position) Name() string { return p.Entry.Name }

// IsBest reports whether mv is a best move of the position.
func (p Position) IsBest(mv game.Move) bool {
	return slices.Contains(p.Entry.Best, p.Machine.MoveText(p.Role, mv))
}

// SharedDir returns the shared corpus folder: $GDLAB_SHARED, else
// ../shared beside the repository root; "" when neither holds games/.
func SharedDir() string {
	cands := []string{os.Getenv("GDLAB_SHARED")}
	if root, err := ledger.Root(); err == nil {
		cands = append(cands, filepath.Join(root, "..", "shared"))
	}
	for _, d := range cands {
		if d == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(d, "games")); err == nil {
			return d
		}
	}
	return ""
}

// Machine returns the network of a set's game: a curated game of datasets,
// or a corpus game under shared/games (ErrNoCorpus when shared is "").
func Machine(ctx context.Context, set datasets.PositionSet, shared string) (game.Machine, error) {
	switch set.Source {
	case "curated":
		return experiment.Network(ctx, set.Game)
	case "corpus":
		if shared == "" {
			return nil, ErrNoCorpus
		}
		rs, err := datasets.LoadDir(filepath.Join(shared, "games", set.Game))
		if err != nil {
			return nil, err
		}
		d, err := rs.Description()
		if err != nil {
			return nil, err
		}
		return propnet.Build(ctx, d, propnet.Options{})
	}
	return nil, fmt.Errorf("tarpit: %s: unknown source %q", set.Game, set.Source)
}

// Load reaches every position of the regression set. The games of the
// corpus need shared (SharedDir); without it their positions are left out
// and their names returned in skipped.
func Load(ctx context.Context, shared string) ([]Position, []string, error) {
	sets, err := datasets.PositionSets()
	if err != nil {
		return nil, nil, err
	}
	var out []Position
	var skipped []string
	for _, set := range sets {
		m, err := Machine(ctx, set, shared)
		if errors.Is(err, ErrNoCorpus) {
			skipped = append(skipped, set.Game)
			continue
		}
		if err != nil {
			return nil, nil, err
		}
		ps, err := positionsOf(set, m)
		if err != nil {
			return nil, nil, err
		}
		out = append(out, ps...)
	}
	return out, skipped, nil
}

// positionsOf reaches a set's positions on m.
func positionsOf(set datasets.PositionSet, m game.Machine) ([]Position, error) {
	var out []Position
	for _, e := range set.Positions {
		s, err := Reach(m, e.Moves)
		if err != nil {
			return nil, fmt.Errorf("tarpit: %s: %w", e.Name, err)
		}
		role, err := RoleIndex(m, e.Role)
		if err != nil {
			return nil, fmt.Errorf("tarpit: %s: %w", e.Name, err)
		}
		out = append(out, Position{Game: set.Game, Entry: e, Machine: m, State: s, Role: role, Heuristic: GameHeuristic(set.Game)})
	}
	return out, nil
}

// Reach replays joint moves given as text (one entry a joint move, in role
// order) from m's initial state and returns the state reached.
func Reach(m game.Machine, moves [][]string) (game.State, error) {
	s := m.Initial()
	for i, texts := range moves {
		joint, err := parseJoint(m, texts)
		if err != nil {
			return nil, fmt.Errorf("joint move %d: %w", i+1, err)
		}
		if s, err = m.Next(s, joint); err != nil {
			return nil, fmt.Errorf("joint move %d: %w", i+1, err)
		}
	}
	return s, nil
}

// parseJoint reads one joint move's texts in m's numbering.
func parseJoint(m game.Machine, texts []string) ([]game.Move, error) {
	if len(texts) != len(m.Roles()) {
		return nil, fmt.Errorf("%d moves for %d roles", len(texts), len(m.Roles()))
	}
	joint := make([]game.Move, len(texts))
	for r, txt := range texts {
		mv, err := m.ParseMove(r, txt)
		if err != nil {
			return nil, err
		}
		joint[r] = mv
	}
	return joint, nil
}

// RoleIndex returns the index of a role's name in m's roles.
func RoleIndex(m game.Machine, name string) (int, error) {
	if i := slices.Index(m.Roles(), name); i >= 0 {
		return i, nil
	}
	return -1, fmt.Errorf("no role %q in %v", name, m.Roles())
}

// SetHash returns a short hash of the whole regression set as decoded: a
// run records it among its settings, since the ledger's code version does
// not cover the set's JSON.
func SetHash() (string, error) {
	sets, err := datasets.PositionSets()
	if err != nil {
		return "", err
	}
	raw, err := json.Marshal(sets)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:])[:12], nil
}
