package ggp

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io"
	"log"
	"net/http"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	"gdlab/engine/game"
	"gdlab/engine/gdl"
	"gdlab/engine/propnet"
	"gdlab/engine/prover"
	"gdlab/engine/search"
)

// PlayerOptions configure a Player.
type PlayerOptions struct {
	Name string // the name (info) reports; "" means "gdlab"
	// New makes a fresh search player for each match.
	New func() search.Player
	// Margin is kept back from every clock for the network and the
	// answer; 0 means DefaultMargin. A clock shorter than twice the
	// margin keeps back half of itself instead.
	Margin time.Duration
	Seed   uint64      // mixed with each match id into the match's seed
	Log    *log.Logger // where problems and matches are logged; nil means discard
}

// DefaultMargin is the time kept back from each clock by default.
const DefaultMargin = 500 * time.Millisecond

// margin is the time kept back from clock: the configured margin, or half
// the clock when that is less, so that a short clock still leaves time to
// think.
func (p *Player) margin(clock time.Duration) time.Duration {
	return min(p.opt.Margin, clock/2)
}

// MaxMessage bounds a request body; a rulesheet is far smaller.
const MaxMessage = 16 << 20

// Player answers a game server's requests for any number of matches at
// once, each played by its own search.Player on its own reasoner. It is an
// http.Handler. A request it cannot read or does not expect (a malformed
// message, a play for an unknown match) is answered with status 400 and
// the reason, logged, and changes nothing.
type Player struct {
	opt     PlayerOptions
	mu      sync.Mutex
	matches map[string]*session
}

// NewPlayer returns a player.
func NewPlayer(opt PlayerOptions) *Player {
	if opt.Name == "" {
		opt.Name = "gdlab"
	}
	if opt.Margin <= 0 {
		opt.Margin = DefaultMargin
	}
	if opt.Log == nil {
		opt.Log = log.New(io.Discard, "", 0)
	}
	return &Player{opt: opt, matches: map[string]*session{}}
}

// session is one match in progress.
type session struct {
	mu     sync.Mutex // one request of a match at a time
	id     string
	m      game.Machine
	role   int
	player search.Player
	state  game.State
	clock  time.Duration // the play clock
	moves  int           // joint moves played
}

// ServeHTTP answers one request.
func (p *Player) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	received := time.Now()
	w.Header().Set("Access-Control-Allow-Origin", "*")
	w.Header().Set("Access-Control-Allow-Methods", "POST, GET, OPTIONS")
	w.Header().Set("Access-Control-Allow-Headers", "Content-Type")
	if r.Method == http.MethodOptions {
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxMessage+1))
	if err == nil && len(body) > MaxMessage {
		err = fmt.Errorf("ggp: message over %d bytes", MaxMessage)
	}
	var reply string
	if err == nil {
		reply, err = p.Answer(r.Context(), string(body), received)
	}
	w.Header().Set("Content-Type", "text/acl")
	if err != nil {
		p.opt.Log.Printf("refused %s: %v", clip(string(body)), err)
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintln(w, err)
		return
	}
	io.WriteString(w, reply)
}

// Answer returns the reply to one message received at the given time, or
// why it cannot be answered. A panic of the search player is recovered as
// an error.
func (p *Player) Answer(ctx context.Context, text string, received time.Time) (reply string, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("ggp: internal error: %v", v)
			p.opt.Log.Printf("panic: %v\n%s", v, debug.Stack())
		}
	}()
	m, err := ParseMessage(text)
	if err != nil {
		return "", err
	}
	switch m.Kind {
	case Info:
		return fmt.Sprintf("((name %s) (status available))", p.opt.Name), nil
	case Preview:
		return "ready", nil
	case Start:
		return p.start(ctx, m, received)
	case Play:
		return p.play(ctx, m, received)
	case Stop, Abort:
		return p.end(m)
	}
	return "", fmt.Errorf("ggp: unexpected %s", m.Kind)
}

// start builds the match's reasoner and player within the start clock.
func (p *Player) start(ctx context.Context, m Message, received time.Time) (string, error) {
	deadline := received.Add(m.StartClock - p.margin(m.StartClock))
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	if p.opt.New == nil {
		return "", errNoPlayer
	}
	d, err := gdl.Parse(m.MatchID+".kif", []byte(m.Rules))
	if err != nil {
		return "", fmt.Errorf("ggp: start %s: %w", m.MatchID, err)
	}
	mach, kind, err := buildMachine(ctx, d, deadline)
	if err != nil {
		return "", fmt.Errorf("ggp: start %s: %w", m.MatchID, err)
	}
	role := -1
	for i, r := range mach.Roles() {
		if r == m.Role {
			role = i
		}
	}
	if role < 0 {
		return "", fmt.Errorf("ggp: start %s: the rules have no role %q (roles %v)", m.MatchID, m.Role, mach.Roles())
	}
	s := &session{id: m.MatchID, m: mach, role: role, player: p.opt.New(), state: mach.Initial(),
		clock: m.PlayClock}
	setup := search.Setup{Machine: mach, Role: role, Seed: p.seed(m.MatchID), Budget: search.Budget{Deadline: deadline}}
	if err := s.player.Start(ctx, setup); err != nil {
		p.opt.Log.Printf("match %s: %s's start: %v (playing on)", m.MatchID, s.player.Name(), err)
	}
	p.mu.Lock()
	if _, dup := p.matches[m.MatchID]; dup {
		p.opt.Log.Printf("match %s started again: the new start replaces it", m.MatchID)
	}
	p.matches[m.MatchID] = s
	p.mu.Unlock()
	p.opt.Log.Printf("match %s: %s as %s on the %s, ready after %v", m.MatchID, s.player.Name(), m.Role, kind, time.Since(received).Round(time.Millisecond))
	if pr, ok := s.player.(search.Preparer); ok && pr.Prepared() != "" {
		p.opt.Log.Printf("match %s: %s", m.MatchID, pr.Prepared())
	}
	return "ready", nil
}

