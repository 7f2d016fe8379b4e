// Package distance owns the move-distance metric of a game, computed
// statically from its propositional network (Sancho's metric for local
// search): how many interactions chain one move to another, each move's
// distance to a winning move, whether the goals are coupled, and the rule
// that decides whether local search is worth running.
//
// A move's effects are the facts whose next rule names the move. The
// metric therefore reads the rules as written, not the game they define: a
// frame rule such as "a piece stays if a move elsewhere is played" never
// names the move that vacates the cell, so that move's vacating and
// capturing go unseen. The corpus's breakthroughSmall, written that way,
// averages 3.67 against 2.84 for the curated rules of the same game
// (notebook 06 shows both).
package distance

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strconv"

	"gdlab/engine/analysis"

	"gdlab/engine/analysis/internal/circuit"
	"gdlab/engine/game"
	"gdlab/engine/propnet"
)

// Far is the distance between moves that never interact.
const Far = 255

// MaxMoves bounds the moves (all roles together) for which Of builds its
// matrix, which takes a byte per pair.
const MaxMoves = 4096

// maxDisjuncts bounds the normal form of one goal or terminal output.
const maxDisjuncts = 4096

// ErrTooManyMoves is returned by Of for games with more than MaxMoves
// moves.
var ErrTooManyMoves = errors.New("analysis: too many moves for a distance matrix")

// Metric is the move-distance metric of a game, computed statically from
// its propositional network (Sancho's metric for local search).
//
// A move's effects are the base propositions whose next value reads the
// move (through any gates); its enablers are the base propositions its
// legality reads. Two distinct moves interact when they have a common
// effect or one's effect is the other's enabler; the distance between two
// moves is the fewest interactions that chain one to the other: 0 for a
// move and itself, 1 for moves that interact now (after one of them is
// played the other's effect or legality has changed), and so on; Far when
// no chain exists. Base propositions that more than half of some role's
// moves affect (turn markers, step counters, "last move" records) are
// global and left out, since they would put every move next to every
// other. Moves without effects (noops) are Far from everything.
type Metric struct {
	Roles []string
	Moves [][]string // per role: move texts, indexed by game.Move
	// Global lists the base propositions left out as global.
	Global []int
	off    []int     // role -> first global move index
	n      int       // moves of all roles
	eff    [][]int32 // per global move: effects (global props removed)
	en     [][]int32 // per global move: enablers (global props removed)
	dist   []uint8   // n×n
	goal   [][]uint8 // per role, per global move: distance to a winning move
	elim   [][][]int // per role: winning disjuncts made of absences only (their Neg lists)
	coup   Coupling
	avg    float64
	far    float64
	net    *propnet.Net // the network measured
}

// Coupling says whether a goal or terminal disjunct depends on more than
// one move: whether some disjunct needs several base propositions made
// true that no single move makes true together (three in a row does; a
// pawn on the last row does not). Propositions no move affects are not
// counted: they are set by the rules alone.
type Coupling struct {
	Coupled bool
	// Why names the first coupled disjunct, or says why the test could not
	// be made (a normal form too large counts as coupled).
	Why string
}

// Of computes the move-distance metric of net.
func Of(ctx context.Context, net *propnet.Net) (*Metric, error) {
	d := &Metric{Roles: net.Roles(), net: net}
	for r := range d.Roles {
		d.off = append(d.off, d.n)
		d.Moves = append(d.Moves, net.InputProps(r))
		d.n += len(d.Moves[r])
	}
	d.off = append(d.off, d.n)
	if d.n > MaxMoves {
		return nil, fmt.Errorf("%w: %d moves, at most %d", ErrTooManyMoves, d.n, MaxMoves)
	}
	if err := d.readNet(ctx, net); err != nil {
		return nil, err
	}
	if err := d.matrix(ctx, len(net.BaseProps())); err != nil {
		return nil, err
	}
	d.average()
	if err := d.goals(ctx, net); err != nil {
		return nil, err
	}
	return d, nil
}

// readNet collects every move's effects and enablers.
func (d *Metric) readNet(ctx context.Context, net *propnet.Net) error {
	nb := len(net.BaseProps())
	eff := make([][]int32, d.n)
	for b := 0; b < nb; b++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		sup, err := net.Support(propnet.Output{Kind: propnet.Next, Index: b})
		if err != nil {
			return err
		}
		for r, ms := range sup.Inputs {
			for _, m := range ms {
				eff[d.off[r]+int(m)] = append(eff[d.off[r]+int(m)], int32(b))
			}
		}
	}
	if err := d.refineEffects(ctx, net, eff); err != nil {
		return err
	}
	global := d.globalProps(eff, nb)
	d.eff = make([][]int32, d.n)
	d.en = make([][]int32, d.n)
	for g := 0; g < d.n; g++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		d.eff[g] = dropGlobal(eff[g], global)
		if len(d.eff[g]) == 0 {
			continue // a noop: nothing to enable
		}
		r := d.roleOf(g)
		sup, err := net.Support(propnet.Output{Kind: propnet.Legal, Role: r, Index: g - d.off[r]})
		if err != nil {
			return err
		}
		for _, b := range sup.Bases {
			if !global[b] {
				d.en[g] = append(d.en[g], int32(b))
			}
		}
	}
	return nil
}

