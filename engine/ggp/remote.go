package ggp

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"gdlab/engine/game"
	"gdlab/engine/gdl"
	"gdlab/engine/search"
)

// RemoteOptions describe a player reached over HTTP.
type RemoteOptions struct {
	URL   string // the player's address, such as http://127.0.0.1:9147/
	Name  string // its name in results; "" means the URL
	Rules *gdl.Description
	// StartClock and PlayClock are sent with start; they should match the
	// referee's clocks (match.Options). Players from elsewhere read whole
	// seconds only (see Message).
	StartClock, PlayClock time.Duration
	// MatchPrefix starts every match id; "" means "gdlab".
	MatchPrefix string
	Client      *http.Client // nil means a client without its own timeout
}

// Remote is a search.Player whose moves come from a program over HTTP: a
// game server's side of the protocol. Start sends start, Play sends play
// with the last joint move, and the end of the match sends stop (abort
// when it was cut off). Each call waits until its budget's deadline and a
// grace of one second for the network; a late, malformed or illegal answer
// is an error, which the referee replaces with a random legal move.
type Remote struct {
	opt   RemoteOptions
	rules string
	m     game.Machine
	role  int
	id    string
	last  []string // the joint move to report with the next play or stop
}

// NewRemote returns a remote player for one match at a time.
func NewRemote(opt RemoteOptions) *Remote {
	if opt.Name == "" {
		opt.Name = opt.URL
	}
	if opt.MatchPrefix == "" {
		opt.MatchPrefix = "gdlab"
	}
	if opt.Client == nil {
		opt.Client = &http.Client{}
	}
	r := &Remote{opt: opt}
	if opt.Rules != nil {
		r.rules = RulesText(opt.Rules)
	}
	return r
}

// checkClocks refuses a clock under a millisecond: no player can answer
// within it, and it is what an untyped number becomes in a Duration field
// (5 is five nanoseconds; five seconds is 5 * time.Second).
func checkClocks(opt RemoteOptions) error {
	for _, c := range []struct {
		name string
		d    time.Duration
	}{{"start", opt.StartClock}, {"play", opt.PlayClock}} {
		if c.d < time.Millisecond {
			return fmt.Errorf("ggp: remote %s: %s clock %v is under a millisecond (a Duration: five seconds is 5 * time.Second, not 5)", opt.Name, c.name, c.d)
		}
	}
	return nil
}

// matches numbers the match ids this process makes.
var matches atomic.Int64

// Name returns the player's name.
func (r *Remote) Name() string { return r.opt.Name }

// Start sends the rules, the role and the clocks.
func (r *Remote) Start(ctx context.Context, setup search.Setup) error {
	if r.opt.Rules == nil {
		return fmt.Errorf("ggp: remote %s has no rules to send", r.opt.Name)
	}
	if err := checkClocks(r.opt); err != nil {
		return err
	}
	r.m, r.role, r.last = setup.Machine, setup.Role, nil
	r.id = fmt.Sprintf("%s.%d.%d", r.opt.MatchPrefix, time.Now().UnixNano(), matches.Add(1))
	msg := Message{Kind: Start, MatchID: r.id, Role: r.m.Roles()[r.role], Rules: r.rules,
		StartClock: r.opt.StartClock, PlayClock: r.opt.PlayClock}
	reply, err := r.send(ctx, msg, setup.Budget.Deadline)
	if err != nil {
		return err
	}
	if !strings.EqualFold(strings.TrimSpace(reply), "ready") {
		return fmt.Errorf("ggp: %s answered start with %s, not ready", r.opt.Name, clip(reply))
	}
	return nil
}

// Play sends the last joint move and reads the answer as a move.
func (r *Remote) Play(ctx context.Context, s game.State, b search.Budget) (game.Move, search.Report, error) {
	if r.m == nil {
		return 0, search.Report{}, search.ErrNotStarted
	}
	start := time.Now()
	reply, err := r.send(ctx, Message{Kind: Play, MatchID: r.id, Moves: r.last}, b.Deadline)
	rep := search.Report{Used: search.Usage{Time: time.Since(start)}}
	if err != nil {
		return 0, rep, err
	}
	t, err := gdl.ParseTerm(strings.TrimSpace(reply))
	if err != nil {
		return 0, rep, fmt.Errorf("ggp: %s answered %s, not a move: %v", r.opt.Name, clip(reply), err)
	}
	mv, err := r.m.ParseMove(r.role, t.String())
	if err != nil {
		return 0, rep, fmt.Errorf("ggp: %s answered %s: %v", r.opt.Name, clip(reply), err)
	}
	return mv, rep, nil
}

// Moved keeps the joint move for the next message.
func (r *Remote) Moved(joint []game.Move) { r.last = game.JointText(r.m, joint) }

// Ended sends stop with the last joint move, or abort for a match cut off.
func (r *Remote) Ended(ctx context.Context, finished bool) {
	if r.m == nil {
		return
	}
	msg := Message{Kind: Abort, MatchID: r.id}
	if finished {
		msg = Message{Kind: Stop, MatchID: r.id, Moves: r.last}
	}
	r.send(ctx, msg, time.Now().Add(5*time.Second))
}

// grace is how long past a deadline a reply may take in transit.
const grace = time.Second

// send posts a message and returns the reply's body.
func (r *Remote) send(ctx context.Context, m Message, deadline time.Time) (string, error) {
	if !deadline.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, deadline.Add(grace))
		defer cancel()
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, r.opt.URL, bytes.NewBufferString(m.String()))
	if err != nil {
		return "", err
	}
	req.Header.Set("Content-Type", "text/acl")
	resp, err := r.opt.Client.Do(req)
	if err != nil {
		return "", fmt.Errorf("ggp: %s: %s: %w", r.opt.Name, m.Kind, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxMessage))
	if err != nil {
		return "", fmt.Errorf("ggp: %s: %s: %w", r.opt.Name, m.Kind, err)
	}
	if resp.StatusCode != http.StatusOK {
		return "", fmt.Errorf("ggp: %s: %s: status %d: %s", r.opt.Name, m.Kind, resp.StatusCode, clip(string(body)))
	}
	return string(body), nil
}
