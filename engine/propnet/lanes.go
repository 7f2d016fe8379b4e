package propnet

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"

	"gdlab/engine/game"
	"gdlab/engine/propnet/internal/draw"
)

// LaneCount is how many playouts a Lanes runs at once: one per bit of a
// word.
const LaneCount = 64

// Lanes runs 64 independent playouts at once on a Flat machine's
// straight-line code: every node's value is a word whose bit i is its
// value in lane i, so one pass over the gates steps every lane. Each lane
// draws its own moves. A lane that reaches a terminal state stops there
// while the others go on. Lanes start at the initial state (NewLanes,
// Reset) or at any state of the network (SetState). Lanes is for batch
// playouts (its rate is 64 playouts per call); it is not a
// game.Simulator, but a FlatSim runs its batches (FlatSim.Playouts,
// game.Playouts) on one. It is not safe for concurrent use. Its methods
// allocate nothing but State.
type Lanes struct {
	p       *program
	net     *Net
	val     []uint64   // slot 2v: node v's lanes; 2v+1: their negation
	state   []uint64   // per base proposition: the lanes that hold it
	target  []uint64   // scratch for advance
	done    uint64     // lanes in a terminal state
	goalsOK bool       // the goal gates are up to date
	set     [][]int32  // per role: the input propositions set
	setW    [][]uint64 // per role, per entry of set: the lanes that play it
	draw    drawKind   // how choose draws the lanes' moves
	cand    []int32    // scratch for choose: moves legal in some lane
	candW   []uint64   // the lanes where cand's moves are legal
	hit     []uint64   // scratch for drawByRejection: the lanes that drew cand's moves
	acc     []uint64   // per complemented part: the lanes whose move lies in its complement
	roleW   []uint64   // per role: the lanes where it has a move set
	phase   []bool     // per gate run of every role, in order: its gate in the initial state
	count   [LaneCount]int32
	choice  [LaneCount]int32
	src     draw.Source // drawLane's single tries
}

// NewLanes returns 64 lanes at the initial state.
func (f *Flat) NewLanes() *Lanes { return newLanes(f.p) }

func newLanes(p *program) *Lanes {
	l := &Lanes{p: p, net: p.net, val: make([]uint64, p.slots()),
		state: make([]uint64, len(p.net.facts)), target: make([]uint64, len(p.net.facts)), set: make([][]int32, len(p.net.roles)), setW: make([][]uint64, len(p.net.roles)),
		acc: make([]uint64, len(p.compParts)), roleW: make([]uint64, len(p.net.roles))}
	for v := 1; v < len(l.val); v += 2 {
		l.val[v] = ^uint64(0)
	}
	l.Reset()
	for _, runs := range p.runs {
		for _, run := range runs {
			l.phase = append(l.phase, l.val[run.gate]&1 != 0)
		}
	}
	return l
}

// Reset puts every lane at the initial state.
func (l *Lanes) Reset() { l.load(l.net.initial) }

// SetState puts every lane at st, a state of the lanes' network, so that
// Playouts plays 64 playouts from it. It fails for a state of another
// network.
func (l *Lanes) SetState(st game.State) error {
	ps, err := l.net.own(st)
	if err != nil {
		return err
	}
	l.load(ps.bits)
	return nil
}

// load puts every lane at the state whose base propositions are bs, with
// no moves set.
func (l *Lanes) load(bs []uint64) {
	l.clearMoves()
	l.place(bs, ^uint64(0))
}

// place puts the lanes of mask at the state whose base propositions are
// bs and evaluates the gates that read the state.
func (l *Lanes) place(bs []uint64, mask uint64) {
	for b, w := range l.state {
		nw := w &^ mask
		if bs[b>>6]&(1<<uint(b&63)) != 0 {
			nw |= mask
		}
		if nw != w {
			l.state[b] = nw
			l.setNode(l.net.baseNode[b], nw)
		}
	}
	l.evalState()
}

func (l *Lanes) setNode(node int32, w uint64) {
	if node >= 0 {
		l.val[2*node], l.val[2*node+1] = w, ^w
	}
}

