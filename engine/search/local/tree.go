package local

import (
	"context"
	"errors"
	"time"

	"gdlab/engine/analysis/distance"
	"gdlab/engine/game"
	"gdlab/engine/search"
)

// root runs the iterative deepening from the simulator's current state:
// one deepening for the mover's wins and one for the opponent's wins
// after each of the mover's moves (its losses), scheduled by deepenNext.
func (s *Searcher) root(seedRole int, seed game.Move) (*Result, error) {
	mover, opp, err := s.sides()
	if err != nil {
		return nil, err
	}
	res := &Result{Role: mover}
	moves, err := s.sim.Legal(mover, nil)
	if err != nil {
		return nil, err
	}
	for _, m := range moves {
		res.Moves = append(res.Moves, MoveResult{Move: m, Text: s.net.MoveText(mover, m)})
	}
	if s.terminal() {
		return res, nil
	}
	s.path = append(s.path[:0], anchor{seedRole, seed})
	s.near = s.near[:0]
	s.plies[0].bits = s.sim.Save(s.plies[0].bits)
	var runs [2]deepening // wins, losses
	for !s.halted() {
		k := s.deepenNext(&runs)
		if k < 0 {
			break
		}
		n, before := runs[k].depth+1, s.nodes
		if k == 0 {
			s.rootWins(res, mover, opp, n)
		} else {
			s.rootLosses(res, mover, opp, n)
		}
		if s.stop != search.StopNone {
			break
		}
		runs[k] = deepening{depth: n, cost: s.nodes - before, done: true}
		s.record(res, runs)
		if resolved(res) {
			break
		}
	}
	return res, nil
}

// deepening is the state of one role's iterative deepening.
type deepening struct {
	depth int   // the last N completed
	cost  int64 // the states that iteration generated
	done  bool  // whether an iteration has run
}

// deepenNext chooses which deepening runs its next iteration: 0 for the
// mover's wins, 1 for its losses, -1 when both have reached MaxDepth. A
// deepening that has not started goes first; then the one whose last
// iteration cost fewer states. Each iteration costs several times the
// one before (about ten times in breakthrough) at a similar rate for both,
// so this keeps the two within one iteration's cost of each other rather
// than in step: the loss searches, one after each of the mover's moves,
// cost twenty to sixty times the win searches, and in step they held the
// win search to their depth.
func (s *Searcher) deepenNext(runs *[2]deepening) int {
	k := -1
	for i := range runs {
		if runs[i].depth >= s.opt.MaxDepth {
			continue
		}
		if k < 0 || !runs[i].done && runs[k].done || runs[i].done == runs[k].done && runs[i].cost < runs[k].cost {
			k = i
		}
	}
	return k
}

// record notes a completed iteration in res: the depths reached, the time
// and states when both roles completed a new N, and the Progress call.
func (s *Searcher) record(res *Result, runs [2]deepening) {
	res.Stats.WinDepth, res.Stats.LossDepth = runs[0].depth, runs[1].depth
	if n := min(runs[0].depth, runs[1].depth); n > res.Stats.Depth {
		res.Stats.Depth = n
		res.Stats.DepthTime = append(res.Stats.DepthTime, time.Since(s.start))
		res.Stats.DepthNodes = append(res.Stats.DepthNodes, s.nodes)
	}
	if s.opt.Progress != nil {
		s.fillStats(res)
		if out, err := s.outward(res); err == nil {
			s.opt.Progress(out)
		}
	}
}

// sides returns the role to move and its opponent: a two-role game where
// exactly one role has a legal move with effects.
func (s *Searcher) sides() (int, int, error) {
	if s.roles != 2 {
		return 0, 0, ErrNotAlternating
	}
	mover := -1
	for r := 0; r < 2; r++ {
		moves, err := s.sim.Legal(r, nil)
		if err != nil {
			return 0, 0, err
		}
		for _, m := range moves {
			if s.d.Active(r, m) {
				if mover >= 0 && mover != r {
					return 0, 0, ErrNotAlternating
				}
				mover = r
			}
		}
	}
	if mover < 0 && !s.terminal() {
		return 0, 0, ErrNotAlternating
	}
	return max(mover, 0), 1 - max(mover, 0), nil
}

