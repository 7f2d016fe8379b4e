package mcts

import (
	"math/rand/v2"

	"gdlab/engine/analysis"
	"gdlab/engine/game"
)

// worker runs playouts with its own simulator and generator.
type worker struct {
	t          *tree
	sim        game.Simulator
	latch      func(b int) bool // the simulator's state in the latch analysis' numbering (switch 4)
	count      func(b int) bool // the same in the virtual terminality's (switch 5)
	pcg        *rand.PCG
	rng        *rand.Rand
	goals      []int
	batchGoals []int // a batch's goals, playout after playout (LeafBatch)
	legal      [][]game.Move
	order      []int
	joint      []game.Move
	saved      []uint64
}

func newWorker(t *tree) *worker {
	w := &worker{t: t, pcg: rand.NewPCG(1, 2), goals: make([]int, t.roles),
		legal: make([][]game.Move, t.roles), joint: make([]game.Move, t.roles)}
	w.rng = rand.New(w.pcg)
	w.sim = game.NewSimulator(t.m)
	if t.an != nil {
		w.latch = analysis.Holds(w.sim, t.an.BaseProps())
	}
	if t.vt != nil {
		w.count = analysis.Holds(w.sim, t.vt.BaseProps())
	}
	return w
}

// runAll plays out ls[first], ls[first+stride], ... that need a playout.
func (w *worker) runAll(ls []*leaf, first, stride int) {
	for i := first; i < len(ls); i += stride {
		if ls[i].known == nil {
			w.run(ls[i])
		}
	}
}

// run plays out leaf l from its seed, storing every role's result
// (0..100): one playout's goals, or the mean of LeafBatch playouts'.
func (w *worker) run(l *leaf) {
	w.pcg.Seed(l.seed, 0x9e3779b97f4a7c15)
	// Zeroed results, in the storage the leaf kept from its last use.
	l.result = append(l.result[:0], make([]float64, w.t.roles)...)
	if l.err = w.sim.SetState(l.state); l.err != nil {
		return
	}
	if n := w.t.opt.leafBatch(); n > 1 {
		l.playouts = n
		l.steps, l.err = w.batch(l, n)
		return
	}
	l.playouts = 1
	if l.steps, l.err = w.playout(); l.err != nil {
		return
	}
	for r, g := range w.goals {
		l.result[r] = float64(max(g, 0))
	}
}

// playout plays one playout from the simulator's state, guided under
// switch 4 and stopping at decided states under switch 5, and leaves the
// goals where it ended in w.goals. It returns the joint moves played.
func (w *worker) playout() (int, error) {
	var (
		steps   int
		decided bool
		err     error
	)
	switch {
	case w.t.opt.LatchPlayout && w.t.an != nil:
		steps, err = w.guided()
	case w.t.vt != nil:
		steps, decided, err = w.virtual()
	default:
		steps, err = w.sim.Playout(w.rng, w.t.opt.maxSteps())
	}
	if err == nil && !decided {
		w.goals, err = w.sim.Goals(w.goals)
	}
	return steps, err
}

// batch plays n playouts from l's state, the simulator's current one, and
// stores the mean of their goals in l.result (zeroed): plain playouts
// through game.Playouts, which runs them at once on a simulator that runs
// batches, and the playouts of switches 4 and 5 one after another. It
// returns the joint moves played by all n.
func (w *worker) batch(l *leaf, n int) (int, error) {
	total := 0
	if (w.t.opt.LatchPlayout && w.t.an != nil) || w.t.vt != nil {
		for i := 0; i < n; i++ {
			if i > 0 {
				if err := w.sim.SetState(l.state); err != nil {
					return total, err
				}
			}
			steps, err := w.playout()
			total += steps
			if err != nil {
				return total, err
			}
			for r, g := range w.goals {
				l.result[r] += float64(max(g, 0))
			}
		}
	} else {
		var err error
		w.batchGoals, total, err = game.Playouts(w.sim, w.rng, n, w.t.opt.maxSteps(), w.batchGoals)
		if err != nil {
			return total, err
		}
		for i, g := range w.batchGoals {
			l.result[i%w.t.roles] += float64(max(g, 0))
		}
	}
	for r := range l.result {
		l.result[r] /= float64(n)
	}
	return total, nil
}

// virtual is a random playout under switch 5: it stops at a terminal
// state or at a state the counts decide, whose goals it then leaves in
// w.goals (decided true).
func (w *worker) virtual() (steps int, decided bool, err error) {
	for ; steps < w.t.opt.maxSteps(); steps++ {
		if term, err := w.sim.Terminal(); err != nil || term {
			return steps, false, err
		}
		var ok bool
		if w.goals, ok = w.t.vt.Decided(w.count, w.goals); ok {
			return steps, true, nil
		}
		if w.joint, err = w.sim.RandomJoint(w.rng, w.joint); err != nil {
			return steps, false, err
		}
		if err := w.sim.Play(w.joint); err != nil {
			return steps, false, err
		}
	}
	return steps, false, nil
}

// guided is switch 4: a random playout in which the one role choosing
// avoids moves that lower its maximum achievable score while it has
// another move. It returns the joint moves played (tried moves that were
// taken back count too, as Next calls).
func (w *worker) guided() (int, error) {
	calls := 0
	for steps := 0; steps < w.t.opt.maxSteps(); steps++ {
		if term, err := w.sim.Terminal(); err != nil || term {
			return calls, err
		}
		mover, err := w.randomJoint()
		if err != nil {
			return calls, err
		}
		if mover < 0 {
			calls++
			if err := w.sim.Play(w.joint); err != nil {
				return calls, err
			}
			continue
		}
		n, err := w.avoidLoweringMax(mover)
		calls += n
		if err != nil {
			return calls, err
		}
	}
	return calls, nil
}

// randomJoint draws a uniform legal move per role from the sorted legal
// lists into w.joint and returns the one role with several moves, or -1.
func (w *worker) randomJoint() (int, error) {
	mover, movers := -1, 0
	for r := range w.joint {
		var err error
		if w.legal[r], err = w.sim.Legal(r, w.legal[r]); err != nil {
			return -1, err
		}
		if len(w.legal[r]) == 0 {
			return -1, &game.NoLegalMoveError{Role: w.t.m.Roles()[r]}
		}
		w.joint[r] = w.legal[r][w.rng.IntN(len(w.legal[r]))]
		if len(w.legal[r]) > 1 {
			mover, movers = r, movers+1
		}
	}
	if movers != 1 {
		return -1, nil
	}
	return mover, nil
}

// avoidLoweringMax tries mover's legal moves in random order, with the
// other roles' moves of w.joint, and keeps the first that does not lower
// mover's maximum achievable score (the last when all do). It returns the
// moves tried.
func (w *worker) avoidLoweringMax(mover int) (int, error) {
	an := w.t.an
	_, hi := an.RangeHolding(w.latch, mover)
	w.saved = w.sim.Save(w.saved)
	moves := w.legal[mover]
	w.order = w.order[:0]
	for i := range moves {
		w.order = append(w.order, i)
	}
	w.rng.Shuffle(len(w.order), func(i, j int) { w.order[i], w.order[j] = w.order[j], w.order[i] })
	for k, i := range w.order {
		w.joint[mover] = moves[i]
		if err := w.sim.Play(w.joint); err != nil {
			return k + 1, err
		}
		if _, h := an.RangeHolding(w.latch, mover); h >= hi || k == len(w.order)-1 {
			return k + 1, nil
		}
		if err := w.sim.Restore(w.saved); err != nil {
			return k + 1, err
		}
	}
	return len(w.order), nil
}
