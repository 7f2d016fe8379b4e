package prover

import (
	"encoding/binary"
	"strings"

	"gdlab/engine/gdl"
)

// termID names a ground term in a termStore. Terms are hash-consed, so two
// ground terms are equal exactly when their IDs are equal.
type termID int32

// noTerm is returned by lookups of terms that were never interned.
const noTerm termID = -1

// termRec is one interned ground term: a constant (no args, not compound) or
// a function term.
type termRec struct {
	sym      int32
	compound bool
	args     []termID
	hash     uint64 // of the canonical structure, independent of interning order
}

// termStore interns symbols and ground terms.
type termStore struct {
	symIndex map[string]int32
	syms     []string
	index    map[string]termID
	terms    []termRec
	text     []string // canonical text, filled lazily
	key      []byte   // scratch for building index keys
}

func newTermStore() *termStore {
	return &termStore{symIndex: map[string]int32{}, index: map[string]termID{}}
}

func (s *termStore) sym(name string) int32 {
	if id, ok := s.symIndex[name]; ok {
		return id
	}
	id := int32(len(s.syms))
	s.syms = append(s.syms, name)
	s.symIndex[name] = id
	return id
}

// makeKey encodes a term's identity into the scratch key.
func (s *termStore) makeKey(sym int32, compound bool, args []termID) []byte {
	k := binary.LittleEndian.AppendUint32(s.key[:0], uint32(sym))
	if compound {
		k = append(k, 1)
	}
	for _, a := range args {
		k = binary.LittleEndian.AppendUint32(k, uint32(a))
	}
	s.key = k
	return k
}

// lookup returns the ID of a term if it was interned, else noTerm.
func (s *termStore) lookup(sym int32, compound bool, args []termID) termID {
	if id, ok := s.index[string(s.makeKey(sym, compound, args))]; ok {
		return id
	}
	return noTerm
}

// intern returns the ID of a term, adding it if new. args is copied.
func (s *termStore) intern(sym int32, compound bool, args []termID) termID {
	k := s.makeKey(sym, compound, args)
	if id, ok := s.index[string(k)]; ok {
		return id
	}
	id := termID(len(s.terms))
	h := stringHash(s.syms[sym])
	if compound {
		h = mix(h ^ 0x5bd1e995)
		for _, a := range args {
			h = mix(h ^ s.terms[a].hash)
		}
	}
	s.terms = append(s.terms, termRec{sym: sym, compound: compound, args: append([]termID(nil), args...), hash: h})
	s.index[string(k)] = id
	return id
}

// constant interns a constant symbol.
func (s *termStore) constant(name string) termID { return s.intern(s.sym(name), false, nil) }

// fromAST interns a ground AST term; it reports false if t has a variable.
func (s *termStore) fromAST(t gdl.Term) (termID, bool) {
	switch t := t.(type) {
	case *gdl.Const:
		return s.constant(t.Name), true
	case *gdl.Func:
		args := make([]termID, len(t.Args))
		for i, a := range t.Args {
			id, ok := s.fromAST(a)
			if !ok {
				return noTerm, false
			}
			args[i] = id
		}
		return s.intern(s.sym(t.Name), true, args), true
	}
	return noTerm, false
}

// String returns the canonical KIF text of a term, as the shared traces print it.
func (s *termStore) String(id termID) string {
	for len(s.text) < len(s.terms) {
		s.text = append(s.text, "")
	}
	if t := s.text[id]; t != "" {
		return t
	}
	var b strings.Builder
	s.write(&b, id)
	s.text[id] = b.String()
	return s.text[id]
}

func (s *termStore) write(b *strings.Builder, id termID) {
	t := &s.terms[id]
	if !t.compound {
		b.WriteString(s.syms[t.sym])
		return
	}
	b.WriteByte('(')
	b.WriteString(s.syms[t.sym])
	for _, a := range t.args {
		b.WriteByte(' ')
		s.write(b, a)
	}
	b.WriteByte(')')
}

// stringHash is FNV-1a over a symbol's name.
func stringHash(name string) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(name); i++ {
		h ^= uint64(name[i])
		h *= 1099511628211
	}
	return h
}

// mix is a 64-bit finaliser (splitmix64's) that spreads every input bit.
func mix(h uint64) uint64 {
	h ^= h >> 30
	h *= 0xBF58476D1CE4E5B9
	h ^= h >> 27
	h *= 0x94D049BB133111EB
	return h ^ h>>31
}
