package local

// ttEntry remembers a failed attacker node: the attacker found no win
// within r moves there. Only exact r matches are used, because the region
// rules do not make failure monotone in r.
type ttEntry struct {
	key uint64
	r   int32
}

// ttKey mixes the state's hash with the anchor and the attacker, which
// decide the candidate moves.
func ttKey(h uint64, a anchor, att int) uint64 {
	x := uint64(a.role)<<32 | uint64(uint32(a.move))
	x = (x ^ uint64(att)<<48) * 0x9e3779b97f4a7c15
	return h ^ x ^ x>>29
}

func (s *Searcher) probe(key uint64, r int) bool {
	if len(s.tt) == 0 {
		return false
	}
	e := s.tt[key&uint64(len(s.tt)-1)]
	return e.key == key && int(e.r) == r
}

// store records a failure unless a limit cut the search short, in which
// case the failure is not proved.
func (s *Searcher) store(key uint64, r int) {
	if len(s.tt) == 0 || s.stop != "" {
		return
	}
	s.tt[key&uint64(len(s.tt)-1)] = ttEntry{key: key, r: int32(r)}
}
