// Package prover is gdlab's reference reasoner: a game.Machine that answers
// by computing, bottom-up, the stratified model of the rules for each state.
// It aims to be obviously correct rather than fast: rules are flattened
// (`or` expanded, negation pushed onto atoms), relations are evaluated stratum
// by stratum with semi-naive fixpoints for recursion, and the part of the
// model that depends on neither `true` nor `does` is computed once per game.
package prover

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"sync"

	"gdlab/engine/game"
	"gdlab/engine/gdl"
	"gdlab/engine/gdl/compat"
	"gdlab/engine/logic"
)

// DefaultMaxFacts bounds the facts derived for one layer of one model, so
// that a runaway game fails with a LimitError instead of exhausting memory.
const DefaultMaxFacts = 5_000_000

// Options tune a Prover. The zero value gives the defaults.
type Options struct {
	MaxFacts int // facts per model layer; 0 means DefaultMaxFacts
}

// Prover is the reference reasoner for one game. It is safe for concurrent
// use; calls are serialised by a mutex.
type Prover struct {
	mu      sync.Mutex
	prog    *program
	static  []*table
	limit   int
	roles   []string
	roleIDs []logic.Term
	initial *State
	cache   [stateCacheSize]*model
	next    int // round-robin slot of the cache
	rel     logic.Keywords
	rules   *gdl.Description
	repairs []compat.Repair
}

// Repairs returns what the compatible reading changed or noted in the
// rules; nil for a game that follows the specification.
func (p *Prover) Repairs() []compat.Repair { return p.repairs }

// Rules returns the game description the prover reasons about, under the
// compatible reading (package compat), so that
// analyses that need a propositional network can build one for the same
// game.
func (p *Prover) Rules() *gdl.Description { return p.rules }

// stateCacheSize is how many recent states keep their model: a caller
// typically asks for legal moves, terminal, goals and next of one state in
// a row, and searches alternate between a few states.
const stateCacheSize = 8

// model is the state layer of one state's model, with its answers decoded.
type model struct {
	state  *State
	tables []*table
	legal  [][]game.Move // per role, sorted by text; nil until asked
}

// State is a prover state: its facts as interned terms, sorted by ID.
type State struct {
	pr    *Prover
	facts []logic.Term
	hash  uint64
}

// Load parses, compiles and prepares the game in a GDL file.
func Load(path string) (*Prover, error) {
	d, err := gdl.ParseFile(path)
	if err != nil {
		return nil, err
	}
	return New(d)
}

// New prepares a prover for a parsed game with default options.
func New(d *gdl.Description) (*Prover, error) { return NewWithOptions(d, Options{}) }

// NewWithOptions prepares a prover: it compiles the rules and computes the
// static part of the model, the roles and the initial state. It fails with
// positioned errors when the rules cannot be evaluated bottom-up.
func NewWithOptions(d *gdl.Description, opt Options) (*Prover, error) {
	d, repairs := compat.Read(d)
	prog, err := compile(d)
	if err != nil {
		return nil, err
	}
	pr := &Prover{prog: prog, limit: opt.MaxFacts, rules: d, repairs: repairs}
	if pr.limit <= 0 {
		pr.limit = DefaultMaxFacts
	}
	pr.rel = logic.KeywordsOf(prog)
	if err := pr.evalStatic(); err != nil {
		return nil, err
	}
	roles := pr.static[pr.rel.Role]
	for i := 0; i < roles.n; i++ {
		id := roles.tuple(i)[0]
		pr.roleIDs = append(pr.roleIDs, id)
		pr.roles = append(pr.roles, prog.terms.String(id))
	}
	if len(pr.roles) == 0 {
		return nil, fmt.Errorf("%s: the game declares no role", d.File.Name())
	}
	pr.initial = pr.newState(column(pr.static[pr.rel.Init], 0))
	return pr, nil
}