// clearMoves takes every role's chosen moves off the inputs and their
// pseudo-nodes.
func (l *Lanes) clearMoves() {
	p := l.p
	for r, ins := range l.set {
		for _, i := range ins {
			l.setNode(l.net.inputNode[i], 0)
		}
		l.set[r], l.setW[r] = ins[:0], l.setW[r][:0]
	}
	// The pseudo-nodes' slots come last. No gate reads a pseudo-node
	// negated, so clearing their negation slots too is harmless, and one
	// clear costs less than visiting the pseudo-nodes that were set.
	clear(l.val[2*(p.konst+1):])
}

// setPseudos computes the pseudo-nodes from the moves set: each is the
// OR over its input propositions of the lanes that play them, a
// complemented part (see program) the lanes where its role moves less
// those that play a move of its complement.
func (l *Lanes) setPseudos() {
	p := l.p
	clear(l.acc)
	for r, ins := range l.set {
		moving := uint64(0)
		for k, i := range ins {
			w := l.setW[r][k]
			moving |= w
			for _, ps := range p.laneDirect[p.laneDirectOff[i]:p.laneDirectOff[i+1]] {
				l.val[2*ps] |= w
			}
			for _, c := range p.laneComp[p.laneCompOff[i]:p.laneCompOff[i+1]] {
				l.acc[c] |= w
			}
		}
		l.roleW[r] = moving
	}
	for c, pt := range p.compParts {
		l.val[2*pt.ps] |= l.roleW[pt.role] &^ l.acc[c]
	}
}

// evalState evaluates the gates that read the state, with no moves set,
// and marks the lanes that are terminal.
func (l *Lanes) evalState() {
	l.p.runLanes(codeState, l.val)
	if l.net.stateReadsMoves {
		l.p.runLanes(codeMove, l.val)
	}
	l.done = l.val[l.p.terminal]
	l.goalsOK = false
}

// runWords evaluates c.segs on words of lanes.
func runWords(c *code, val []uint64) {
	for _, sg := range c.segs {
		ops := c.ops[sg.lo:sg.hi]
		switch sg.kind {
		case segAnd2:
			for i := 0; i+2 < len(ops); i += 3 {
				v := val[ops[i+1]] & val[ops[i+2]]
				val[ops[i]], val[ops[i]+1] = v, ^v
			}
		case segOr2:
			for i := 0; i+2 < len(ops); i += 3 {
				v := val[ops[i+1]] | val[ops[i+2]]
				val[ops[i]], val[ops[i]+1] = v, ^v
			}
		case segAnd:
			for i := 0; i < len(ops); {
				out, k := ops[i], int(ops[i+1])
				v := ^uint64(0)
				for _, x := range ops[i+2 : i+2+k] {
					v &= val[x]
				}
				val[out], val[out+1] = v, ^v
				i += 2 + k
			}
		case segOr:
			for i := 0; i < len(ops); {
				out, k := ops[i], int(ops[i+1])
				v := uint64(0)
				for _, x := range ops[i+2 : i+2+k] {
					v |= val[x]
				}
				val[out], val[out+1] = v, ^v
				i += 2 + k
			}
		}
	}
}

// Playouts plays every lane that is not terminal on with uniformly random
// legal joint moves until it is terminal, or for at most maxSteps joint
// moves when maxSteps > 0, and returns the joint moves played, summed
// over the lanes. Each lane draws its own move uniformly, from rng, for
// every role and step (see choose; nothing is drawn where the role has
// one move in every lane). It fails with ErrNoLegalMove when a role has no
// legal move in a lane that is not terminal.
func (l *Lanes) Playouts(rng *rand.Rand, maxSteps int) (int, error) {
	return l.playouts(rng, maxSteps, ^uint64(0))
}

// playouts is Playouts on the lanes of mask only: the others stay where
// they are and draw nothing.
func (l *Lanes) playouts(rng *rand.Rand, maxSteps int, mask uint64) (int, error) {
	total := 0
	for steps := 0; maxSteps <= 0 || steps < maxSteps; steps++ {
		active := mask &^ l.done
		if active == 0 {
			break
		}
		for r := range l.set {
			if err := l.choose(r, active, rng); err != nil {
				l.clearMoves() // the earlier roles' moves must not carry over
				return total, err
			}
		}
		l.setPseudos()
		l.p.runLanes(codeMove, l.val)
		l.advance(active)
		total += bits.OnesCount64(active)
	}
	return total, nil
}

