package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"sort"
	"strings"
	"time"

	"gdlab/engine/ggp"
	"gdlab/engine/search"
	"gdlab/engine/search/mcts"
)

func init() {
	register("player", command{"play GGP matches over HTTP for a game server (ggp-base, Tiltyard)", runPlayer})
}

// searchPlayers maps the names accepted by --player to player
// constructors; threads is --threads (MCTS's search threads, -1 every core).
var searchPlayers = map[string]func(threads int) search.Player{
	"mcts":       func(threads int) search.Player { return mcts.New(mcts.Options{Adapt: true, Threads: threads}) },
	"mcts-plain": func(threads int) search.Player { return mcts.New(mcts.Options{Threads: threads}) },
	"montecarlo": func(int) search.Player { return &search.MonteCarlo{} },
	"flatmc":     func(int) search.Player { return &search.FlatMonteCarlo{} },
	"alphabeta":  func(int) search.Player { return &search.AlphaBeta{} },
	"random":     func(int) search.Player { return &search.Random{} },
	"legal":      func(int) search.Player { return &search.Legal{} },
}

func playerNames() string {
	names := make([]string, 0, len(searchPlayers))
	for n := range searchPlayers {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

func runPlayer(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("player", "--port P [--player NAME] [--threads N] [--name NAME] [--margin D] [--seed S]", stderr)
	port := fs.Int("port", 9147, "TCP port to listen on")
	host := fs.String("host", "", "address to listen on (\"\" means every interface)")
	which := fs.String("player", "mcts", "search player: "+playerNames())
	threads := fs.Int("threads", -1, "search threads of mcts and mcts-plain (root parallelism); -1 means every core")
	name := fs.String("name", "gdlab", "the name the player reports to (info)")
	margin := fs.Duration("margin", ggp.DefaultMargin, "time kept back from every clock for the network")
	seed := fs.Uint64("seed", 1, "mixed with each match id into the match's seed")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 0 || *port <= 0 || *port > 65535 || *margin < 0 || *threads == 0 || *threads < -1 {
		return usageError(fs, "need a port in 1..65535, a margin >= 0, threads -1 or at least 1, and no arguments")
	}
	makePlayer, ok := searchPlayers[*which]
	if !ok {
		return fmt.Errorf("unknown player %q (have %s)", *which, playerNames())
	}
	logger := log.New(stderr, "", log.LstdFlags)
	newPlayer := func() search.Player { return makePlayer(*threads) }
	p := ggp.NewPlayer(ggp.PlayerOptions{Name: *name, New: newPlayer, Margin: *margin, Seed: *seed, Log: logger})
	ln, err := net.Listen("tcp", fmt.Sprintf("%s:%d", *host, *port))
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: p, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		shut, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(shut)
	}()
	fmt.Fprintf(stdout, "gdlab player %q (%s) listening on %s\n", *name, *which, ln.Addr())
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
