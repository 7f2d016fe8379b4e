package ground

import (
	"encoding/binary"
	"strings"

	"gdlab/engine/gdl"
)

// Term names an interned ground term of a Program. Terms are hash-consed:
// two ground terms are equal exactly when their Terms are equal.
type Term int32

// noTerm is returned by lookups of terms that were never interned.
const noTerm Term = -1

// termRec is one interned ground term: a constant or a function term.
type termRec struct {
	sym      int32
	compound bool
	args     []Term
}

// termStore interns symbols and ground terms and prints them canonically.
type termStore struct {
	symIndex map[string]int32
	syms     []string
	index    map[string]Term
	terms    []termRec
	text     []string // canonical text, filled lazily
	key      []byte   // scratch for building index keys
}

func newTermStore() *termStore {
	return &termStore{symIndex: map[string]int32{}, index: map[string]Term{}}
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
func (s *termStore) makeKey(sym int32, compound bool, args []Term) []byte {
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

// lookup returns the Term of a term if it was interned, else noTerm.
func (s *termStore) lookup(sym int32, compound bool, args []Term) Term {
	if id, ok := s.index[string(s.makeKey(sym, compound, args))]; ok {
		return id
	}
	return noTerm
}

// intern returns the Term of a term, adding it if new. args is copied.
func (s *termStore) intern(sym int32, compound bool, args []Term) Term {
	k := s.makeKey(sym, compound, args)
	if id, ok := s.index[string(k)]; ok {
		return id
	}
	id := Term(len(s.terms))
	s.terms = append(s.terms, termRec{sym: sym, compound: compound, args: append([]Term(nil), args...)})
	s.index[string(k)] = id
	return id
}

// constant interns a constant symbol.
func (s *termStore) constant(name string) Term { return s.intern(s.sym(name), false, nil) }

// fromAST interns a ground AST term; it reports false if t has a variable.
func (s *termStore) fromAST(t gdl.Term) (Term, bool) {
	switch t := t.(type) {
	case *gdl.Const:
		return s.constant(t.Name), true
	case *gdl.Func:
		args := make([]Term, len(t.Args))
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

// lookupAST finds a ground AST term without interning it.
func (s *termStore) lookupAST(t gdl.Term) Term {
	switch t := t.(type) {
	case *gdl.Const:
		sym, ok := s.symIndex[t.Name]
		if !ok {
			return noTerm
		}
		return s.lookup(sym, false, nil)
	case *gdl.Func:
		sym, ok := s.symIndex[t.Name]
		if !ok {
			return noTerm
		}
		args := make([]Term, len(t.Args))
		for i, a := range t.Args {
			if args[i] = s.lookupAST(a); args[i] == noTerm {
				return noTerm
			}
		}
		return s.lookup(sym, true, args)
	}
	return noTerm
}

// String returns the canonical KIF text of a term, as the shared traces print it.
func (s *termStore) String(id Term) string {
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

func (s *termStore) write(b *strings.Builder, id Term) {
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