// drawKind selects how Lanes draw moves; the benchmarks compare them.
type drawKind uint8

const (
	drawMixed     drawKind = iota // the default: see choose
	drawRejection                 // drawByRejection at every step
	drawSliced                    // drawSliced where the role has few enough moves
	drawScalar                    // drawScalar
)

// rejectionTries is the expected draws a lane may need (moves legal in
// some lane over the moves legal in it, on average over the lanes) above
// which the default draw counts the lanes' moves instead of drawing by
// rejection.
const rejectionTries = 8

// choose draws role's move in every active lane, uniformly among the moves
// legal there, and sets it on the inputs. It lists the moves legal in some
// lane, then draws by rejection (drawByRejection) when a lane needs few
// draws on average, as where the lanes' moves are alike, and otherwise by
// counting each lane's moves (drawSliced, or drawScalar for a role with
// 2^maxPlanes moves or more); lanes made for a benchmark draw one way
// only.
func (l *Lanes) choose(role int, active uint64, rng *rand.Rand) error {
	if some := l.gather(role, active); active&^some != 0 {
		return ErrNoLegalMove
	}
	small := l.net.inputOff[role+1]-l.net.inputOff[role] < 1<<maxPlanes
	switch l.draw {
	case drawRejection:
		l.drawByRejection(role, active, l.pairs(), rng)
	case drawSliced:
		if small {
			l.drawSliced(role, active, rng)
		} else {
			l.drawScalar(role, active, rng)
		}
	case drawScalar:
		l.drawScalar(role, active, rng)
	default:
		pairs := l.pairs()
		switch {
		case len(l.cand)*bits.OnesCount64(active) <= rejectionTries*pairs:
			l.drawByRejection(role, active, pairs, rng)
		case small:
			l.drawSliced(role, active, rng)
		default:
			l.drawScalar(role, active, rng)
		}
	}
	return nil
}

// gather lists in cand the role's moves legal in some active lane, in move
// order, with in candW the lanes where each is legal, and returns the
// lanes where some move is legal. Runs of moves whose gate is false in
// every lane are skipped whole.
func (l *Lanes) gather(role int, active uint64) uint64 {
	p := l.p
	moves := int(l.net.inputOff[role+1] - l.net.inputOff[role])
	if cap(l.cand) < moves {
		l.cand, l.candW = make([]int32, moves), make([]uint64, moves)
	}
	cand, candW := l.cand[:moves], l.candW[:moves]
	n := 0
	some := uint64(0)
	for _, run := range p.runs[role] {
		gw := l.val[run.gate] & active
		if gw == 0 {
			continue
		}
		for i := run.lo; i < run.hi; i++ {
			// Every move is written and only the legal ones are kept:
			// whether a move is legal somewhere is too unpredictable to
			// branch on.
			w := l.val[p.legal[i]] & gw
			cand[n], candW[n] = i, w
			some |= w
			n += int((w | -w) >> 63) // 1 if w != 0
		}
	}
	l.cand, l.candW = cand[:n], candW[:n]
	return some
}

// pairs returns the gathered moves' legal lanes, summed over the moves.
func (l *Lanes) pairs() int {
	n := 0
	for _, w := range l.candW {
		n += bits.OnesCount64(w)
	}
	return n
}

// setMove sets input proposition i on the lanes of w, as role's move.
func (l *Lanes) setMove(role int, i int32, w uint64) {
	l.setNode(l.net.inputNode[i], w)
	l.set[role] = append(l.set[role], i)
	l.setW[role] = append(l.setW[role], w)
}

// maxTries bounds drawByRejection's draws for one lane before it counts
// the lane's legal moves and draws among them.
const maxTries = 32

