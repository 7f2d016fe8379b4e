package ground

import "slices"

// ruleSet collects distinct ground rules in flat arrays.
type ruleSet struct {
	heads   []AtomID
	off     []int32 // rule i's literals are lits[off[i]:off[i+1]], positives first
	npos    []int32
	lits    []int32
	byHash  map[uint64][]int32
	scratch []int32
}

func (s *ruleSet) init() {
	s.byHash = map[uint64][]int32{}
	s.off = []int32{0}
}

// add records head :- lits (the first nPos positive, the rest negated) unless
// it is already known or can never fire; lits is reordered. It reports
// whether the rule is new.
func (s *ruleSet) add(head int32, lits []int32, nPos int) bool {
	pos, neg := lits[:nPos], lits[nPos:]
	slices.Sort(pos)
	slices.Sort(neg)
	pos, neg = slices.Compact(pos), slices.Compact(neg)
	for _, a := range neg {
		if _, found := slices.BinarySearch(pos, a); found {
			return false // p and not p: never fires
		}
	}
	h := uint64(head)*0x9e3779b97f4a7c15 + uint64(len(pos))
	for _, a := range pos {
		h = (h ^ uint64(a)) * 0xbf58476d1ce4e5b9
	}
	h ^= 0x5555
	for _, a := range neg {
		h = (h ^ uint64(a)) * 0xbf58476d1ce4e5b9
	}
	for _, i := range s.byHash[h] {
		if s.same(i, head, pos, neg) {
			return false
		}
	}
	s.byHash[h] = append(s.byHash[h], int32(len(s.heads)))
	s.heads = append(s.heads, AtomID(head))
	s.npos = append(s.npos, int32(len(pos)))
	s.lits = append(s.lits, pos...)
	s.lits = append(s.lits, neg...)
	s.off = append(s.off, int32(len(s.lits)))
	return true
}

func (s *ruleSet) same(i int32, head int32, pos, neg []int32) bool {
	if s.heads[i] != AtomID(head) || int(s.npos[i]) != len(pos) {
		return false
	}
	l := s.lits[s.off[i]:s.off[i+1]]
	return len(l) == len(pos)+len(neg) && slices.Equal(l[:len(pos)], pos) && slices.Equal(l[len(pos):], neg)
}

// rules returns the collected rules; their literal slices share one array.
func (s *ruleSet) rules() []Rule {
	ids := make([]AtomID, len(s.lits))
	for i, a := range s.lits {
		ids[i] = AtomID(a)
	}
	out := make([]Rule, len(s.heads))
	for i := range out {
		lo, mid, hi := s.off[i], s.off[i]+s.npos[i], s.off[i+1]
		out[i] = Rule{Head: s.heads[i], Pos: ids[lo:mid:mid], Neg: ids[mid:hi:hi]}
	}
	return out
}
