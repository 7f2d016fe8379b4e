package mcts

import (
	"context"
	"math/rand/v2"

	"gdlab/engine/game"
	"gdlab/engine/propnet"
)

// worker runs playouts with its own simulator and generator.
type worker struct {
	t     *tree
	sim   *propnet.Sim
	pcg   *rand.PCG
	rng   *rand.Rand
	goals []int
	legal [][]game.Move
	order []int
	joint []game.Move
}

func newWorker(t *tree) *worker {
	w := &worker{t: t, pcg: rand.NewPCG(1, 2), goals: make([]int, t.roles),
		legal: make([][]game.Move, t.roles), joint: make([]game.Move, t.roles)}
	w.rng = rand.New(w.pcg)
	if t.net != nil {
		w.sim = t.net.NewSim()
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

// run plays out leaf l from its seed, storing every role's result (0..100).
func (w *worker) run(l *leaf) {
	w.pcg.Seed(l.seed, 0x9e3779b97f4a7c15)
	l.result = make([]float64, w.t.roles)
	if w.sim == nil {
		res, err := game.Playout(context.Background(), w.t.m, l.state, w.rng, w.t.opt.maxSteps())
		if err != nil {
			l.err = err
			return
		}
		l.steps = res.Steps
		for r, g := range res.Goals {
			l.result[r] = float64(max(g, 0))
		}
		return
	}
	st := l.state.(*propnet.State)
	if err := w.sim.SetState(st); err != nil {
		l.err = err
		return
	}
	var err error
	decided := false
	switch {
	case w.t.opt.LatchPlayout && w.t.an != nil:
		l.steps, err = w.guided(st)
	case w.t.vt != nil:
		l.steps, decided, err = w.virtual()
	default:
		l.steps, err = w.sim.Playout(w.rng, w.t.opt.maxSteps())
	}
	if err != nil {
		l.err = err
		return
	}
	if !decided {
		w.goals = w.simGoals()
	}
	for r, g := range w.goals {
		l.result[r] = float64(max(g, 0))
	}
}

// simGoals reads every role's goal in the simulator's state, from the
// emulation when the machine emulates them.
func (w *worker) simGoals() []int {
	if w.t.emu != nil {
		return w.t.emu.SimGoals(w.sim, w.goals)
	}
	return w.sim.Goals(w.goals)
}

// virtual is a random playout under switch 5: it stops at a terminal
// state or at a state the counts decide, whose goals it then leaves in
// w.goals (decided true).
func (w *worker) virtual() (steps int, decided bool, err error) {
	for ; steps < w.t.opt.maxSteps(); steps++ {
		if w.sim.Terminal() {
			return steps, false, nil
		}
		var ok bool
		if w.goals, ok = w.t.vt.Decided(w.sim.Has, w.goals); ok {
			return steps, true, nil
		}
		for r := range w.joint {
			n := w.sim.LegalCount(r)
			if n == 0 {
				return steps, false, propnet.ErrNoLegalMove
			}
			w.joint[r] = w.sim.LegalMove(r, w.rng.IntN(n))
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
func (w *worker) guided(st *propnet.State) (int, error) {
	an := w.t.an
	calls := 0
	for steps := 0; steps < w.t.opt.maxSteps(); steps++ {
		if w.sim.Terminal() {
			return calls, nil
		}
		mover, movers := -1, 0
		for r := range w.joint {
			w.legal[r] = w.sim.Legal(r, w.legal[r])
			if len(w.legal[r]) == 0 {
				return calls, propnet.ErrNoLegalMove
			}
			w.joint[r] = w.legal[r][w.rng.IntN(len(w.legal[r]))]
			if len(w.legal[r]) > 1 {
				mover, movers = r, movers+1
			}
		}
		if movers != 1 {
			calls++
			if err := w.sim.Play(w.joint); err != nil {
				return calls, err
			}
			st = w.sim.State()
			continue
		}
		_, hi := an.Range(st, mover)
		moves := w.legal[mover]
		w.order = w.order[:0]
		for i := range moves {
			w.order = append(w.order, i)
		}
		w.rng.Shuffle(len(w.order), func(i, j int) { w.order[i], w.order[j] = w.order[j], w.order[i] })
		for k, i := range w.order {
			w.joint[mover] = moves[i]
			calls++
			if err := w.sim.Play(w.joint); err != nil {
				return calls, err
			}
			next := w.sim.State()
			if _, h := an.Range(next, mover); h >= hi || k == len(w.order)-1 {
				st = next
				break
			}
			if err := w.sim.SetState(st); err != nil {
				return calls, err
			}
		}
	}
	return calls, nil
}
