// Package pie owns the pie-rule transform of GDL games: it rewrites a
// two-player, turn-taking game description into its pie-rule variant, in
// which the second player, on its first turn, may play swap instead of a
// move and so take over the first player's side.
//
// # The variant
//
// The roles of the variant are the roles of the game, in the same order:
// they are the players. The game's own rules are kept and read as rules
// about sides, which carry the role names of the game; a state fact
// (P_plays PLAYER SIDE) records who plays which side, and legal, goal and
// does are rewritten through it. (P_ is a prefix no symbol of the game
// starts with, normally pie_.)
//
//   - At first every player plays its own side.
//   - After the first joint move, and only then, the second player may play
//     swap (Options.Swap) besides its side's moves, unless the game is over.
//   - A swap is not a move of the game: the game's state is carried over
//     unchanged (a step counter does not advance) and only the sides are
//     exchanged. The side to move is still the second side, now played by
//     the first player, and each player receives its new side's goal to the
//     end of the game.
//
// # What the input must be
//
// Transform checks what the rules show; CheckOpening checks the turn
// structure on a machine built from the game, because no syntactic test
// can tell a turn-taking game from a simultaneous one. A game for which
// both return nil gets a well-defined variant; gdlab pie runs both.
//
//   - Exactly two roles, declared as facts (role NAME), neither `random`;
//     no sees rules (GDL-II is not supported).
//   - The symbol of the swap move occurs nowhere in the rules, so it cannot
//     clash with a move of the game, and no next rule has a bare variable as
//     its fact, since the swap must name the kinds of fact it carries over.
//   - The opening is turn-taking: in the initial state the first role has at
//     least one legal move and the second exactly one (its noop); after each
//     first move the state is terminal or the first role has exactly one legal
//     move (its noop, which the swap discards) and the second at least one.
//     Later turns may follow any pattern.
//
// A description that breaks these gets a gdl.ErrorList naming the rule or
// role at fault, never a panic.
package pie

import "gdlab/engine/gdl"

// DefaultSwap is the swap move when Options.Swap is empty.
const DefaultSwap = "swap"

// Options tune Transform. The zero value gives the defaults.
type Options struct {
	// Swap is the second player's swap move, a constant; "" means
	// DefaultSwap. It must occur nowhere in the game's rules.
	Swap string
}

func (o Options) swap() string {
	if o.Swap == "" {
		return DefaultSwap
	}
	return o.Swap
}

// Transform returns the pie-rule variant of the two-player game d, leaving
// d unchanged. The rules of d come first, rewritten, and the rules of the
// pie rule follow; rules carried over keep their positions in d's file and
// added rules have none. It fails with a gdl.ErrorList when d breaks a
// requirement that the rules show (see the package comment); it does not
// check the turn structure, which is CheckOpening's job.
func Transform(d *gdl.Description, opt Options) (*gdl.Description, error) {
	if d == nil {
		return nil, gdl.ErrorList{{Msg: "no game description"}}
	}
	roles, errs := requirements(d, opt)
	if len(errs) > 0 {
		errs.Sort()
		return nil, errs
	}
	w := newWriter(d, roles, opt.swap())
	return &gdl.Description{File: d.File, Rules: w.rules()}, nil
}
