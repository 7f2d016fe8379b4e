package ground

import "gdlab/engine/logic"

// table holds the facts of one relation: tuples stored flat, a hash set for
// membership and, built on first use, a hash index per set of bound columns.
type table struct {
	arity int
	n     int // number of tuples
	data  []Term
	set   hashIndex
	index map[string]*hashIndex // by keySpec.ID
	terms *logic.Store
}

// hashIndex maps the hash of some columns of a tuple to the tuples with that
// hash, as chains threaded through next. Chains may hold tuples of other
// hashes; callers match the tuples they get.
type hashIndex struct {
	key   *keySpec // the parts hashed; nil for the membership set (whole tuples)
	heads []int32
	next  []int32
	shift uint
	keys  int // non-empty buckets: about the number of distinct keys
}

func newTable(arity int, terms *logic.Store) *table {
	t := &table{arity: arity, index: map[string]*hashIndex{}, terms: terms}
	t.set.init(nil, 16)
	return t
}

func (t *table) tuple(i int) []Term { return t.data[i*t.arity : (i+1)*t.arity] }

// hashTerms hashes a whole tuple.
func hashTerms(tuple []Term) uint64 {
	h := uint64(0x9e3779b97f4a7c15)
	for _, a := range tuple {
		h = mix(h, uint64(uint32(a)))
	}
	return h
}

// hash hashes the parts of tuple that x indexes.
func (x *hashIndex) hash(t *table, tuple []Term) uint64 {
	if x.key == nil {
		return hashTerms(tuple)
	}
	return x.key.tupleHash(t.terms, tuple)
}

func (x *hashIndex) init(key *keySpec, size int) {
	x.key = key
	x.shift = 64
	n := 1
	for n < size*2 {
		n <<= 1
		x.shift--
	}
	if n == 1 {
		n, x.shift = 2, 63
	}
	x.heads = make([]int32, n)
	x.keys = 0
	for i := range x.heads {
		x.heads[i] = -1
	}
}

func (x *hashIndex) bucket(h uint64) int { return int((h * 0x9e3779b97f4a7c15) >> x.shift) }

// insert adds tuple i with hash h.
func (x *hashIndex) insert(i int32, h uint64) {
	for int(i) >= len(x.next) {
		x.next = append(x.next, -1)
	}
	b := x.bucket(h)
	if x.heads[b] < 0 {
		x.keys++
	}
	x.next[i] = x.heads[b]
	x.heads[b] = i
}

// first returns the first tuple of h's chain, or -1.
func (x *hashIndex) first(h uint64) int32 { return x.heads[x.bucket(h)] }

// grow rebuilds the index with twice the buckets when it is half full.
func (x *hashIndex) grow(t *table, n int) {
	if n < len(x.heads)/2 {
		return
	}
	x.init(x.key, n*2)
	x.next = x.next[:0]
	for i := 0; i < n; i++ {
		x.insert(int32(i), x.hash(t, t.tuple(i)))
	}
}

// find returns the index of tuple, or -1.
func (t *table) find(tuple []Term) int32 {
	for i := t.set.first(hashTerms(tuple)); i >= 0; i = t.set.next[i] {
		if equalTerms(t.tuple(int(i)), tuple) {
			return i
		}
	}
	return -1
}

func equalTerms(a, b []Term) bool {
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// add inserts tuple and reports its index and whether it was new.
func (t *table) add(tuple []Term) (int32, bool) {
	if i := t.find(tuple); i >= 0 {
		return i, false
	}
	i := int32(t.n)
	t.data = append(t.data, tuple...)
	t.n++
	t.set.grow(t, t.n)
	if len(t.set.next) < t.n { // grow did not rebuild: insert by hand
		t.set.insert(i, hashTerms(tuple))
	}
	for _, x := range t.index {
		x.grow(t, t.n)
		if len(x.next) < t.n {
			x.insert(i, x.hash(t, tuple))
		}
	}
	return i, true
}

// lookup returns the index over the parts named by key, building it if needed.
func (t *table) lookup(key *keySpec) *hashIndex {
	if x, ok := t.index[key.id]; ok {
		return x
	}
	x := &hashIndex{}
	x.init(key, max(t.n, 8))
	for i := 0; i < t.n; i++ {
		x.insert(int32(i), x.hash(t, t.tuple(i)))
	}
	t.index[key.id] = x
	return x
}