// refineEffects keeps, of the moves a next output reads, those that can
// change the proposition. Rules often write the frame axiom as "the cell
// keeps its piece when the move played does not touch it", which reads
// every move; by three-valued evaluation with the move played (the only
// input of its role on, every other input off) and the other base
// propositions unknown, such a move provably leaves the proposition as it
// was, and is not an effect.
func (d *Metric) refineEffects(ctx context.Context, net *propnet.Net, eff [][]int32) error {
	c, err := circuit.Read(ctx, net)
	if err != nil {
		return err
	}
	ev := circuit.NewEvaluator(c)
	ev.Inputs = make([]circuit.Value, d.n) // all off
	byBase := make([][]int32, len(c.Next))
	for g, bs := range eff {
		for _, b := range bs {
			byBase[b] = append(byBase[b], int32(g))
		}
		eff[g] = eff[g][:0]
	}
	for b, gs := range byBase {
		if err := ctx.Err(); err != nil {
			return err
		}
		for _, g := range gs {
			ev.Inputs[g] = circuit.True
			keeps := ev.With(c.Next[b], []int{b}, []bool{true}) == circuit.True &&
				ev.With(c.Next[b], []int{b}, []bool{false}) == circuit.False
			ev.Inputs[g] = circuit.False
			if !keeps {
				eff[g] = append(eff[g], int32(b))
			}
		}
	}
	return nil
}

// globalProps marks the base propositions more than half of some role's
// moves affect (roles with fewer than four effective moves are not judged).
func (d *Metric) globalProps(eff [][]int32, nb int) []bool {
	global := make([]bool, nb)
	for r := range d.Roles {
		count := make([]int, nb)
		moves := 0
		for g := d.off[r]; g < d.off[r+1]; g++ {
			if len(eff[g]) > 0 {
				moves++
			}
			for _, b := range eff[g] {
				count[b]++
			}
		}
		for b, c := range count {
			if moves >= 4 && 2*c > moves && !global[b] {
				global[b] = true
				d.Global = append(d.Global, b)
			}
		}
	}
	return global
}

func dropGlobal(bs []int32, global []bool) []int32 {
	var out []int32
	for _, b := range bs {
		if !global[b] {
			out = append(out, b)
		}
	}
	return out
}

func (d *Metric) roleOf(g int) int {
	for r := range d.Roles {
		if g < d.off[r+1] {
			return r
		}
	}
	return -1
}

// matrix fills the distance matrix by a breadth-first search from every
// move over the interaction graph, walking through base propositions:
// from a move's effect, the moves that affect or read it; from its
// enabler, the moves that affect it.
func (d *Metric) matrix(ctx context.Context, nb int) error {
	writers := make([][]int32, nb)
	readers := make([][]int32, nb)
	for g := 0; g < d.n; g++ {
		for _, b := range d.eff[g] {
			writers[b] = append(writers[b], int32(g))
		}
		for _, b := range d.en[g] {
			readers[b] = append(readers[b], int32(g))
		}
	}
	d.dist = make([]uint8, d.n*d.n)
	for i := range d.dist {
		d.dist[i] = Far
	}
	w := &walker{writers: writers, readers: readers, d: d,
		viaEff: make([]int32, nb), viaEn: make([]int32, nb)}
	for g := 0; g < d.n; g++ {
		if g%64 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		if len(d.eff[g]) > 0 {
			w.from(g)
		}
	}
	return nil
}

// walker is the scratch of the breadth-first searches.
type walker struct {
	d                *Metric
	writers, readers [][]int32
	viaEff, viaEn    []int32 // per base: the search (g+1) that expanded it
	frontier, next   []int32
}

// from fills row g of the matrix.
func (w *walker) from(g int) {
	d, row, stamp := w.d, w.d.dist[g*w.d.n:(g+1)*w.d.n], int32(g+1)
	row[g] = 0
	w.frontier = append(w.frontier[:0], int32(g))
	for k := 1; len(w.frontier) > 0 && k < Far; k++ {
		w.next = w.next[:0]
		for _, x := range w.frontier {
			for _, b := range d.eff[x] {
				if w.viaEff[b] != stamp {
					w.viaEff[b] = stamp
					w.visit(row, w.writers[b], k)
					w.visit(row, w.readers[b], k)
				}
			}
			for _, b := range d.en[x] {
				if w.viaEn[b] != stamp {
					w.viaEn[b] = stamp
					w.visit(row, w.writers[b], k)
				}
			}
		}
		w.frontier, w.next = w.next, w.frontier
	}
}

func (w *walker) visit(row []uint8, ms []int32, k int) {
	for _, m := range ms {
		if row[m] == Far {
			row[m] = uint8(k)
			w.next = append(w.next, m)
		}
	}
}

