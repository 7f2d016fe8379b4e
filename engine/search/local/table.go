package local

import "gdlab/engine/game"

// ttEntry remembers what was proved at an attacker node, keyed by the
// state and the attacker, or at a defender node (keyed by the state and
// the defender) the move that last refuted there, tried first next time:
//
//   - a failure: no win within fail moves with the anchor tagged tag.
//     Only the same moves left count, because the region rules do not
//     make failure monotone in them; and only the same anchor, or one
//     under which every candidate here was a candidate too (so that the
//     same subtrees failed: move orders that transpose end on different
//     anchors). A failure can only take claims away.
//   - a win: a win within win moves, whatever the anchor. A forced win is
//     a fact of the position, and a win within fewer moves is one within
//     more, so any later visit with at least win moves left takes it.
//     This is what carries proofs from one iteration to the next (the
//     same node has one more move left each time) and across move orders
//     that transpose. Like every win it is a hint under the locality
//     assumption, and the tests check the claims it leads to.
type ttEntry struct {
	key  uint64
	tag  uint32
	fail uint8  // 0: none
	win  uint8  // 0: none
	move uint16 // at a defender node: the last refutation, plus one; 0: none
}

// ttKey mixes the state's hash with the attacker.
func ttKey(h uint64, att int) uint64 {
	x := (uint64(att) + 0x51) * 0xbf58476d1ce4e5b9
	return h ^ x ^ x>>31
}

// anchorTag identifies an anchor within an entry, and whether it is the
// seed (whose radius is r, not r-1). Under FixedRegion the radius is the
// iteration's depth, which the tag then carries too (bits 23–30), so that
// a failure is only read back in its own iteration.
func (s *Searcher) anchorTag(a anchor, seed bool) uint32 {
	t := uint32(a.role)<<16 | uint32(uint16(a.move+1))
	if seed {
		t |= 1 << 31
	}
	if s.opt.FixedRegion {
		t |= uint32(s.iter&0xff) << 23
	}
	return t
}

// tagAnchor inverts anchorTag (local search has two roles, which fit in
// the role's seven bits).
func tagAnchor(t uint32) (anchor, bool) {
	return anchor{int(t >> 16 & 0x7f), game.Move(int(t&0xffff) - 1)}, t>>31 != 0
}

// probe returns what the table knows of the attacker node key with r
// moves left and anchor tag: a proved failure, a proved win, or a failure
// with r under another anchor (other, its tag; 0 for none).
func (s *Searcher) probe(key uint64, tag uint32, r int) (failed, won bool, other uint32) {
	if len(s.tt) == 0 {
		return false, false, 0
	}
	e := &s.tt[key&uint64(len(s.tt)-1)]
	if e.key != key {
		return false, false, 0
	}
	failed, won = int(e.fail) == r && e.tag == tag, e.win != 0 && int(e.win) <= r
	if int(e.fail) == r && e.tag != tag {
		other = e.tag
	}
	return failed, won, other
}

// covered reports whether every candidate in cands would also be a
// candidate with r moves left under the anchor tagged other: then a
// failure there is a failure here (the same subtrees were searched).
func (s *Searcher) covered(cands []game.Move, att, r int, other uint32) bool {
	a, seed := tagAnchor(other)
	row := s.d.Row(a.role, a.move, att)
	if row == nil {
		return true
	}
	radius := s.radius(r, seed)
	for _, m := range cands {
		if int(row[m]) > radius {
			return false
		}
	}
	return true
}

// storeFail records a failure unless a limit cut the search short, in
// which case the failure is not proved. A win known for the state stays.
func (s *Searcher) storeFail(key uint64, tag uint32, r int) {
	if len(s.tt) == 0 || s.stop != "" || r > 255 {
		return
	}
	e := &s.tt[key&uint64(len(s.tt)-1)]
	if e.key != key {
		*e = ttEntry{key: key}
	}
	e.tag, e.fail = tag, uint8(r)
}

// storeWin records a win within r moves (a win is only ever returned when
// proved: a limit makes nodes fail, never win).
func (s *Searcher) storeWin(key uint64, r int) {
	if len(s.tt) == 0 || r > 255 {
		return
	}
	e := &s.tt[key&uint64(len(s.tt)-1)]
	if e.key != key {
		*e = ttEntry{key: key}
	}
	if e.win == 0 || int(e.win) > r {
		e.win = uint8(r)
	}
}

// refutation returns the defender's move that last refuted at the
// defender node key, or game.NoMove.
func (s *Searcher) refutation(key uint64) game.Move {
	if len(s.tt) == 0 {
		return game.NoMove
	}
	e := &s.tt[key&uint64(len(s.tt)-1)]
	if e.key != key || e.move == 0 {
		return game.NoMove
	}
	return game.Move(e.move - 1)
}

// storeRefutation remembers the defender's move m that refuted at key.
func (s *Searcher) storeRefutation(key uint64, m game.Move) {
	if len(s.tt) == 0 || m >= 1<<16-1 {
		return
	}
	e := &s.tt[key&uint64(len(s.tt)-1)]
	if e.key != key {
		*e = ttEntry{key: key}
	}
	e.move = uint16(m + 1)
}
