package ground

import (
	"strconv"
	"strings"
)

// keySpec says which parts of a literal's arguments are known when it is
// joined: bound subterms, and the function symbols of partly bound function
// terms. Tables index their tuples by these parts, so a literal such as
// (true (connected ?k ?m ?n)) with ?k bound only meets the connected facts
// of that ?k.
type keySpec struct {
	id    string    // canonical form, naming the table index
	parts []keyPart // in argument order
}

// keyPart is one known part: the subterm at path, or when functor is set
// the function symbol and arity of the subterm at path.
type keyPart struct {
	path    []int
	functor bool
	sym     int32 // functor
	arity   int   // functor
	pat     pattern
}

// missing stands for a part a tuple does not have (its term is a constant
// where the key expects a function term, or has too few arguments).
const missing = uint64(0xdeadbeefcafe)

// keyOf returns the key of a literal with the given arguments when the
// variables in bound are known, and whether every argument is bound.
func (pl planner) keyOf(args []pattern, bound map[int]bool) (*keySpec, bool) {
	k := &keySpec{}
	full := true
	for i, a := range args {
		full = k.add([]int{i}, a, bound) && full
	}
	if len(k.parts) == 0 {
		return nil, full
	}
	var b strings.Builder
	for _, p := range k.parts {
		for _, x := range p.path {
			b.WriteString(strconv.Itoa(x))
			b.WriteByte('.')
		}
		if p.functor {
			b.WriteString("f" + strconv.Itoa(int(p.sym)) + "/" + strconv.Itoa(p.arity))
		}
		b.WriteByte(';')
	}
	k.id = b.String()
	return k, full
}

// add appends the known parts of pattern a at path and reports whether a is
// entirely bound.
func (k *keySpec) add(path []int, a pattern, bound map[int]bool) bool {
	if groundUnder(a, bound) {
		k.parts = append(k.parts, keyPart{path: path, pat: a})
		return true
	}
	if a.kind != patFunc {
		return false
	}
	k.parts = append(k.parts, keyPart{path: path, functor: true, sym: a.sym, arity: len(a.args)})
	for i, sub := range a.args {
		k.add(append(append([]int(nil), path...), i), sub, bound)
	}
	return false
}

// tupleHash hashes the parts of a stored tuple that the key names.
func (k *keySpec) tupleHash(terms *termStore, tuple []Term) uint64 {
	h := uint64(0x9e3779b97f4a7c15)
	for i := range k.parts {
		h = mix(h, k.parts[i].value(terms, tuple))
	}
	return h
}

func (p *keyPart) value(terms *termStore, tuple []Term) uint64 {
	t := tuple[p.path[0]]
	for _, i := range p.path[1:] {
		rec := &terms.terms[t]
		if !rec.compound || i >= len(rec.args) {
			return missing
		}
		t = rec.args[i]
	}
	if !p.functor {
		return uint64(uint32(t))
	}
	rec := &terms.terms[t]
	if !rec.compound {
		return missing
	}
	return uint64(rec.sym)<<20 ^ uint64(len(rec.args)) ^ 1<<63
}

func mix(h, v uint64) uint64 {
	h = (h ^ v) * 0xbf58476d1ce4e5b9
	return h ^ h>>29
}

// keyHash hashes the known parts of a literal's arguments under the current
// bindings, as tupleHash hashes a matching tuple; ok is false when a bound
// subterm was never interned, so that nothing can match.
func (e *evaluator) keyHash(args []pattern, k *keySpec) (uint64, bool) {
	h := uint64(0x9e3779b97f4a7c15)
	for i := range k.parts {
		p := &k.parts[i]
		if p.functor {
			h = mix(h, uint64(p.sym)<<20^uint64(p.arity)^1<<63)
			continue
		}
		id, ok := e.build(p.pat, false)
		if !ok {
			return 0, false
		}
		h = mix(h, uint64(uint32(id)))
	}
	return h, true
}