// evalStatic computes the static relations. A relation over the fact bound
// is answered on demand instead when its readers can ask it questions, with
// its arguments bound or, with some free, by becoming questions themselves,
// and the static relations are computed again (askInstead).
func (pr *Prover) evalStatic() error {
	ask := make([]bool, len(pr.prog.rels))
	for {
		pr.static = make([]*table, len(pr.prog.rels))
		for i, r := range pr.prog.rels {
			pr.static[i] = newTable(r.arity)
		}
		err := pr.prog.evalLayer(pr.static, layerStatic, pr.limit, "static relations")
		var le *LimitError
		if err == nil || !errors.As(err, &le) || !pr.prog.askInstead(le.Relation, ask) {
			return err
		}
	}
}

// column returns the distinct values of one argument of a table.
func column(t *table, pos int) []logic.Term {
	out := make([]logic.Term, 0, t.n)
	for i := 0; i < t.n; i++ {
		out = append(out, t.tuple(i)[pos])
	}
	return out
}

func (pr *Prover) newState(facts []logic.Term) *State {
	slices.Sort(facts)
	facts = slices.Compact(facts)
	// A sum of mixed fact hashes does not depend on fact order or on the
	// order in which terms were interned, so equal states of two provers
	// for the same game hash alike and searches stay reproducible.
	var h uint64
	for _, f := range facts {
		h += pr.prog.terms.Hash(f)
	}
	return &State{pr: pr, facts: facts, hash: h}
}

// Roles returns the roles in declaration order.
func (pr *Prover) Roles() []string { return slices.Clone(pr.roles) }

// Initial returns the initial state.
func (pr *Prover) Initial() game.State { return pr.initial }

// state returns s as a state of this prover. A state of another machine,
// or of another prover, is an error rather than a panic: the states of
// every reasoner share one interface, so the mix-up is easy to make.
func (pr *Prover) state(s game.State) (*State, error) {
	st, ok := s.(*State)
	if !ok || st == nil || st.pr != pr {
		return nil, fmt.Errorf("prover: state %T does not belong to this prover", s)
	}
	return st, nil
}

func (pr *Prover) checkRole(role int) error {
	if role < 0 || role >= len(pr.roles) {
		return fmt.Errorf("prover: no role %d (the game has %d)", role, len(pr.roles))
	}
	return nil
}

// modelOf returns the state layer of the model of s, computing it if not
// cached, or an error when s is not a state of this prover. The caller holds
// pr.mu.
func (pr *Prover) modelOf(gs game.State) (*model, error) {
	s, err := pr.state(gs)
	if err != nil {
		return nil, err
	}
	for _, m := range pr.cache {
		if m != nil && (m.state == s || m.state.Equal(s)) {
			return m, nil
		}
	}
	tables := slices.Clone(pr.static)
	for i, r := range pr.prog.rels {
		if r.layer >= layerState {
			tables[i] = newTable(r.arity)
		}
	}
	tr := tables[pr.prog.trueRel]
	for _, f := range s.facts {
		tr.add([]logic.Term{f})
	}
	if err := pr.prog.evalLayer(tables, layerState, pr.limit, "state relations"); err != nil {
		return nil, err
	}
	m := &model{state: s, tables: tables}
	pr.cache[pr.next] = m
	pr.next = (pr.next + 1) % stateCacheSize
	return m, nil
}

// Legal returns role's legal moves in s, sorted by canonical text.
func (pr *Prover) Legal(s game.State, role int, dst []game.Move) ([]game.Move, error) {
	if err := pr.checkRole(role); err != nil {
		return dst[:0], err
	}
	pr.mu.Lock()
	defer pr.mu.Unlock()
	m, err := pr.modelOf(s)
	if err != nil {
		return dst[:0], err
	}
	if m.legal == nil {
		m.legal = make([][]game.Move, len(pr.roles))
		t := m.tables[pr.rel.Legal]
		for r, id := range pr.roleIDs {
			var ms []game.Move
			for _, ti := range t.candidates(0, id) {
				ms = append(ms, game.Move(t.tuple(int(ti))[1]))
			}
			pr.sortMoves(ms)
			m.legal[r] = ms
		}
	}
	return append(dst[:0], m.legal[role]...), nil
}