func resolved(res *Result) bool {
	for _, m := range res.Moves {
		if m.Status == Unknown {
			return false
		}
	}
	return true
}

// rootWins looks for the mover's wins within n of its moves.
func (s *Searcher) rootWins(res *Result, mover, opp, n int) {
	s.iter = n
	p := &s.plies[0]
	noop, ok := s.single(opp)
	if !ok {
		return
	}
	s.seedNear(opp)
	for i := range res.Moves {
		mr := &res.Moves[i]
		if mr.Status != Unknown || !s.allowed(mover, mr.Move, n, s.path[0], p.bits) || s.halted() {
			continue
		}
		if s.tryAttack(0, mover, opp, mr.Move, noop, n) {
			mr.Status, mr.Depth = Win, n
		}
		s.sim.Restore(p.bits)
	}
}

// rootLosses looks, after each of the mover's unresolved moves, for the
// opponent's wins within n of its moves; the moves outside the region
// share one search, after the virtual tenuki.
func (s *Searcher) rootLosses(res *Result, mover, opp, n int) {
	s.iter = n
	p := &s.plies[0]
	noop, ok := s.single(opp)
	if !ok {
		return
	}
	s.seedNear(mover)
	tenuki := -1
	for i := range res.Moves {
		mr := &res.Moves[i]
		if mr.Status != Unknown || s.halted() {
			continue
		}
		if !s.defenceLocal(mover, mr.Move, n) {
			if tenuki < 0 {
				tenuki = i
			}
			continue
		}
		if s.replyLoses(mover, opp, mr.Move, noop, n) {
			mr.Status, mr.Depth = Loss, n
		}
		s.sim.Restore(p.bits)
	}
	if tenuki < 0 || s.opt.NoTenuki || s.halted() {
		return
	}
	lost := s.replyLoses(mover, opp, res.Moves[tenuki].Move, noop, n)
	s.sim.Restore(p.bits)
	if !lost || s.stop != search.StopNone {
		return
	}
	res.TenukiLoss = n
	for i := range res.Moves {
		mr := &res.Moves[i]
		if mr.Status == Unknown && !s.defenceLocal(mover, mr.Move, n) {
			mr.Status, mr.Depth, mr.Tenuki = Loss, n, true
		}
	}
}

// replyLoses plays the mover's move m (the opponent playing noop) and
// reports whether the opponent then wins within n of its moves.
func (s *Searcher) replyLoses(mover, opp int, m, noop game.Move, n int) bool {
	s.play(mover, m, opp, noop)
	if s.terminal() {
		return !s.wins(mover)
	}
	return s.attack(1, opp, mover, n)
}

// tryAttack plays the attacker's move m and reports whether it wins
// within r of the attacker's moves (m included). The caller restores.
func (s *Searcher) tryAttack(pl, att, def int, m, noop game.Move, r int) bool {
	s.play(att, m, def, noop)
	if s.terminal() {
		return s.wins(att)
	}
	if r <= 1 {
		return false
	}
	s.push(anchor{att, m}, def)
	won := s.defend(pl+1, att, def, r-1)
	s.path, s.near = s.path[:len(s.path)-1], s.near[:len(s.near)-1]
	return won
}

// attack reports whether the attacker, to move, wins within r of its
// moves.
func (s *Searcher) attack(pl, att, def, r int) bool {
	if s.halted() {
		return false
	}
	a := s.path[len(s.path)-1]
	p := &s.plies[pl]
	p.bits = s.sim.Save(p.bits)
	key, tag := ttKey(s.sim.Hash(), att), s.anchorTag(a, len(s.path) == 1)
	failed, won, other := s.probe(key, tag, r)
	if failed || won {
		s.hits++
		if won {
			s.whits++
		}
		return won
	}
	noop, ok := s.single(def)
	if !ok {
		return false
	}
	cands := s.candidates(p, att, r, a)
	if other != 0 && s.covered(cands, att, r, other) {
		s.hits++
		return false
	}
	for _, m := range cands {
		if s.halted() {
			return false
		}
		won := s.tryAttack(pl, att, def, m, noop, r)
		s.sim.Restore(p.bits)
		if won {
			if r == 1 {
				s.won = m
			}
			s.storeWin(key, r)
			return true
		}
	}
	s.storeFail(key, tag, r)
	return false
}

