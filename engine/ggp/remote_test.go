package ggp_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"gdlab/engine/game"
	"gdlab/engine/ggp"
	"gdlab/engine/match"
	"gdlab/engine/prover"
	"gdlab/engine/search"
)

// TestServerAgainstRemotePlayers plays a tournament (at a 0.4 s play clock,
// which only gdlab's players read) through the match
// referee between gdlab players reached over loopback HTTP, one of which
// sleeps past its clock and one of which answers garbage: those are
// replaced by random legal moves and recorded, the others' moves are
// kept, and every match's history makes a trace the prover replays.
func TestServerAgainstRemotePlayers(t *testing.T) {
	d, _ := rules(t, nim)
	legal := httptest.NewServer(ggp.NewPlayer(ggp.PlayerOptions{New: func() search.Player { return &search.Legal{} }}))
	defer legal.Close()
	mc := httptest.NewServer(ggp.NewPlayer(ggp.PlayerOptions{New: func() search.Player { return &search.MonteCarlo{Charges: 2} }, Margin: 300 * time.Millisecond}))
	defer mc.Close()
	sleeper := httptest.NewServer(misbehaving(func(w http.ResponseWriter, kind string) {
		if kind == "play" {
			time.Sleep(1500 * time.Millisecond)
		}
	}))
	defer sleeper.Close()
	garbage := httptest.NewServer(misbehaving(func(w http.ResponseWriter, kind string) {
		if kind == "play" {
			io.WriteString(w, "((( not a move")
		}
	}))
	defer garbage.Close()

	entrant := func(name, url string) match.Entrant {
		return match.Entrant{Name: name, New: func() search.Player {
			return ggp.NewRemote(ggp.RemoteOptions{URL: url, Name: name, Rules: d, StartClock: 2 * time.Second, PlayClock: 400 * time.Millisecond})
		}}
	}
	pr, err := prover.New(d)
	if err != nil {
		t.Fatal(err)
	}
	tour := match.Tournament{Game: "nim", Machine: pr, Games: 1, Seed: 7, Workers: 2,
		Entrants: []match.Entrant{entrant("legal", legal.URL), entrant("mc", mc.URL), entrant("sleeper", sleeper.URL), entrant("garbage", garbage.URL)},
		Options:  match.Options{StartClock: 2 * time.Second, PlayClock: 400 * time.Millisecond, Grace: 300 * time.Millisecond, Abandon: 2 * time.Second, AskTogether: true}}
	tab, err := tour.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(tab.Rows) != 12 {
		t.Fatalf("%d matches, want 12", len(tab.Rows))
	}
	for _, row := range tab.Rows {
		if !row.Finished {
			t.Errorf("match %d (%v) did not finish: %s", row.Index, row.Players, row.Error)
		}
		for i, name := range row.Players {
			bad := row.Late[i] + row.Illegal[i] + row.Errors[i]
			switch name {
			case "sleeper", "garbage":
				if bad == 0 && row.Moves > 1 {
					t.Errorf("match %d: %s was never replaced: %+v", row.Index, name, row.Events)
				}
			default:
				if bad != 0 {
					t.Errorf("match %d: %s was replaced: %+v", row.Index, name, row.Events)
				}
			}
		}
		tr, err := game.Follow(context.Background(), pr, "nim", int64(row.Seed), row.History)
		if err != nil {
			t.Fatal(err)
		}
		if d, err := game.Replay(context.Background(), pr, tr); err != nil || d != nil {
			t.Errorf("match %d: the trace does not replay: %v %v", row.Index, err, d)
		}
	}
}

// misbehaving is a player that answers start with ready and stop/abort
// with done, and does what bad says for play.
func misbehaving(bad func(w http.ResponseWriter, kind string)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		m, err := ggp.ParseMessage(string(body))
		if err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		w.Header().Set("Content-Type", "text/acl")
		switch m.Kind {
		case ggp.Start:
			io.WriteString(w, "ready")
		case ggp.Play:
			bad(w, "play")
			io.WriteString(w, "noop")
		default:
			io.WriteString(w, strings.ToLower("DONE"))
		}
	})
}

// A clock under a millisecond is refused before anything is sent: it is
// what an untyped number becomes in a Duration field.
func TestRemoteRefusesNanosecondClocks(t *testing.T) {
	d, _ := rules(t, nim)
	pr, err := prover.New(d)
	if err != nil {
		t.Fatal(err)
	}
	sent := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { sent++ }))
	defer srv.Close()
	for _, c := range []struct{ start, play time.Duration }{{5, time.Second}, {5 * time.Second, 1}} {
		r := ggp.NewRemote(ggp.RemoteOptions{URL: srv.URL, Name: "slip", Rules: d, StartClock: c.start, PlayClock: c.play})
		err := r.Start(context.Background(), search.Setup{Machine: pr, Role: 0})
		if err == nil || !strings.Contains(err.Error(), "under a millisecond") {
			t.Errorf("clocks %v, %v: error %v, want one about a clock under a millisecond", c.start, c.play, err)
		}
	}
	if sent != 0 {
		t.Errorf("%d requests sent", sent)
	}
}