// drawByRejection draws, in each active lane, one of the gathered moves
// legal there, uniformly: each lane draws from the whole list until it
// draws a move legal in it. A lane whose maxTries draws all miss counts
// its legal moves and draws among them, which keeps the draw uniform:
// every try picks each legal move with the same chance, and so does the
// fallback. pairs is the gathered moves' legal lanes summed (Lanes.pairs),
// from which it sizes drawLane's rounds.
func (l *Lanes) drawByRejection(role int, active uint64, pairs int, rng *rand.Rand) {
	c := len(l.cand)
	if cap(l.hit) < c {
		l.hit = make([]uint64, c)
	}
	hit := l.hit[:c]
	clear(hit)
	if c == 1 {
		hit[0] = active
	} else {
		// A lane needs c·lanes/pairs tries on average: about one on
		// connectFour, five on breakthrough. Up to 1.5 it tries one at a
		// time, up to 3 in rounds of four, above that in rounds of eight.
		l.src.Use(rng)
		tries, expected2 := 1, 2*c*bits.OnesCount64(active) // twice c·lanes
		switch {
		case expected2 > 6*pairs:
			tries = 8
		case expected2 > 3*pairs:
			tries = 4
		}
		for w := active; w != 0; w &= w - 1 {
			k := uint(bits.TrailingZeros64(w))
			hit[l.drawLane(k, tries, rng)] |= 1 << k
		}
	}
	for j, h := range hit {
		if h != 0 {
			l.setMove(role, l.cand[j], h)
		}
	}
}

// drawLane returns the index in cand of the move lane k draws: see
// drawByRejection. tries is 1, 4 or 8. With 1, each try takes a 16-bit
// draw from l.src. With 4 or 8 the tries come in rounds of one or two
// random words, four draws a word (package draw), tested without
// branching, so that a lane that needs several tries pays one
// unpredictable branch a round rather than one a try.
func (l *Lanes) drawLane(k uint, tries int, rng *rand.Rand) int {
	if n := uint32(len(l.cand)); n <= draw.MaxBound {
		if tries == 1 {
			for range maxTries {
				if j := l.src.Below(n); l.candW[j]>>k&1 != 0 {
					return int(j)
				}
			}
		} else {
			t, cw := draw.Threshold(n), l.candW
			for range maxTries / tries {
				var js [8]uint32
				hits := uint32(0)
				for w := range tries / 4 {
					x := rng.Uint64()
					for i := range 4 {
						j, ok := draw.Map(x>>(16*i), n, t)
						h := uint32(cw[j]>>k) & 1
						if !ok {
							h = 0
						}
						js[4*w+i], hits = j, hits|h<<(4*w+i)
					}
				}
				if hits != 0 {
					return int(js[bits.TrailingZeros32(hits)])
				}
			}
		}
	}
	bit := uint64(1) << k
	legal := 0
	for _, w := range l.candW {
		legal += int(w >> k & 1)
	}
	r := rng.IntN(legal)
	for j, w := range l.candW {
		if w&bit != 0 {
			if r == 0 {
				return j
			}
			r--
		}
	}
	panic("propnet: drawLane lost its count")
}

// drawScalar draws as drawSliced does, with a counter per lane: it counts
// each lane's gathered moves, draws, and walks the list to find the drawn
// ones.
func (l *Lanes) drawScalar(role int, active uint64, rng *rand.Rand) {
	l.count = [LaneCount]int32{}
	for _, w := range l.candW {
		for ; w != 0; w &= w - 1 {
			l.count[bits.TrailingZeros64(w)]++
		}
	}
	for w := active; w != 0; w &= w - 1 {
		k := bits.TrailingZeros64(w)
		l.choice[k] = int32(pick(rng, int(l.count[k])))
	}
	pending := active
	for c := 0; c < len(l.cand) && pending != 0; c++ {
		hit := uint64(0)
		for w := l.candW[c] & pending; w != 0; w &= w - 1 {
			k := bits.TrailingZeros64(w)
			if l.choice[k] == 0 {
				hit |= 1 << uint(k)
			}
			l.choice[k]--
		}
		if hit != 0 {
			pending &^= hit
			l.setMove(role, l.cand[c], hit)
		}
	}
}