// defend reports whether every defence fails: the defender is to move
// and the attacker has r moves left after the reply. The first reply that
// avoids the win refutes the node, so the likeliest refutations go first
// (see orderDefences); the virtual tenuki, the least likely, goes last.
func (s *Searcher) defend(pl, att, def, r int) bool {
	if s.halted() {
		return false
	}
	noop, ok := s.single(att)
	if !ok {
		return false
	}
	p := &s.plies[pl]
	p.bits = s.sim.Save(p.bits)
	p.moves = s.legal(def, p.moves)
	key := ttKey(s.sim.Hash(), def)
	s.orderDefences(p, def, r, s.refutation(key))
	threat := game.NoMove
	for i := 0; i < len(p.cand)+len(p.keys); i++ {
		m := p.defence(i)
		if s.halted() {
			return false
		}
		if s.misses(def, m, att, threat) {
			continue
		}
		s.won = game.NoMove
		if s.refutes(pl, att, def, m, noop, r) {
			p.killer = m
			s.storeRefutation(key, m)
			s.hist[def][m] += 1 << min(r, 30)
			return false
		}
		if r == 1 && s.won != game.NoMove && s.d.Between(def, m, att, s.won) >= 2 {
			threat = s.won
		}
	}
	if !s.opt.NoTenuki {
		for _, m := range p.far {
			if s.halted() {
				return false
			}
			if s.misses(def, m, att, threat) {
				break
			}
			ok := true
			if s.tenukiTried(pl, att, def, m, noop, r, &ok) || !ok {
				if !ok {
					return false
				}
				break
			}
		}
	}
	return s.stop == search.StopNone
}

// misses reports whether the defender's move m cannot stop threat, the
// attacker's immediate win found after another defence that did not
// touch it (game.NoMove for none): m does not interact with the winning
// move (distance 2 or more: it changes neither its legality nor its
// effects) and cannot win at once itself. The winning move then stays
// legal and winning, as it did after the other defence, and m is not
// tried. This is the locality assumption of the whole search applied to
// the last ply; on the six depth-test positions searched to N=6, none of
// the 580,000 defences it skips refuted when tried, and half to three
// quarters of the defences tried against immediate threats are skipped.
func (s *Searcher) misses(def int, m game.Move, att int, threat game.Move) bool {
	return threat != game.NoMove && !s.exhaustive && s.d.GoalDistance(def, m) != 0 && s.d.Between(def, m, att, threat) >= 2
}

// orderDefences orders the defender's local moves, the likeliest
// refutations first (see defence), and puts its other moves in p.far.
// First comes the move that last refuted in this state (hint, from the
// table: it carries the refutations of one iteration to the next), then
// the killer (the last refutation at this ply), then the rest by distance
// to the attacker's last move, nearest first, and by history (how often
// and how deep each move refuted) among equals: a defence must interfere
// with the threat that move made, and a capture of the moved piece is
// nearest. On the six depth-test positions searched to N=6, distance
// alone cut the states 3-6x in breakthrough and 1.0-2.0x in
// breakthroughSmall against move order; the hint and the history a
// further 1.2-1.45x (to N=7 the history alone is worth ±5%, either way).
func (s *Searcher) orderDefences(p *ply, def, r int, hint game.Move) {
	a := s.path[len(s.path)-1]
	last := s.d.Row(a.role, a.move, def)
	hist := s.hist[def]
	p.cand, p.far, p.keys = p.cand[:0], p.far[:0], p.keys[:0]
	killer, hinted := false, false
	for _, m := range p.moves {
		switch {
		case !s.defenceLocal(def, m, r):
			p.far = append(p.far, m)
		case m == hint:
			hinted = true
		case m == p.killer:
			killer = true
		default:
			k := uint64(distance.Far)
			if last != nil {
				k = uint64(last[m])
			}
			const most = 1<<36 - 1
			p.keys = append(p.keys, k<<52|(most-min(hist[m], most))<<16|uint64(m))
		}
	}
	if hinted {
		p.cand = append(p.cand, hint)
	}
	if killer {
		p.cand = append(p.cand, p.killer)
	}
}

