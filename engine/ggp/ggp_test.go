package ggp_test

import (
	"context"
	"flag"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"gdlab/engine/game"
	"gdlab/engine/gdl"
	"gdlab/engine/ggp"
	"gdlab/engine/prover"
	"gdlab/engine/search"
)

var update = flag.Bool("update", false, "rewrite the golden exchange")

const nim = "../game/testdata/nim.kif"

func TestParseMessage(t *testing.T) {
	for _, c := range []struct {
		text string
		want ggp.Message
	}{
		{"( INFO )", ggp.Message{Kind: ggp.Info}},
		{"(info)", ggp.Message{Kind: ggp.Info}},
		{"( START m.1 xplayer ( ( role xplayer ) ( init ( cell 1 b ) ) ) 30 15)",
			ggp.Message{Kind: ggp.Start, MatchID: "m.1", Role: "xplayer", Rules: " ( role xplayer ) ( init ( cell 1 b ) ) ", StartClock: 30 * time.Second, PlayClock: 15 * time.Second}},
		{"( PLAY m.1 NIL )", ggp.Message{Kind: ggp.Play, MatchID: "m.1"}},
		{"(play m.1 (( mark 1 1 ) noop ))", ggp.Message{Kind: ggp.Play, MatchID: "m.1", Moves: []string{"(mark 1 1)", "noop"}}},
		{"( STOP m.1 (noop (MARK 2  2)) )", ggp.Message{Kind: ggp.Stop, MatchID: "m.1", Moves: []string{"noop", "(MARK 2 2)"}}},
		{"( ABORT m.1 )", ggp.Message{Kind: ggp.Abort, MatchID: "m.1"}},
		{"( PREVIEW ( ( role r ) ) 10 )", ggp.Message{Kind: ggp.Preview, Rules: " ( role r ) ", StartClock: 10 * time.Second}},
		{"( START m r ((role r)) 2.5 0.25 )", ggp.Message{Kind: ggp.Start, MatchID: "m", Role: "r", Rules: "(role r)", StartClock: 2500 * time.Millisecond, PlayClock: 250 * time.Millisecond}},
	} {
		got, err := ggp.ParseMessage(c.text)
		if err != nil {
			t.Errorf("%q: %v", c.text, err)
			continue
		}
		if got.Kind != c.want.Kind || got.MatchID != c.want.MatchID || got.Role != c.want.Role || got.Rules != c.want.Rules ||
			got.StartClock != c.want.StartClock || got.PlayClock != c.want.PlayClock || strings.Join(got.Moves, "|") != strings.Join(c.want.Moves, "|") || (got.Moves == nil) != (c.want.Moves == nil) {
			t.Errorf("%q: got %+v, want %+v", c.text, got, c.want)
		}
	}
	for _, bad := range []string{"", "(", ")", "info", "( PLAY m.1 )", "( FROB )", "( START m r (x) 3x 1 )", "( PLAY m.1 NIL ) extra", "( PLAY m.1 oops )", "( START m r rules 1 1 )",
		"( START m r (x) -1 1 )", "( START m r (x) 1 1e3 )", "( START m r (x) 1 NaN )", "( START m r (x) 1 0x10 )", "( START m r (x) 1 99999999999 )"} {
		if _, err := ggp.ParseMessage(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// TestMessageString prints messages exactly as ggp-base's RequestBuilder.
func TestMessageString(t *testing.T) {
	for _, c := range []struct {
		m    ggp.Message
		want string
	}{
		{ggp.Message{Kind: ggp.Play, MatchID: "m.1"}, "( PLAY m.1 NIL )"},
		{ggp.Message{Kind: ggp.Play, MatchID: "m.1", Moves: []string{"(mark 1 1)", "noop"}}, "( PLAY m.1 (( mark 1 1 ) noop ) )"},
		{ggp.Message{Kind: ggp.Start, MatchID: "m.1", Role: "x", Rules: "( role x ) ", StartClock: 30 * time.Second, PlayClock: 15 * time.Second}, "( START m.1 x (( role x ) ) 30 15)"},
		{ggp.Message{Kind: ggp.Start, MatchID: "m", Role: "x", Rules: "", StartClock: 2500 * time.Millisecond, PlayClock: 250 * time.Millisecond}, "( START m x () 2.5 0.25)"},
	} {
		if got := c.m.String(); got != c.want {
			t.Errorf("got %q, want %q", got, c.want)
		}
		if _, err := ggp.ParseMessage(c.m.String()); err != nil {
			t.Errorf("%q does not read back: %v", c.want, err)
		}
	}
}

// post sends one message and returns the status and body.
func post(t *testing.T, url, msg string) (int, string) {
	t.Helper()
	resp, err := http.Post(url, "text/acl", strings.NewReader(msg))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if ct := resp.Header.Get("Content-Type"); ct != "text/acl" {
		t.Errorf("content type %q", ct)
	}
	return resp.StatusCode, string(body)
}

// rules reads a rulesheet and prints it as ggp-base sends it.
func rules(t *testing.T, path string) (*gdl.Description, string) {
	t.Helper()
	d, err := gdl.ParseFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return d, ggp.RulesText(d)
}

// TestPlayerPlaysOverHTTP plays whole matches over loopback, the server
// side choosing the other roles' moves at random, and checks every answer
// is legal; malformed and out-of-order requests in between change nothing.
func TestPlayerPlaysOverHTTP(t *testing.T) {
	p := ggp.NewPlayer(ggp.PlayerOptions{New: func() search.Player { return &search.MonteCarlo{Charges: 2} }, Margin: 200 * time.Millisecond})
	srv := httptest.NewServer(p)
	defer srv.Close()
	if code, body := post(t, srv.URL, "( INFO )"); code != 200 || !strings.Contains(body, "available") {
		t.Fatalf("info: %d %q", code, body)
	}
	d, text := rules(t, nim)
	ref, err := prover.New(d)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for role, name := range ref.Roles() {
		id := "loop." + name
		if code, body := post(t, srv.URL, (ggp.Message{Kind: ggp.Start, MatchID: id, Role: name, Rules: text, StartClock: 2 * time.Second, PlayClock: time.Second}).String()); code != 200 || body != "ready" {
			t.Fatalf("start: %d %q", code, body)
		}
		s := ref.Initial()
		var last []string
		for moves := 0; ; moves++ {
			if term, _ := ref.Terminal(s); term {
				break
			}
			msg := ggp.Message{Kind: ggp.Play, MatchID: id, Moves: last}
			start := time.Now()
			code, body := post(t, srv.URL, msg.String())
			if took := time.Since(start); took > time.Second {
				t.Errorf("move %d answered after %v, over the 1 s play clock", moves, took)
			}
			if code != 200 {
				t.Fatalf("play %d: %d %q", moves, code, body)
			}
			mine, err := ref.ParseMove(role, body)
			if err != nil {
				t.Fatalf("play %d: answer %q: %v", moves, body, err)
			}
			joint := make([]game.Move, len(ref.Roles()))
			last = make([]string, len(joint))
			for i := range joint {
				legal, _ := ref.Legal(s, i, nil)
				joint[i] = legal[rng.IntN(len(legal))]
				if i == role {
					if !slicesContains(legal, mine) {
						t.Fatalf("play %d: %q is illegal", moves, body)
					}
					joint[i] = mine
				}
				last[i] = ref.MoveText(i, joint[i])
			}
			// Garbage and a play for no match in between: refused, harmless.
			if code, _ := post(t, srv.URL, "( PLAY nosuch NIL )"); code != 400 {
				t.Errorf("a play for an unknown match: status %d", code)
			}
			if code, _ := post(t, srv.URL, "(((("); code != 400 {
				t.Errorf("garbage: status %d", code)
			}
			if s, err = ref.Next(s, joint); err != nil {
				t.Fatal(err)
			}
		}
		if code, body := post(t, srv.URL, (ggp.Message{Kind: ggp.Stop, MatchID: id, Moves: last}).String()); code != 200 || body != "done" {
			t.Fatalf("stop: %d %q", code, body)
		}
	}
	if len(p.Matches()) != 0 {
		t.Errorf("matches left after stop: %v", p.Matches())
	}
}

func slicesContains(ms []game.Move, m game.Move) bool {
	for _, x := range ms {
		if x == m {
			return true
		}
	}
	return false
}

// TestPlayerSurvivesGarbage sends 1,000 malformed requests: every one is
// refused with 400 and the player still plays afterwards.
func TestPlayerSurvivesGarbage(t *testing.T) {
	p := ggp.NewPlayer(ggp.PlayerOptions{New: func() search.Player { return &search.Legal{} }})
	srv := httptest.NewServer(p)
	defer srv.Close()
	_, text := rules(t, nim)
	post(t, srv.URL, (ggp.Message{Kind: ggp.Start, MatchID: "g", Role: "first", Rules: text, StartClock: 5 * time.Second, PlayClock: 5 * time.Second}).String())
	rng := rand.New(rand.NewPCG(3, 4))
	pieces := []string{"(", ")", " ", "PLAY", "START", "g", "NIL", "(take 1 1)", "nil", "stop", "abort", "999999999999", "?x", ";", "\n", "\x00", "é"}
	for i := 0; i < 1000; i++ {
		var b strings.Builder
		for j := rng.IntN(12); j >= 0; j-- {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		msg := b.String()
		if m, err := ggp.ParseMessage(msg); err == nil && m.Kind != ggp.Info && m.Kind != ggp.Preview {
			continue // a well-formed request for the match would change it
		}
		if code, body := post(t, srv.URL, msg); code != 400 && !strings.Contains(body, "available") && body != "ready" {
			t.Fatalf("%q: status %d, body %q", msg, code, body)
		}
	}
	if code, body := post(t, srv.URL, "( PLAY g NIL )"); code != 200 || !strings.HasPrefix(body, "(take") {
		t.Errorf("after the garbage: %d %q", code, body)
	}
}

// TestGoldenExchange replays a match in ggp-base's exact message format
// against a deterministic player (the first legal move) and compares the
// whole exchange with testdata/exchange.txt.
func TestGoldenExchange(t *testing.T) {
	p := ggp.NewPlayer(ggp.PlayerOptions{Name: "gdlab-test", New: func() search.Player { return &search.Legal{} }})
	_, text := rules(t, nim)
	msgs := []string{
		"( INFO )",
		(ggp.Message{Kind: ggp.Start, MatchID: "golden.1", Role: "second", Rules: text, StartClock: 10 * time.Second, PlayClock: 5 * time.Second}).String(),
		"( PLAY golden.1 NIL )",
		"( PLAY golden.1 (( take a 1 ) noop ) )",
		"( PLAY golden.1 (noop ( take b 2 ) ) )",
		"( PLAY golden.1 (noop ( take b 2 ) ) )",
		"( STOP golden.1 (( take a 2 ) noop ) )",
		"( ABORT golden.1 )",
	}
	var b strings.Builder
	for _, m := range msgs {
		reply, err := p.Answer(context.Background(), m, time.Now())
		if err != nil {
			reply = "error: " + err.Error()
		}
		b.WriteString("> " + m + "\n< " + reply + "\n")
	}
	golden := filepath.Join("testdata", "exchange.txt")
	if *update {
		os.MkdirAll("testdata", 0o755)
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Errorf("exchange differs from %s:\n%s", golden, b.String())
	}
}
