package pie

import (
	"context"
	"fmt"

	"gdlab/engine/game"
	"gdlab/engine/gdl"
)

// CheckOpening checks that the game of d, played by m (a machine built from
// d), opens turn by turn as the pie rule needs: the first role moves while
// the second waits with a single move, and then, after each first move,
// the first role waits with a single move while the second moves (or the
// game is over). It returns a gdl.ErrorList positioned at the declaration
// of the role at fault, or an error of m or ctx.
func CheckOpening(ctx context.Context, d *gdl.Description, m game.Machine) error {
	o := &opening{d: d, m: m}
	if err := o.run(ctx); err != nil {
		return err
	}
	return o.errs.Err()
}

// opening walks the first two plies of one game.
type opening struct {
	d    *gdl.Description
	m    game.Machine
	errs gdl.ErrorList
}

func (o *opening) run(ctx context.Context) error {
	roles := o.m.Roles()
	if len(roles) != 2 {
		o.errs.Add(filePos(o.d), "the pie rule needs exactly two roles; the game has %d", len(roles))
		return nil
	}
	s := o.m.Initial()
	over, err := o.m.Terminal(s)
	if err != nil {
		return err
	}
	if over {
		o.fail(roles[0], "the initial state is terminal")
		return nil
	}
	legal, err := game.LegalAll(o.m, s)
	if err != nil {
		return err
	}
	if len(legal[0]) == 0 || len(legal[1]) != 1 {
		o.fail(roles[0], "not turn-taking: in the initial state %s has %s and %s has %s; %s must move and %s wait with one move",
			roles[0], count(legal[0]), roles[1], count(legal[1]), roles[0], roles[1])
		return nil
	}
	for _, first := range legal[0] {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := o.second(s, []game.Move{first, legal[1][0]}); err != nil || len(o.errs) > 0 {
			return err
		}
	}
	return nil
}

// second checks the state after the opening joint move.
func (o *opening) second(s game.State, joint []game.Move) error {
	roles := o.m.Roles()
	next, err := o.m.Next(s, joint)
	if err != nil {
		return err
	}
	if over, err := o.m.Terminal(next); err != nil || over {
		return err
	}
	legal, err := game.LegalAll(o.m, next)
	if err != nil {
		return err
	}
	if len(legal[0]) != 1 || len(legal[1]) == 0 {
		o.fail(roles[1], "not turn-taking: after %s's opening %s, %s has %s and %s has %s; %s must wait with one move and %s move",
			roles[0], o.m.MoveText(0, joint[0]), roles[0], count(legal[0]), roles[1], count(legal[1]), roles[0], roles[1])
	}
	return nil
}

// fail records a problem at role's declaration.
func (o *opening) fail(role string, format string, args ...any) {
	o.errs.Add(o.rolePos(role), format, args...)
}

// rolePos returns the position of role's declaration in d, or of the file.
func (o *opening) rolePos(name string) gdl.Position {
	for _, r := range o.d.Rules {
		if c, ok := roleName(r); ok && r.Head.Name == "role" && c.Name == name {
			return o.d.Position(r.Pos())
		}
	}
	return filePos(o.d)
}

func count(ms []game.Move) string {
	switch len(ms) {
	case 0:
		return "no legal move"
	case 1:
		return "one legal move"
	}
	return fmt.Sprintf("%d legal moves", len(ms))
}