// defence returns the i-th local defence in order: the hint and the
// killer (p.cand), then the rest by key (p.keys), selected as they are
// needed rather than sorted, since the first defence tried usually
// refutes (sorting them all took 5% of the time).
func (p *ply) defence(i int) game.Move {
	if i < len(p.cand) {
		return p.cand[i]
	}
	j := i - len(p.cand)
	best := j
	for k := j + 1; k < len(p.keys); k++ {
		if p.keys[k] < p.keys[best] {
			best = k
		}
	}
	p.keys[j], p.keys[best] = p.keys[best], p.keys[j]
	return game.Move(p.keys[j] & 0xffff)
}

// sortKeys sorts ascending by insertion: the lists are short.
func sortKeys(ks []uint64) {
	for i := 1; i < len(ks); i++ {
		k, j := ks[i], i
		for ; j > 0 && ks[j-1] > k; j-- {
			ks[j] = ks[j-1]
		}
		ks[j] = k
	}
}

// tenukiTried tries the non-local move m as the virtual tenuki unless one
// was already tried (done), setting *ok to false when it refutes. It
// reports whether the tenuki has now been tried: a move that ends the game
// with the attacker winning does not represent playing elsewhere.
func (s *Searcher) tenukiTried(pl, att, def int, m, noop game.Move, r int, ok *bool) bool {
	p := &s.plies[pl]
	s.play(def, m, att, noop)
	if s.terminal() {
		won := s.wins(att)
		s.sim.Restore(p.bits)
		*ok = won
		return !won
	}
	won := s.attack(pl+1, att, def, r)
	s.sim.Restore(p.bits)
	*ok = won
	return true
}

// refutes plays the defender's move m and reports whether it avoids the
// attacker's win.
func (s *Searcher) refutes(pl, att, def int, m, noop game.Move, r int) bool {
	p := &s.plies[pl]
	s.play(def, m, att, noop)
	var won bool
	if s.terminal() {
		won = s.wins(att)
	} else {
		won = s.attack(pl+1, att, def, r)
	}
	s.sim.Restore(p.bits)
	return !won
}

// single returns role's only legal move (the waiting role's noop).
func (s *Searcher) single(role int) (game.Move, bool) {
	s.one = s.legal(role, s.one)
	if len(s.one) != 1 {
		return game.NoMove, false
	}
	return s.one[0], true
}

// play makes the joint move of the mover's m and the other's noop.
func (s *Searcher) play(mover int, m game.Move, other int, noop game.Move) {
	s.joint[mover], s.joint[other] = m, noop
	s.check(s.sim.Play(s.joint))
	s.nodes++
}

// wins reports whether role has its winning goal in the current state.
func (s *Searcher) wins(role int) bool {
	var err error
	s.goals, err = s.sim.Goals(s.goals)
	s.check(err)
	return err == nil && s.goals[role] == s.win[role]
}

// terminal reports whether the current state is terminal.
func (s *Searcher) terminal() bool {
	t, err := s.sim.Terminal()
	s.check(err)
	return t
}

// legal appends role's legal moves in the current state to dst[:0].
func (s *Searcher) legal(role int, dst []game.Move) []game.Move {
	dst, err := s.sim.Legal(role, dst)
	s.check(err)
	return dst
}

// check keeps the simulator's first error, which halts the search. The
// network's simulator fails only on moves that are not its own, which the
// search never plays.
func (s *Searcher) check(err error) {
	if err != nil && s.err == nil {
		s.err = err
	}
}

// halted reports whether a limit has ended the search, checking the
// context every 1024 states.
func (s *Searcher) halted() bool {
	if s.stop != search.StopNone || s.err != nil {
		return true
	}
	if s.limit > 0 && s.nodes >= s.limit {
		s.stop = search.StopNodes
	} else if s.nodes >= s.nextCheck {
		// Every 1,024 states at most: the count moves on by several
		// between two calls, so a test of its exact value could miss the
		// context's end for a long time.
		s.nextCheck = s.nodes + 1024
		if err := s.ctx.Err(); errors.Is(err, context.DeadlineExceeded) {
			s.stop = search.StopTime
		} else if err != nil {
			s.stop = search.StopCancelled
		}
	}
	return s.stop != search.StopNone
}