func (pr *Prover) sortMoves(ms []game.Move) {
	sort.Slice(ms, func(i, j int) bool {
		return pr.prog.terms.String(logic.Term(ms[i])) < pr.prog.terms.String(logic.Term(ms[j]))
	})
}

// Next returns the state after joint, one move per role.
func (pr *Prover) Next(s game.State, joint []game.Move) (game.State, error) {
	if len(joint) != len(pr.roles) {
		return nil, fmt.Errorf("prover: joint move has %d moves for %d roles", len(joint), len(pr.roles))
	}
	pr.mu.Lock()
	defer pr.mu.Unlock()
	m, err := pr.modelOf(s)
	if err != nil {
		return nil, err
	}
	tables := slices.Clone(m.tables)
	for i, r := range pr.prog.rels {
		if r.layer == layerMove {
			tables[i] = newTable(r.arity)
		}
	}
	does := tables[pr.prog.doesRel]
	for r, mv := range joint {
		does.add([]logic.Term{pr.roleIDs[r], logic.Term(mv)})
	}
	if err := pr.prog.evalLayer(tables, layerMove, pr.limit, "next state"); err != nil {
		return nil, err
	}
	return pr.newState(column(tables[pr.rel.Next], 0)), nil
}

// Terminal reports whether s is terminal.
func (pr *Prover) Terminal(s game.State) (bool, error) {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	m, err := pr.modelOf(s)
	if err != nil {
		return false, err
	}
	return m.tables[pr.rel.Terminal].n > 0, nil
}

// Goal returns role's single goal value in s.
func (pr *Prover) Goal(s game.State, role int) (int, error) {
	if err := pr.checkRole(role); err != nil {
		return 0, err
	}
	pr.mu.Lock()
	defer pr.mu.Unlock()
	m, err := pr.modelOf(s)
	if err != nil {
		return 0, err
	}
	t := m.tables[pr.rel.Goal]
	vals := t.candidates(0, pr.roleIDs[role])
	switch len(vals) {
	case 0:
		return 0, game.ErrNoGoal
	case 1:
		text := pr.prog.terms.String(t.tuple(int(vals[0]))[1])
		v, err := strconv.Atoi(text)
		if err != nil {
			return 0, fmt.Errorf("goal value %q of %s is not an integer", text, pr.roles[role])
		}
		return v, nil
	}
	return 0, game.ErrManyGoals
}

// MoveText returns the canonical text of a move.
func (pr *Prover) MoveText(role int, m game.Move) string {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	if m < 0 || int(m) >= pr.prog.terms.Len() {
		return fmt.Sprintf("<invalid move %d>", m)
	}
	return pr.prog.terms.String(logic.Term(m))
}

// ParseMove returns the move with the given KIF text, such as "(mark 1 3)".
func (pr *Prover) ParseMove(role int, text string) (game.Move, error) {
	t, err := gdl.ParseTerm(text)
	if err != nil {
		return game.NoMove, fmt.Errorf("move %q: %w", text, err)
	}
	pr.mu.Lock()
	defer pr.mu.Unlock()
	id, ok := pr.prog.terms.FromAST(t)
	if !ok {
		return game.NoMove, fmt.Errorf("move %q has a variable", text)
	}
	return game.Move(id), nil
}

// Facts returns the state's facts as canonical text in byte order.
func (s *State) Facts() []string {
	s.pr.mu.Lock()
	defer s.pr.mu.Unlock()
	out := make([]string, len(s.facts))
	for i, f := range s.facts {
		out[i] = s.pr.prog.terms.String(f)
	}
	sort.Strings(out)
	return out
}

// Hash returns a hash of the state's facts that depends only on their
// canonical text, not on the prover's internal numbering.
func (s *State) Hash() uint64 { return s.hash }

// Equal reports whether o has the same facts.
func (s *State) Equal(o game.State) bool {
	t, ok := o.(*State)
	return ok && t.pr == s.pr && t.hash == s.hash && slices.Equal(t.facts, s.facts)
}

// String renders the state as its sorted facts on one line.
func (s *State) String() string { return fmt.Sprint(s.Facts()) }
