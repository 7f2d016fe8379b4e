package logic

import (
	"encoding/binary"
	"strings"

	"gdlab/engine/gdl"
)

// Term names a ground term interned in a Store. Terms are hash-consed: two
// ground terms are equal exactly when their Terms are equal.
type Term int32

// NoTerm is returned by lookups of terms that were never interned, and marks
// an unbound variable slot in Bindings.
const NoTerm Term = -1

// TermRec is one interned ground term: a constant (Compound false, no Args)
// or a function term.
type TermRec struct {
	Sym      int32 // the constant or the function symbol, numbered by Store.Sym
	Compound bool
	Args     []Term
}

// Store interns symbols and ground terms and prints them canonically. It
// is not safe for concurrent use, except String after FillText as long as
// nothing is interned.
type Store struct {
	symIndex map[string]int32
	syms     []string
	symHash  []uint64 // FNV-1a of each symbol's name
	index    map[string]Term
	terms    []TermRec
	hashes   []uint64 // of each term's structure, apart from terms so that matching reads less memory
	text     []string // canonical text, filled lazily
	key      []byte   // scratch for building index keys
}

// NewStore returns an empty store.
func NewStore() *Store {
	return &Store{symIndex: map[string]int32{}, index: map[string]Term{}}
}

// Sym returns the number of a symbol, adding it if new.
func (s *Store) Sym(name string) int32 {
	if id, ok := s.symIndex[name]; ok {
		return id
	}
	id := int32(len(s.syms))
	s.syms = append(s.syms, name)
	s.symHash = append(s.symHash, stringHash(name))
	s.symIndex[name] = id
	return id
}

// Len returns how many terms are interned: Terms run from 0 to Len()-1.
func (s *Store) Len() int { return len(s.terms) }

// Rec returns the structure of an interned term. The record must not be
// modified.
func (s *Store) Rec(id Term) *TermRec { return &s.terms[id] }

// makeKey encodes a term's identity into the scratch key.
func (s *Store) makeKey(sym int32, compound bool, args []Term) []byte {
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

// Lookup returns the Term of a term if it was interned, else NoTerm.
func (s *Store) Lookup(sym int32, compound bool, args []Term) Term {
	if id, ok := s.index[string(s.makeKey(sym, compound, args))]; ok {
		return id
	}
	return NoTerm
}

// Intern returns the Term of a term, adding it if new. args is copied.
func (s *Store) Intern(sym int32, compound bool, args []Term) Term {
	k := s.makeKey(sym, compound, args)
	if id, ok := s.index[string(k)]; ok {
		return id
	}
	id := Term(len(s.terms))
	h := s.symHash[sym]
	if compound {
		h = mix(h ^ 0x5bd1e995)
		for _, a := range args {
			h = mix(h ^ s.hashes[a])
		}
	}
	s.terms = append(s.terms, TermRec{Sym: sym, Compound: compound, Args: append([]Term(nil), args...)})
	s.hashes = append(s.hashes, h)
	s.index[string(k)] = id
	return id
}

// Constant interns a constant symbol.
func (s *Store) Constant(name string) Term { return s.Intern(s.Sym(name), false, nil) }

// FromAST interns a ground AST term; it reports false if t has a variable.
func (s *Store) FromAST(t gdl.Term) (Term, bool) {
	switch t := t.(type) {
	case *gdl.Const:
		return s.Constant(t.Name), true
	case *gdl.Func:
		args := make([]Term, len(t.Args))
		for i, a := range t.Args {
			id, ok := s.FromAST(a)
			if !ok {
				return NoTerm, false
			}
			args[i] = id
		}
		return s.Intern(s.Sym(t.Name), true, args), true
	}
	return NoTerm, false
}

// Hash returns a hash of a term that depends only on its structure, not on
// the order in which terms were interned, so that two stores holding the same
// terms hash them alike. It is well mixed: sums of hashes make good set
// hashes.
func (s *Store) Hash(id Term) uint64 { return mix(s.hashes[id]) }

// String returns the canonical KIF text of a term, as the shared traces
// print it: a constant as itself, a function term as "(f a b)".
func (s *Store) String(id Term) string {
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

// FillText computes the text of every term, so that String only reads
// until the next term is interned: a reasoner that hands out an immutable
// view of its terms calls it once.
func (s *Store) FillText() {
	for i := range s.terms {
		s.String(Term(i))
	}
}

func (s *Store) write(b *strings.Builder, id Term) {
	t := &s.terms[id]
	if !t.Compound {
		b.WriteString(s.syms[t.Sym])
		return
	}
	b.WriteByte('(')
	b.WriteString(s.syms[t.Sym])
	for _, a := range t.Args {
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
