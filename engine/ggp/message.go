// Package ggp owns the GGP communication protocol: the messages a game
// server and a player exchange over HTTP (info, preview, start, play, stop,
// abort), as ggp-base's game server, the Tiltyard and the competitions send
// them, and a player that answers them with any search.Player.
//
// A message is one KIF s-expression in the body of an HTTP POST, content
// type text/acl. Keywords are read in any case (ggp-base sends "( PLAY m1
// NIL )"); game symbols keep theirs. Clocks are seconds: whole numbers as
// the protocol has them, or, between gdlab's own server and players, a
// decimal fraction (0.25) for quick loopback tournaments; ggp-base's
// players read whole seconds only, so a server sends fractions only when
// asked to.
package ggp

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"gdlab/engine/gdl"
)

// Kinds of message.
const (
	Info    = "info"
	Preview = "preview"
	Start   = "start"
	Play    = "play"
	Stop    = "stop"
	Abort   = "abort"
)

// Message is one request from a game server.
type Message struct {
	Kind       string        // one of Info, Preview, Start, Play, Stop, Abort
	MatchID    string        // start, play, stop and abort
	Role       string        // start: the role the player plays
	Rules      string        // start and preview: the game's rules as KIF text
	StartClock time.Duration // start: time to prepare; preview: time to look
	PlayClock  time.Duration // start: time per move
	// Moves is the joint move just played, one KIF term per role in role
	// order (play and stop); nil for the first play, which sends NIL.
	Moves []string
}

// ParseMessage reads a request body. Errors say what is wrong and at which
// byte, never panic, whatever the input.
func ParseMessage(text string) (Message, error) {
	e, err := readSexp(text)
	if err != nil {
		return Message{}, err
	}
	if e.isAtom() || len(e.list) == 0 || !e.list[0].isAtom() {
		return Message{}, fmt.Errorf("ggp: a message is a list that starts with its kind, not %s", clip(e.raw(text)))
	}
	kind := strings.ToLower(e.list[0].atom)
	args := e.list[1:]
	m := Message{Kind: kind}
	want := map[string]int{Info: 0, Preview: 2, Start: 5, Play: 2, Stop: 2, Abort: 1}
	n, known := want[kind]
	if !known {
		return Message{}, fmt.Errorf("ggp: unknown message kind %q", e.list[0].atom)
	}
	if len(args) != n {
		return Message{}, fmt.Errorf("ggp: %s takes %d arguments, not %d", kind, n, len(args))
	}
	switch kind {
	case Preview:
		return m, readPreview(text, args, &m)
	case Start:
		return m, readStart(text, args, &m)
	case Play, Stop:
		if m.MatchID, err = symbol(args[0], "match id"); err != nil {
			return m, err
		}
		m.Moves, err = readMoves(text, args[1])
		return m, err
	case Abort:
		m.MatchID, err = symbol(args[0], "match id")
		return m, err
	}
	return m, nil
}

func readPreview(text string, args []*sexp, m *Message) (err error) {
	if m.Rules, err = rulesText(text, args[0]); err != nil {
		return err
	}
	m.StartClock, err = clock(args[1], "preview clock")
	return err
}

func readStart(text string, args []*sexp, m *Message) (err error) {
	if m.MatchID, err = symbol(args[0], "match id"); err != nil {
		return err
	}
	if m.Role, err = symbol(args[1], "role"); err != nil {
		return err
	}
	if m.Rules, err = rulesText(text, args[2]); err != nil {
		return err
	}
	if m.StartClock, err = clock(args[3], "start clock"); err != nil {
		return err
	}
	m.PlayClock, err = clock(args[4], "play clock")
	return err
}

// rulesText returns the text inside the rules list, which gdl.Parse reads
// as a rulesheet.
func rulesText(text string, e *sexp) (string, error) {
	if e.isAtom() {
		return "", fmt.Errorf("ggp: the rules must be a list, not %s", clip(e.atom))
	}
	return text[e.start+1 : e.end-1], nil
}

// readMoves reads NIL or a list of moves, each printed canonically.
func readMoves(text string, e *sexp) ([]string, error) {
	if e.isAtom() {
		if strings.EqualFold(e.atom, "nil") {
			return nil, nil
		}
		return nil, fmt.Errorf("ggp: the moves must be NIL or a list, not %s", clip(e.atom))
	}
	moves := make([]string, 0, len(e.list))
	for _, mv := range e.list {
		t, err := gdl.ParseTerm(mv.raw(text))
		if err != nil {
			return nil, fmt.Errorf("ggp: move %s: %v", clip(mv.raw(text)), err)
		}
		moves = append(moves, t.String())
	}
	return moves, nil
}

func symbol(e *sexp, what string) (string, error) {
	if !e.isAtom() {
		return "", fmt.Errorf("ggp: the %s must be a symbol, not a list", what)
	}
	return e.atom, nil
}

