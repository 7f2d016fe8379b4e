package logic

// Bindings are the values of a rule's variable slots while its body is
// joined against ground facts, with a trail of the slots bound since a mark
// so that a failed branch can take its bindings back. The zero value with
// Terms set is ready after Reset.
type Bindings struct {
	Terms *Store
	Vals  []Term // per slot; NoTerm while unbound
	trail []int
	tup   []Term // scratch for BuildTuple
}

// Reset leaves slots unbound slots and an empty trail.
func (b *Bindings) Reset(slots int) {
	if cap(b.Vals) < slots {
		b.Vals = make([]Term, slots)
	}
	b.Vals = b.Vals[:slots]
	for i := range b.Vals {
		b.Vals[i] = NoTerm
	}
	b.trail = b.trail[:0]
}

// Bound reports whether every given slot is bound.
func (b *Bindings) Bound(slots []int) bool {
	for _, s := range slots {
		if b.Vals[s] == NoTerm {
			return false
		}
	}
	return true
}

// Build instantiates p. It returns (NoTerm, false) when p has an unbound
// variable or, without intern, when the ground term was never interned (so
// that no fact can hold it).
func (b *Bindings) Build(p Pattern, intern bool) (Term, bool) {
	switch p.Kind {
	case PatGround:
		return p.ID, true
	case PatVar:
		id := b.Vals[p.Slot]
		return id, id != NoTerm
	}
	var buf [8]Term
	args := buf[:0]
	for _, a := range p.Args {
		id, ok := b.Build(a, intern)
		if !ok {
			return NoTerm, false
		}
		args = append(args, id)
	}
	if intern {
		return b.Terms.Intern(p.Sym, true, args), true
	}
	id := b.Terms.Lookup(p.Sym, true, args)
	return id, id != NoTerm
}

// BuildTuple instantiates args as Build does, failing when one fails. The
// returned slice is only valid until the next call.
func (b *Bindings) BuildTuple(args []Pattern, intern bool) ([]Term, bool) {
	out := b.tup[:0]
	for _, a := range args {
		id, ok := b.Build(a, intern)
		if !ok {
			return nil, false
		}
		out = append(out, id)
	}
	b.tup = out
	return out, true
}

// MatchAll matches each pattern with the term at its position in tuple.
// On failure some slots may be bound: Undo takes them back.
func (b *Bindings) MatchAll(ps []Pattern, tuple []Term) bool {
	for i, p := range ps {
		if !b.Match(p, tuple[i]) {
			return false
		}
	}
	return true
}

// Match unifies a pattern with a ground term, binding its unbound slots and
// recording them on the trail.
func (b *Bindings) Match(p Pattern, id Term) bool {
	switch p.Kind {
	case PatGround:
		return p.ID == id
	case PatVar:
		if v := b.Vals[p.Slot]; v != NoTerm {
			return v == id
		}
		b.Vals[p.Slot] = id
		b.trail = append(b.trail, p.Slot)
		return true
	}
	t := &b.Terms.terms[id]
	if !t.Compound || t.Sym != p.Sym || len(t.Args) != len(p.Args) {
		return false
	}
	for i, a := range p.Args {
		if !b.Match(a, t.Args[i]) {
			return false
		}
	}
	return true
}

// Mark returns the current length of the trail, for Undo.
func (b *Bindings) Mark() int { return len(b.trail) }

// Undo unbinds the slots bound since mark.
func (b *Bindings) Undo(mark int) {
	for _, slot := range b.trail[mark:] {
		b.Vals[slot] = NoTerm
	}
	b.trail = b.trail[:mark]
}