// advance moves the active lanes to their next states, clears the moves
// and evaluates the new states.
func (l *Lanes) advance(active uint64) {
	// Next lits may read base propositions directly: read them all
	// before writing any.
	for b, x := range l.p.next {
		l.target[b] = l.val[x]&active | l.state[b]&^active
	}
	for b, w := range l.target {
		if w != l.state[b] {
			l.state[b] = w
			l.setNode(l.net.baseNode[b], w)
		}
	}
	l.clearMoves()
	l.evalState()
}

// Terminal reports whether lane is in a terminal state.
func (l *Lanes) Terminal(lane int) bool {
	return lane >= 0 && lane < LaneCount && l.done&(1<<uint(lane)) != 0
}

// Goals appends every role's goal in lane's state to dst[:0], -1 where the
// rules give no single integer value. The first call after the lanes
// move evaluates the goal gates of every lane at once.
func (l *Lanes) Goals(lane int, dst []int) []int {
	dst = dst[:0]
	if lane < 0 || lane >= LaneCount {
		return dst
	}
	return l.appendGoals(lane, dst)
}

// appendGoals appends every role's goal in lane's state to dst.
func (l *Lanes) appendGoals(lane int, dst []int) []int {
	if !l.goalsOK {
		l.p.runLanes(codeGoal, l.val)
		l.goalsOK = true
	}
	bit := uint64(1) << uint(lane)
	for r, gs := range l.p.goals {
		g := -1
		for i, x := range gs {
			if l.val[x]&bit == 0 {
				continue
			}
			if g != -1 || !l.net.goals[r][i].ok {
				g = -2
				break
			}
			g = l.net.goals[r][i].value
		}
		dst = append(dst, max(g, -1))
	}
	return dst
}

// State returns lane's current state. It allocates. It fails for a lane
// out of range.
func (l *Lanes) State(lane int) (game.State, error) {
	if lane < 0 || lane >= LaneCount {
		return nil, fmt.Errorf("propnet: no lane %d (there are %d)", lane, LaneCount)
	}
	bs := make([]uint64, l.net.words)
	for b, w := range l.state {
		if w&(1<<uint(lane)) != 0 {
			bs[b>>6] |= 1 << uint(b&63)
		}
	}
	return l.net.newState(bs), nil
}

// refillAt is how many lanes must have ended their playouts before Stream
// reads their goals and restarts them: reading goals evaluates the goal
// gates of every lane, and restarting evaluates the state's gates again,
// so both are paid once per refillAt playouts, while a lane that has ended
// idles until then.
const refillAt = 16

// maxPhaseWait bounds the steps Stream waits, with refillAt lanes ended,
// for the others to be in phase with the initial state (see inPhase).
const maxPhaseWait = 4

// inPhase reports whether the lanes of active agree with the initial state
// on every gate that enables a run of moves (whose turn it is, in a game
// that takes turns). Restarted there, lanes stay in step with the others,
// so that each step has one role with moves to draw from in every lane
// and the others' runs are skipped; out of step, every role would draw in
// some lanes.
func (l *Lanes) inPhase(active uint64) bool {
	k := 0
	for _, runs := range l.p.runs {
		for _, run := range runs {
			want := uint64(0)
			if l.phase[k] {
				want = active
			}
			if l.val[run.gate]&active != want {
				return false
			}
			k++
		}
	}
	return true
}

// Stream plays uniformly random playouts from the initial state on every
// lane until n of them have ended in a terminal state, restarting each
// lane from the initial state once its playout has ended, so that no lane
// idles for long. It passes each ended playout's goals (as Goals gives
// them) to record, which may be nil and must not keep the slice, and
// returns the playouts ended (n, unless ctx ends first) and the joint
// moves they played. Playouts still running at the end are dropped. It
// fails with ErrNoLegalMove when a role has no legal move in a lane that
// is not terminal.
func (l *Lanes) Stream(ctx context.Context, rng *rand.Rand, n int, record func(goals []int)) (playouts, steps int, err error) {
	l.Reset()
	var laneSteps [LaneCount]int
	waited := 0 // steps the refill has waited for the lanes to come in phase
	goals := make([]int, 0, len(l.net.roles))
	for playouts < n {
		if err := ctx.Err(); err != nil {
			return playouts, steps, err
		}
		if bits.OnesCount64(l.done) >= refillAt && (l.inPhase(^l.done) || waited >= maxPhaseWait) {
			waited = 0
			for w := l.done; w != 0 && playouts < n; w &= w - 1 {
				k := bits.TrailingZeros64(w)
				if record != nil {
					record(l.Goals(k, goals))
				}
				playouts++
				steps += laneSteps[k]
				laneSteps[k] = 0
			}
			l.place(l.net.initial, l.done)
			continue
		}
		if bits.OnesCount64(l.done) >= refillAt {
			waited++
		}
		active := ^l.done
		for r := range l.set {
			if err := l.choose(r, active, rng); err != nil {
				return playouts, steps, err
			}
		}
		l.setPseudos()
		l.p.runLanes(codeMove, l.val)
		l.advance(active)
		for w := active; w != 0; w &= w - 1 {
			laneSteps[bits.TrailingZeros64(w)]++
		}
	}
	return playouts, steps, nil
}