// maxClock bounds a clock, so that no number overflows a time.Duration.
const maxClock = 1e6 * time.Second

// clock reads a clock in seconds: a whole number, or a decimal fraction
// (milliseconds and coarser).
func clock(e *sexp, what string) (time.Duration, error) {
	if !e.isAtom() {
		return 0, fmt.Errorf("ggp: the %s must be a number, not a list", what)
	}
	bad := fmt.Errorf("ggp: the %s must be a number of seconds, not %s", what, clip(e.atom))
	if n, err := strconv.Atoi(e.atom); err == nil {
		if n < 0 || time.Duration(n) > maxClock/time.Second {
			return 0, bad
		}
		return time.Duration(n) * time.Second, nil
	}
	f, err := strconv.ParseFloat(e.atom, 64)
	if err != nil || f < 0 || math.IsNaN(f) || f > maxClock.Seconds() || strings.ContainsAny(e.atom, "xXpPeEiInN_") {
		return 0, bad
	}
	return time.Duration(math.Round(f*1000)) * time.Millisecond, nil
}

// seconds prints a clock as the protocol does: whole seconds, or a
// decimal fraction when it has one.
func seconds(d time.Duration) string {
	if d%time.Second == 0 {
		return strconv.FormatInt(int64(d/time.Second), 10)
	}
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64)
}

// String prints the message as ggp-base's game server sends it.
func (m Message) String() string {
	switch m.Kind {
	case Info:
		return "( INFO )"
	case Preview:
		return fmt.Sprintf("( PREVIEW (%s) %s )", m.Rules, seconds(m.StartClock))
	case Start:
		return fmt.Sprintf("( START %s %s (%s) %s %s)", m.MatchID, m.Role, m.Rules, seconds(m.StartClock), seconds(m.PlayClock))
	case Play, Stop:
		moves := "NIL"
		if m.Moves != nil {
			var b strings.Builder
			b.WriteByte('(')
			for _, mv := range m.Moves {
				b.WriteString(MoveText(mv) + " ")
			}
			moves = b.String() + ")"
		}
		return fmt.Sprintf("( %s %s %s )", strings.ToUpper(m.Kind), m.MatchID, moves)
	case Abort:
		return fmt.Sprintf("( ABORT %s )", m.MatchID)
	}
	return "( " + strings.ToUpper(m.Kind) + " )"
}

// clip shortens text for a message.
func clip(s string) string {
	if len(s) > 60 {
		return strconv.Quote(s[:57] + "...")
	}
	return strconv.Quote(s)
}

// RulesText prints a description as ggp-base's game server sends it inside
// start and preview: every list with a space after its opening and before
// its closing parenthesis, such as "( <= ( legal ?p noop ) ( role ?p ) )".
func RulesText(d *gdl.Description) string {
	var b strings.Builder
	for i, r := range d.Rules {
		if i > 0 {
			b.WriteByte(' ')
		}
		if len(r.Body) == 0 {
			writeAtom(&b, r.Head)
			continue
		}
		b.WriteString("( <= ")
		writeAtom(&b, r.Head)
		for _, l := range r.Body {
			b.WriteByte(' ')
			writeLiteral(&b, l)
		}
		b.WriteString(" )")
	}
	return b.String()
}

func writeAtom(b *strings.Builder, a *gdl.Atom) {
	if len(a.Args) == 0 {
		b.WriteString(a.Name)
		return
	}
	writeList(b, a.Name, a.Args)
}

func writeList(b *strings.Builder, name string, args []gdl.Term) {
	b.WriteString("( " + name)
	for _, t := range args {
		b.WriteByte(' ')
		writeTerm(b, t)
	}
	b.WriteString(" )")
}

func writeTerm(b *strings.Builder, t gdl.Term) {
	if f, ok := t.(*gdl.Func); ok {
		writeList(b, f.Name, f.Args)
		return
	}
	b.WriteString(t.String())
}

func writeLiteral(b *strings.Builder, l gdl.Literal) {
	switch l := l.(type) {
	case *gdl.Atom:
		writeAtom(b, l)
	case *gdl.Not:
		b.WriteString("( not ")
		writeLiteral(b, l.Arg)
		b.WriteString(" )")
	case *gdl.Distinct:
		writeList(b, "distinct", []gdl.Term{l.A, l.B})
	case *gdl.Or:
		b.WriteString("( or")
		for _, a := range l.Args {
			b.WriteByte(' ')
			writeLiteral(b, a)
		}
		b.WriteString(" )")
	}
}

// MoveText prints a move term as ggp-base does inside play and stop.
func MoveText(canonical string) string {
	t, err := gdl.ParseTerm(canonical)
	if err != nil {
		return canonical
	}
	var b strings.Builder
	writeTerm(&b, t)
	return b.String()
}
