package ground

import (
	"strconv"
	"strings"

	"gdlab/engine/logic"
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
	pat     logic.Pattern
}

// missing stands for a part a tuple does not have (its term is a constant
// where the key expects a function term, or has too few arguments).
const missing = uint64(0xdeadbeefcafe)

// keyOf returns the key of a literal with the given arguments when the
// variables in bound are known, and whether every argument is bound.
func (pl planner) keyOf(args []logic.Pattern, bound map[int]bool) (*keySpec, bool) {
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
func (k *keySpec) add(path []int, a logic.Pattern, bound map[int]bool) bool {
	if a.GroundUnder(bound) {
		k.parts = append(k.parts, keyPart{path: path, pat: a})
		return true
	}
	if a.Kind != logic.PatFunc {
		return false
	}
	k.parts = append(k.parts, keyPart{path: path, functor: true, sym: a.Sym, arity: len(a.Args)})
	for i, sub := range a.Args {
		k.add(append(append([]int(nil), path...), i), sub, bound)
	}
	return false
}

// tupleHash hashes the parts of a stored tuple that the key names.
func (k *keySpec) tupleHash(terms *logic.Store, tuple []Term) uint64 {
	h := uint64(0x9e3779b97f4a7c15)
	for i := range k.parts {
		h = mix(h, k.parts[i].value(terms, tuple))
	}
	return h
}

func (p *keyPart) value(terms *logic.Store, tuple []Term) uint64 {
	t := tuple[p.path[0]]
	for _, i := range p.path[1:] {
		rec := terms.Rec(t)
		if !rec.Compound || i >= len(rec.Args) {
			return missing
		}
		t = rec.Args[i]
	}
	if !p.functor {
		return uint64(uint32(t))
	}
	rec := terms.Rec(t)
	if !rec.Compound {
		return missing
	}
	return uint64(rec.Sym)<<20 ^ uint64(len(rec.Args)) ^ 1<<63
}

func mix(h, v uint64) uint64 {
	h = (h ^ v) * 0xbf58476d1ce4e5b9
	return h ^ h>>29
}

// keyHash hashes the known parts of a literal's arguments under the current
// bindings, as tupleHash hashes a matching tuple; ok is false when a bound
// subterm was never interned, so that nothing can match.
func (e *evaluator) keyHash(args []logic.Pattern, k *keySpec) (uint64, bool) {
	h := uint64(0x9e3779b97f4a7c15)
	for i := range k.parts {
		p := &k.parts[i]
		if p.functor {
			h = mix(h, uint64(p.sym)<<20^uint64(p.arity)^1<<63)
			continue
		}
		id, ok := e.Build(p.pat, false)
		if !ok {
			return 0, false
		}
		h = mix(h, uint64(uint32(id)))
	}
	return h, true
}
