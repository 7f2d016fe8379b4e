package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"gdlab/engine/game"
	"gdlab/engine/ggp"
	"gdlab/engine/match"
	"gdlab/engine/search"
)

func init() {
	register("serve", command{"referee GGP matches between players over HTTP (gdlab's or anyone's)", runServe})
}

// remotes collects repeated --player NAME=URL flags.
type remotes []string

func (r *remotes) String() string     { return strings.Join(*r, ",") }
func (r *remotes) Set(v string) error { *r = append(*r, v); return nil }

// clockFlag turns a clock flag's seconds into a duration, to the millisecond.
func clockFlag(seconds float64) time.Duration {
	return time.Duration(math.Round(seconds*1000)) * time.Millisecond
}

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("serve", "RULES.kif --player NAME=URL --player NAME=URL [--games N] [--startclock S] [--playclock S] [--out DIR]", stderr)
	var players remotes
	fs.Var(&players, "player", "a player as NAME=URL, such as mcts=http://127.0.0.1:9147/ (repeat: at least as many as it takes to fill two seats)")
	games := fs.Int("games", 1, "matches per seating (every seating of the players is played)")
	startClock := fs.Float64("startclock", 10, "start clock in seconds")
	playClock := fs.Float64("playclock", 5, "play clock in seconds (a fraction such as 0.25 only for gdlab's players: others read whole seconds)")
	seed := fs.Uint64("seed", 1, "seed of the random legal moves that replace late or illegal ones")
	workers := fs.Int("workers", 1, "matches played at once")
	maxMoves := fs.Int("maxmoves", 0, "joint moves before a match is stopped unfinished (0: 1000)")
	out := fs.String("out", "", "directory for table.json, matches.jsonl (the shared trace format) and settings.json")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || len(players) < 1 || *games < 1 || !(*startClock >= 0.001) || !(*playClock >= 0.001) || *workers < 1 {
		return usageError(fs, "need one rulesheet, players, and positive games, clocks and workers")
	}
	d, err := parseGame(pos[0], stderr)
	if err != nil {
		return err
	}
	m, err := machines["propnet"](d)
	if err != nil {
		if m, err = machines["prover"](d); err != nil {
			return err
		}
	}
	var entrants []match.Entrant
	start, play := clockFlag(*startClock), clockFlag(*playClock)
	for _, p := range players {
		name, url, ok := strings.Cut(p, "=")
		if !ok || name == "" || url == "" {
			return usageError(fs, "--player %q is not NAME=URL", p)
		}
		opt := ggp.RemoteOptions{URL: url, Name: name, Rules: d, StartClock: start, PlayClock: play, MatchPrefix: gameKey(pos[0])}
		entrants = append(entrants, match.Entrant{Name: name, New: func() search.Player { return ggp.NewRemote(opt) }})
	}
	clocks := match.Options{StartClock: start, PlayClock: play,
		Grace: time.Second, MaxMoves: *maxMoves, AskTogether: true}
	tour := match.Tournament{Game: gameKey(pos[0]), Machine: m, Entrants: entrants, Games: *games, Seed: *seed, Options: clocks, Workers: *workers,
		Progress: func(done, total int) { fmt.Fprintf(stderr, "match %d of %d done\n", done, total) }}
	tab, err := tour.Run(ctx)
	if tab == nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %d matches, start clock %s, play clock %s\n", tour.Game, len(tab.Rows), start, play)
	for _, s := range match.Standings(tab) {
		fmt.Fprintln(stdout, s)
	}
	for _, r := range tab.Rows {
		for _, e := range r.Events {
			fmt.Fprintf(stdout, "match %d, move %d, %s: %s %s\n", r.Index, e.Move, r.Players[e.Seat], e.Kind, e.Detail)
		}
	}
	if *out != "" {
		if werr := saveServe(ctx, *out, m, tour.Game, tab, fs); werr != nil {
			return werr
		}
	}
	return err
}

// saveServe writes the table, one trace per match and the settings.
func saveServe(ctx context.Context, dir string, m game.Machine, key string, tab *match.Table, fs *flag.FlagSet) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := tab.SaveJSON(filepath.Join(dir, "table.json")); err != nil {
		return err
	}
	var traces bytes.Buffer
	for _, r := range tab.Rows {
		tr, err := game.Follow(ctx, m, key, int64(r.Index), r.History)
		if err != nil {
			return fmt.Errorf("match %d: %w", r.Index, err)
		}
		if err := game.WriteTrace(&traces, tr); err != nil {
			return err
		}
	}
	settings := map[string]string{}
	fs.VisitAll(func(f *flag.Flag) { settings[f.Name] = f.Value.String() })
	raw, _ := json.MarshalIndent(settings, "", "  ")
	for name, data := range map[string][]byte{"matches.jsonl": traces.Bytes(), "settings.json": append(raw, '\n')} {
		if err := writeFileAtomic(filepath.Join(dir, name), data); err != nil {
			return err
		}
	}
	return nil
}

// writeFileAtomic writes data through a temporary file and a rename.
func writeFileAtomic(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
