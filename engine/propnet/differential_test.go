package propnet_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"testing"
	"time"

	"gdlab/engine/game"
	"gdlab/engine/game/gametest"
	"gdlab/engine/gdl"
	"gdlab/engine/propnet"
	"gdlab/engine/prover"
)

// diffSample is the games the default run plays: the benchmark games and a
// spread of the corpus. GDLAB_DIFF=full plays every game.
var diffSample = []string{
	"ticTacToe", "connectFour", "breakthrough", "breakthroughSmall", "reversi", "speedChess", "hex",
	"chess_200", "3pConnectFour", "amazons_8x8", "blocker", "checkers", "chineseCheckers4", "shogi_ctk",
	"eightPuzzle", "firefighter", "knightThrough", "linesOfAction", "pentago", "quarto",
	"sheepAndWolf", "skirmish", "tictactoe_3d_2player", "ttcc4_2player", "zhadu", "roshambo2",
	"gt_chicken", "hanoi", "kalaha_2009", "othello-comp2007", "pacman3p", "snake_2009",
}

// diffResult is what one game's differential run found.
type diffResult struct {
	key            string
	proverErr      error // the prover cannot handle the game
	propnetErr     error // the propnet cannot, though the prover can
	disagreement   string
	steps, matches int
}

// TestDifferential plays seeded random matches with the prover and the
// propnet side by side and compares, at every step, the state, every role's
// legal moves, the terminal flag and the goals. It reports agreement and
// coverage: the games the propnet handles among those the prover handles.
func TestDifferential(t *testing.T) {
	dir := sharedDir(t)
	keys, budget, seeds := diffSample, 10*time.Second, uint64(8)
	switch {
	case os.Getenv("GDLAB_DIFF") == "full":
		keys, budget = allGames(dir), 30*time.Second
	case testing.Short():
		t.Skip("differential run skipped in -short mode")
	case os.Getenv("GDLAB_QUICK") != "":
		// CI: the same games, two matches each; TestTraces replays the
		// whole corpus.
		budget, seeds = 3*time.Second, 2
	}
	results := make([]diffResult, len(keys))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for i, key := range keys {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			results[i] = differential(dir, key, budget, seeds)
		}()
	}
	wg.Wait()
	proverOK, both, steps, matches := 0, 0, 0, 0
	for _, r := range results {
		switch {
		case r.proverErr != nil:
			t.Logf("%s: prover cannot: %v", r.key, short(r.proverErr))
			continue
		case r.propnetErr != nil:
			t.Logf("%s: propnet cannot: %v", r.key, short(r.propnetErr))
		case r.disagreement != "":
			t.Errorf("%s: %s", r.key, r.disagreement)
			both++
		default:
			both++
		}
		proverOK++
		steps += r.steps
		matches += r.matches
	}
	t.Logf("coverage: the propnet handles %d of the %d games the prover handles (%.1f%%); %d games in all; %d matches, %d steps compared",
		both, proverOK, 100*float64(both)/float64(max(proverOK, 1)), len(keys), matches, steps)
}

func short(err error) string {
	s := err.Error()
	if len(s) > 160 {
		s = s[:160] + "..."
	}
	return s
}

// allGames lists the corpus game keys.
func allGames(dir string) []string {
	entries, _ := os.ReadDir(filepath.Join(dir, "games"))
	var keys []string
	for _, e := range entries {
		if e.IsDir() {
			keys = append(keys, e.Name())
		}
	}
	sort.Strings(keys)
	return keys
}

// buildTimeout bounds the prover's and the propnet's construction, apart
// from the budget for matches, so that a loaded machine does not turn a slow
// build into a coverage gap. It guards against hangs: racer4, the slowest
// build, took 58 s on a machine running three other builds.
const buildTimeout = 5 * time.Minute

// netCache keeps the networks of the sample games, which both
// TestDifferential and TestTraces build: building the large ones is most of
// what the two tests cost.
var netCache sync.Map // game key -> *cachedNet

type cachedNet struct {
	once sync.Once
	net  *propnet.Net
	err  error
}

// buildNet builds a corpus game's network within buildTimeout, once per
// test binary for the games of diffSample.
func buildNet(dir, key string) (*propnet.Net, error) {
	build := func() (*propnet.Net, error) {
		ctx, cancel := context.WithTimeout(context.Background(), buildTimeout)
		defer cancel()
		return propnet.Load(ctx, kifPath(dir, key), propnet.Options{})
	}
	if !slices.Contains(diffSample, key) {
		return build()
	}
	e, _ := netCache.LoadOrStore(key, &cachedNet{})
	c := e.(*cachedNet)
	c.once.Do(func() { c.net, c.err = build() })
	return c.net, c.err
}

// differential runs one game: once both reasoners are built, seeded matches
// 1..seeds until the budget is spent.
func differential(dir, key string, budget time.Duration, seeds uint64) diffResult {
	res := diffResult{key: key}
	d, err := gdl.ParseFile(kifPath(dir, key))
	if err != nil {
		res.proverErr = err
		return res
	}
	pr, err := loadProver(d, buildTimeout)
	if err != nil {
		res.proverErr = err
		return res
	}
	net, err := buildNet(dir, key)
	if err != nil {
		res.propnetErr = err
		return res
	}
	deadline := time.Now().Add(budget)
	for seed := uint64(1); time.Now().Before(deadline) && seed <= seeds; seed++ {
		n, dis := compareMatch(pr, net, seed, deadline)
		res.steps += n
		res.matches++
		if dis != "" {
			res.disagreement = fmt.Sprintf("seed %d: %s", seed, dis)
			return res
		}
	}
	return res
}

// loadProver builds the prover, giving up after budget (the prover takes no
// context; an abandoned build finishes in the background).
func loadProver(d *gdl.Description, budget time.Duration) (*prover.Prover, error) {
	type built struct {
		pr  *prover.Prover
		err error
	}
	ch := make(chan built, 1)
	go func() {
		pr, err := prover.New(d)
		if err == nil {
			_, err = game.LegalAll(pr, pr.Initial()) // the first state must be computable too
		}
		ch <- built{pr, err}
	}()
	select {
	case b := <-ch:
		return b.pr, b.err
	case <-time.After(budget):
		return nil, fmt.Errorf("prover did not load within %v", budget)
	}
}

// compareMatch plays one random match with both machines (through
// gametest.Differ, the prover as the reference) and returns the states
// compared and the first disagreement. A prover error ends the match
// quietly: the prover has hit one of its own limits.
func compareMatch(pr *prover.Prover, net *propnet.Net, seed uint64, deadline time.Time) (int, string) {
	ctx, cancel := context.WithDeadline(context.Background(), deadline)
	defer cancel()
	steps, d, err := gametest.Differ(ctx, pr, net, int64(seed), 200)
	switch {
	case errors.Is(err, gametest.ErrReference), ctx.Err() != nil:
		return steps, ""
	case err != nil:
		return steps, "propnet: " + err.Error()
	case d != nil:
		return steps, d.Error()
	}
	return steps, ""
}
