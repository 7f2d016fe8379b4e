package distance

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"gdlab/engine/game"
	"gdlab/engine/propnet"
)

// goals computes every role's distance to a winning move and the goal
// coupling, both from the normal forms of the goal and terminal outputs.
func (d *Metric) goals(ctx context.Context, net *propnet.Net) error {
	writers := d.writers(len(net.BaseProps()))
	facts := net.BaseProps()
	d.goal = make([][]uint8, len(d.Roles))
	d.elim = make([][][]int, len(d.Roles))
	for r := range d.Roles {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := d.winDistance(net, r, writers); err != nil {
			return err
		}
	}
	outs := []propnet.Output{{Kind: propnet.Terminal}}
	for r := range d.Roles {
		for i := range net.GoalValues(r) {
			outs = append(outs, propnet.Output{Kind: propnet.Goal, Role: r, Index: i})
		}
	}
	for _, o := range outs {
		if err := ctx.Err(); err != nil {
			return err
		}
		if c := d.coupled(net, o, writers, facts); c.Coupled {
			d.coup = c
			return nil
		}
	}
	return nil
}

// writers lists, per base proposition, the moves that affect it.
func (d *Metric) writers(nb int) [][]int32 {
	w := make([][]int32, nb)
	for g := 0; g < d.n; g++ {
		for _, b := range d.eff[g] {
			w[b] = append(w[b], int32(g))
		}
	}
	return w
}

// winDistance fills role r's distances to a winning move: a move that
// makes true a base proposition some disjunct of r's highest goal needs
// true is at distance 0; every other move is at its matrix distance from
// the nearest such move. Disjuncts that need only absences (capture every
// enemy piece) are kept aside as elimination conditions.
func (d *Metric) winDistance(net *propnet.Net, r int, writers [][]int32) error {
	row := make([]uint8, d.off[r+1]-d.off[r])
	for i := range row {
		row[i] = Far
	}
	d.goal[r] = row
	_, idx := winValue(net, r)
	if idx < 0 {
		return nil
	}
	disj, err := net.Disjuncts(propnet.Output{Kind: propnet.Goal, Role: r, Index: idx}, maxDisjuncts)
	if errors.Is(err, propnet.ErrTooManyDisjuncts) {
		clear(row) // unknown: no move is ruled out
		return nil
	}
	if err != nil {
		return err
	}
	var targets []int32
	for _, dj := range disj {
		pos := movable(dj.Pos, writers)
		if len(pos) == 0 && len(dj.Neg) > 0 {
			d.elim[r] = append(d.elim[r], dj.Neg)
		}
		for _, b := range pos {
			for _, g := range writers[b] {
				if d.roleOf(int(g)) == r {
					targets = append(targets, g)
				}
			}
		}
	}
	for m := range row {
		g := d.off[r] + m
		for _, t := range targets {
			row[m] = min(row[m], d.dist[g*d.n+int(t)])
		}
	}
	return nil
}

// movable keeps the base propositions some move affects.
func movable(bs []int, writers [][]int32) []int {
	var out []int
	for _, b := range bs {
		if len(writers[b]) > 0 {
			out = append(out, b)
		}
	}
	return out
}

// coupled tests one output's disjuncts for coupling.
func (d *Metric) coupled(net *propnet.Net, o propnet.Output, writers [][]int32, facts []string) Coupling {
	disj, err := net.Disjuncts(o, maxDisjuncts)
	if err != nil {
		return Coupling{Coupled: true, Why: fmt.Sprintf("%s: %v", outputName(net, o), err)}
	}
	for _, dj := range disj {
		pos := movable(dj.Pos, writers)
		if len(pos) < 2 || oneMoveSets(pos, writers) {
			continue
		}
		names := []string{}
		for i, b := range pos {
			if i == 4 { // enough to show the shape; dots and boxes needs 60
				names = append(names, fmt.Sprintf("%d more", len(pos)-4))
				break
			}
			names = append(names, facts[b])
		}
		return Coupling{Coupled: true, Why: fmt.Sprintf("%s needs %s, which no single move makes true together",
			outputName(net, o), strings.Join(names, " and "))}
	}
	return Coupling{}
}

// oneMoveSets reports whether a single move affects every one of bs.
func oneMoveSets(bs []int, writers [][]int32) bool {
	for _, g := range writers[bs[0]] {
		all := true
		for _, b := range bs[1:] {
			if !containsInt32(writers[b], g) {
				all = false
				break
			}
		}
		if all {
			return true
		}
	}
	return false
}

func containsInt32(xs []int32, x int32) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

func outputName(net *propnet.Net, o propnet.Output) string {
	if o.Kind == propnet.Terminal {
		return "terminal"
	}
	return fmt.Sprintf("(goal %s %s)", net.Roles()[o.Role], net.GoalValues(o.Role)[o.Index])
}

// Coupling returns the goal-coupling result.
func (d *Metric) Coupling() Coupling { return d.coup }

// GoalDistance returns the distance from move m of role r to the nearest
// move of r that can make true a base proposition one of r's winning
// disjuncts needs: a lower bound, in interactions, on the further moves m
// needs before r can win with it. Far when no move of r can.
func (d *Metric) GoalDistance(r int, m game.Move) int {
	if r < 0 || r >= len(d.goal) || m < 0 || int(m) >= len(d.goal[r]) {
		return Far
	}
	return int(d.goal[r][m])
}

// GoalRow returns role r's goal distances indexed by move; it aliases the
// metric and must not be changed.
func (d *Metric) GoalRow(r int) []uint8 {
	if r < 0 || r >= len(d.goal) {
		return nil
	}
	return d.goal[r]
}

// Eliminations returns role r's winning disjuncts that need only absences
// (every enemy piece captured), each as its list of base propositions that
// must all be false.
func (d *Metric) Eliminations(r int) [][]int {
	if r < 0 || r >= len(d.elim) {
		return nil
	}
	return d.elim[r]
}