// maxPlanes bounds the bits of drawSliced's counters: roles with
// 2^maxPlanes moves or more are drawn by drawScalar. Every move legal in
// some lane costs drawSliced a test of all the planes, so many planes
// lose: on speedChess (3,832 moves a role, 12 planes) slicing measured
// 0.91x the scalar draw, on the games with at most 8 planes 1.0-1.1x.
const maxPlanes = 8

// drawSliced draws role's move in every active lane among the gathered
// moves and sets it on the inputs. Each lane's count of legal moves is
// kept bit-sliced, bit j of every lane's count in one word, so that adding
// a move's lanes costs a few word operations however many lanes it is
// legal in. Lane k then draws r_k = rng.IntN(count_k) (no draw for one
// move) and takes the move where its remaining count, also bit-sliced,
// reaches 0, walking the gathered moves in move order: the same moves
// drawScalar takes for the same draws.
func (l *Lanes) drawSliced(role int, active uint64, rng *rand.Rand) {
	var cnt, rem [maxPlanes]uint64
	for _, w := range l.candW {
		for j, carry := 0, w; carry != 0; j++ {
			cnt[j], carry = cnt[j]^carry, cnt[j]&carry
		}
	}
	planes := maxPlanes
	for planes > 0 && cnt[planes-1] == 0 {
		planes-- // no lane has that many legal moves
	}
	// Eight lanes at a time, the planes' bytes are transposed into the
	// lanes' counts (one byte each), drawn from in lane order, and the
	// draws transposed back into planes.
	for b := 0; b < LaneCount; b += 8 {
		act := uint8(active >> b)
		if act == 0 {
			continue
		}
		var x uint64
		for j := range planes {
			x |= (cnt[j] >> b & 0xff) << (8 * j)
		}
		x = transpose8(x)
		var y uint64
		for i := 0; i < 8; i++ {
			if act>>i&1 != 0 {
				y |= uint64(pick(rng, int(x>>(8*i)&0xff))) << (8 * i)
			}
		}
		y = transpose8(y)
		for j := range planes {
			rem[j] |= (y >> (8 * j) & 0xff) << b
		}
	}
	pending := active
	for c := 0; c < len(l.cand) && pending != 0; c++ {
		w := l.candW[c] & pending
		if w == 0 {
			continue
		}
		zero := ^uint64(0)
		for j := range planes {
			zero &^= rem[j]
		}
		hit := w & zero
		for j, borrow := 0, w&^hit; borrow != 0; j++ {
			rem[j], borrow = rem[j]^borrow, ^rem[j]&borrow
		}
		if hit != 0 {
			pending &^= hit
			l.setMove(role, l.cand[c], hit)
		}
	}
}

// transpose8 transposes the 8x8 bit matrix whose row i is byte i of x
// (entry (i, j) is bit 8i+j) in three rounds of swaps of 1x1, 2x2 and 4x4
// blocks.
func transpose8(x uint64) uint64 {
	t := (x ^ x>>7) & 0x00aa00aa00aa00aa
	x ^= t ^ t<<7
	t = (x ^ x>>14) & 0x0000cccc0000cccc
	x ^= t ^ t<<14
	t = (x ^ x>>28) & 0x00000000f0f0f0f0
	return x ^ t ^ t<<28
}