// average computes the mean distance over ordered pairs of distinct moves
// with effects that interact at all, and the fraction that never do.
func (d *Metric) average() {
	sum, pairs, far := 0.0, 0, 0
	for i := 0; i < d.n; i++ {
		if len(d.eff[i]) == 0 {
			continue
		}
		for j := 0; j < d.n; j++ {
			if j == i || len(d.eff[j]) == 0 {
				continue
			}
			if v := d.dist[i*d.n+j]; v == Far {
				far++
			} else {
				sum += float64(v)
				pairs++
			}
		}
	}
	d.avg = math.NaN()
	if pairs > 0 {
		d.avg = sum / float64(pairs)
	}
	if pairs+far > 0 {
		d.far = float64(far) / float64(pairs+far)
	}
}

// Between returns the distance between move m1 of role r1 and move m2 of
// role r2, or Far.
func (d *Metric) Between(r1 int, m1 game.Move, r2 int, m2 game.Move) int {
	i, ok1 := d.index(r1, m1)
	j, ok2 := d.index(r2, m2)
	if !ok1 || !ok2 {
		return Far
	}
	return int(d.dist[i*d.n+j])
}

// index returns the global index of a move.
func (d *Metric) index(r int, m game.Move) (int, bool) {
	if r < 0 || r >= len(d.Roles) || m < 0 || int(m) >= len(d.Moves[r]) {
		return 0, false
	}
	return d.off[r] + int(m), true
}

// Row returns the distances from move m of role r to every move of role
// r2, indexed by move, as one byte each (Far for none); the slice aliases
// the matrix and must not be changed. Searches use it for fast lookups.
func (d *Metric) Row(r int, m game.Move, r2 int) []uint8 {
	i, ok := d.index(r, m)
	if !ok || r2 < 0 || r2 >= len(d.Roles) {
		return nil
	}
	return d.dist[i*d.n+d.off[r2] : i*d.n+d.off[r2+1]]
}

// Matrix returns the distances between the moves of role r1 (rows) and
// those of role r2 (columns), for display.
func (d *Metric) Matrix(r1, r2 int) [][]int {
	if r1 < 0 || r1 >= len(d.Roles) || r2 < 0 || r2 >= len(d.Roles) {
		return nil
	}
	out := make([][]int, len(d.Moves[r1]))
	for m := range out {
		row := d.Row(r1, game.Move(m), r2)
		out[m] = make([]int, len(row))
		for j, v := range row {
			out[m][j] = int(v)
		}
	}
	return out
}

// Effects returns the base propositions move m of role r affects, global
// ones left out.
func (d *Metric) Effects(r int, m game.Move) []int { return d.ints(d.eff, r, m) }

// Enablers returns the base propositions the legality of move m of role r
// reads, global ones left out.
func (d *Metric) Enablers(r int, m game.Move) []int { return d.ints(d.en, r, m) }

func (d *Metric) ints(t [][]int32, r int, m game.Move) []int {
	g, ok := d.index(r, m)
	if !ok {
		return nil
	}
	out := make([]int, len(t[g]))
	for i, b := range t[g] {
		out[i] = int(b)
	}
	return out
}

// Average returns the mean distance between distinct moves with effects
// that interact at all (NaN when none do).
func (d *Metric) Average() float64 { return d.avg }

// FarFraction returns the fraction of pairs of distinct moves with effects
// that never interact.
func (d *Metric) FarFraction() float64 { return d.far }

// winValue returns role's largest integer goal value, the win.
func winValue(net *propnet.Net, role int) (int, int) {
	best, idx := math.MinInt, -1
	for i, t := range net.GoalValues(role) {
		if v, err := strconv.Atoi(t); err == nil && v > best {
			best, idx = v, i
		}
	}
	return best, idx
}

// Active reports whether move m of role r has effects (is not a noop).
func (d *Metric) Active(r int, m game.Move) bool {
	g, ok := d.index(r, m)
	return ok && len(d.eff[g]) > 0
}

// Machine returns the network the distances were measured on. Moves and
// base propositions in the distances are numbered as in it.
func (d *Metric) Machine() game.Machine { return d.net }

// NewSimulator returns a simulator of the network the distances were
// measured on. Its Save encoding is the state's base propositions as a
// bitset, which SavedHolds reads.
func (d *Metric) NewSimulator() game.Simulator { return d.net.NewSim() }

// SavedHolds reports whether base proposition b holds in saved, a Save
// encoding of a simulator from NewSimulator.
func (d *Metric) SavedHolds(saved []uint64, b int) bool {
	return saved[b>>6]&(1<<uint(b&63)) != 0
}

// StateOf returns s as a state of the network the distances were measured
// on: s itself when it is one, otherwise the network's state with the same
// facts.
func (d *Metric) StateOf(s game.State) (game.State, error) { return analysis.StateIn(d.net, s) }

// WinValue returns role's largest goal value, or -1 when it has none.
func (d *Metric) WinValue(role int) int {
	if v, idx := winValue(d.net, role); idx >= 0 {
		return v
	}
	return -1
}