// buildMachine builds the fastest reasoner that fits before half the time
// to the deadline (the propositional network), leaving the rest to the
// search player's own preparation, and falls back on the prover.
func buildMachine(ctx context.Context, d *gdl.Description, deadline time.Time) (game.Machine, string, error) {
	half := time.Until(deadline) / 2
	bctx, cancel := context.WithTimeout(ctx, half)
	defer cancel()
	if net, err := propnet.Build(bctx, d, propnet.Options{}); err == nil {
		return net, "propositional network", nil
	}
	pr, err := prover.New(d)
	if err != nil {
		return nil, "", err
	}
	return pr, "prover", nil
}

// seed derives a match's seed from its id.
func (p *Player) seed(matchID string) uint64 {
	h := fnv.New64a()
	io.WriteString(h, matchID)
	return h.Sum64() ^ p.opt.Seed
}

// session returns a match in progress.
func (p *Player) session(id string) (*session, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	s, ok := p.matches[id]
	if !ok {
		return nil, fmt.Errorf("ggp: no match %q in progress", id)
	}
	return s, nil
}

// play applies the joint move and answers with the player's move, before
// the play clock less the margin.
func (p *Player) play(ctx context.Context, m Message, received time.Time) (string, error) {
	s, err := p.session(m.MatchID)
	if err != nil {
		return "", err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.apply(m.Moves); err != nil {
		return "", err
	}
	legal, err := s.m.Legal(s.state, s.role, nil)
	if err != nil || len(legal) == 0 {
		return "", fmt.Errorf("ggp: match %s: no legal move after %d moves (%v)", s.id, s.moves, err)
	}
	deadline := received.Add(s.clock - p.margin(s.clock))
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	mv, _, err := s.player.Play(ctx, s.state, search.Budget{Deadline: deadline})
	if !slices.Contains(legal, mv) {
		p.opt.Log.Printf("match %s: %s gave no legal move (%v); playing %s", s.id, s.player.Name(), err, s.m.MoveText(s.role, legal[0]))
		mv = legal[0]
	} else if err != nil {
		p.opt.Log.Printf("match %s: %s: %v (its legal move kept)", s.id, s.player.Name(), err)
	}
	return s.m.MoveText(s.role, mv), nil
}

// apply plays the joint move a server reports; nil (the first play) plays
// nothing.
func (s *session) apply(moves []string) error {
	if moves == nil {
		if s.moves > 0 {
			return fmt.Errorf("ggp: match %s: NIL moves after %d moves", s.id, s.moves)
		}
		return nil
	}
	joint, err := jointMove(s.m, s.state, moves)
	if err != nil {
		return fmt.Errorf("ggp: match %s, after %d moves: %w", s.id, s.moves, err)
	}
	next, err := s.m.Next(s.state, joint)
	if err != nil {
		return fmt.Errorf("ggp: match %s: %w", s.id, err)
	}
	s.state, s.moves = next, s.moves+1
	return nil
}

// jointMove finds the legal moves whose text the server sent.
func jointMove(m game.Machine, s game.State, moves []string) ([]game.Move, error) {
	roles := m.Roles()
	if len(moves) != len(roles) {
		return nil, fmt.Errorf("%d moves for %d roles", len(moves), len(roles))
	}
	joint := make([]game.Move, len(roles))
	for i, text := range moves {
		mv, err := m.ParseMove(i, text)
		if err != nil {
			return nil, fmt.Errorf("%s is not a move of %s: %v", text, roles[i], err)
		}
		legal, err := m.Legal(s, i, nil)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(legal, mv) {
			return nil, fmt.Errorf("%s is not a legal move of %s", text, roles[i])
		}
		joint[i] = mv
	}
	return joint, nil
}

// end forgets a match; stop's final moves are checked but change nothing.
func (p *Player) end(m Message) (string, error) {
	s, err := p.session(m.MatchID)
	if err != nil {
		return "", err
	}
	s.mu.Lock()
	if m.Kind == Stop && m.Moves != nil {
		if err := s.apply(m.Moves); err != nil {
			p.opt.Log.Printf("%v (stopping anyway)", err)
		}
	}
	s.mu.Unlock()
	p.mu.Lock()
	delete(p.matches, m.MatchID)
	p.mu.Unlock()
	p.opt.Log.Printf("match %s: %s after %d moves", m.MatchID, m.Kind, s.moves)
	return "done", nil
}

// Matches returns the ids of the matches in progress.
func (p *Player) Matches() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	ids := make([]string, 0, len(p.matches))
	for id := range p.matches {
		ids = append(ids, id)
	}
	return ids
}

// errNoPlayer reports options without a player factory.
var errNoPlayer = errors.New("ggp: PlayerOptions.New is nil")
