package native_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"gdlab/engine/game"
	"gdlab/engine/game/gametest"
	"gdlab/engine/propnet"
	"gdlab/engine/propnet/native"
)

// sharedDir is ../shared beside the repository, or GDLAB_SHARED.
func sharedDir() string {
	if d := os.Getenv("GDLAB_SHARED"); d != "" {
		return d
	}
	return filepath.Join("..", "..", "..", "..", "shared")
}

func loadFlat(t *testing.T, key string) *propnet.Flat {
	t.Helper()
	path := filepath.Join(sharedDir(), "games", key, key+".kif")
	net, err := propnet.Load(context.Background(), path, propnet.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := propnet.NewFlat(net)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// games are the corpus games the native lanes are checked on: under
// GDLAB_QUICK or -short four benchmark games, reversi's wide goal code
// among them; otherwise the other benchmark games too and more of other
// kinds (simultaneous moves, three players, step counters).
func games() []string {
	quick := []string{"ticTacToe", "connectFour", "breakthrough", "reversi"}
	if testing.Short() || os.Getenv("GDLAB_QUICK") != "" {
		return quick
	}
	return append(quick, "breakthroughSmall", "speedChess", "hex", "chinook", "pentago",
		"sheepAndWolf", "connectFourSimultaneous", "blocker", "nineBoardTicTacToe", "knightThrough", "checkers", "3pConnectFour")
}

// stream records a stream's ended playouts: their goals, in order, and
// the joint moves played.
func stream(t *testing.T, f *propnet.Flat, seed uint64, n int) ([]int, int) {
	t.Helper()
	goals, steps, err := streamErr(f, seed, n)
	if err != nil {
		t.Fatal(err)
	}
	return goals, steps
}

// TestNativeLanesMatchInterpreted streams the same seeded playouts on the
// interpreted lanes and on the native ones: every playout must end with
// the same goals after the same moves, since both draw the same numbers
// and must compute the same gates. It also checks that the plugin lands in
// the cache and that a second load builds nothing.
func TestNativeLanesMatchInterpreted(t *testing.T) {
	cache := t.TempDir()
	for _, key := range games() {
		t.Run(key, func(t *testing.T) {
			f := loadFlat(t, key)
			nf, rep, err := native.Load(context.Background(), f, native.Options{CacheDir: cache})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Cached {
				t.Errorf("first load of %s came from an empty cache", key)
			}
			t.Logf("%s: built in %v, opened in %v", key, rep.Build.Round(1e6), rep.Open.Round(1e6))
			for seed := uint64(1); seed <= 3; seed++ {
				wantGoals, wantSteps := stream(t, f, seed, 200)
				gotGoals, gotSteps := stream(t, nf, seed, 200)
				if gotSteps != wantSteps || !slices.Equal(gotGoals, wantGoals) {
					t.Fatalf("seed %d: native lanes played %d moves, interpreted %d; goals equal: %v", seed, gotSteps, wantSteps, slices.Equal(gotGoals, wantGoals))
				}
			}
			if _, err := os.Stat(rep.Path); err != nil {
				t.Errorf("the plugin is not in the cache: %v", err)
			}
			_, again, err := native.Load(context.Background(), f, native.Options{CacheDir: cache})
			if err != nil {
				t.Fatal(err)
			}
			if !again.Cached || again.Build != 0 {
				t.Errorf("second load: cached %v, built in %v", again.Cached, again.Build)
			}
		})
	}
}

// TestNativeConforms runs the game contract on a native Flat, whose
// batches run on native lanes, and compares it with the network.
func TestNativeConforms(t *testing.T) {
	f := loadFlat(t, "connectFour")
	nf, _, err := native.Load(context.Background(), f, native.Options{CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	gametest.Conform(t, nf, 3, 0)
	gametest.Compare(t, f.Net, nf, []int64{1, 2, 3}, 0)
	// A batch from the initial state plays the same playouts on native
	// lanes as on interpreted ones.
	want, wantSteps, err := f.NewFlatSim().Playouts(game.NewRand(4), 64, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, gotSteps, err := nf.NewFlatSim().Playouts(game.NewRand(4), 64, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	if gotSteps != wantSteps || !slices.Equal(got, want) {
		t.Errorf("a native batch played %d moves, the interpreted one %d; goals equal: %v", gotSteps, wantSteps, slices.Equal(got, want))
	}
}

// TestNativeErrors: a missing go command and a wrong one are reported
// with the reason, and no plugin is left in the cache.
func TestNativeErrors(t *testing.T) {
	f := loadFlat(t, "buttons") // a game no other test loads: Load reuses the kernels a process has opened
	cache := t.TempDir()
	_, _, err := native.Load(context.Background(), f, native.Options{CacheDir: cache, Go: filepath.Join(cache, "no-go")})
	if err == nil || !strings.Contains(err.Error(), "no-go") {
		t.Errorf("a missing go command: %v", err)
	}
	fake := filepath.Join(cache, "go")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\necho go1.0\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, _, err = native.Load(context.Background(), f, native.Options{CacheDir: cache, Go: fake})
	if err == nil || !strings.Contains(err.Error(), "go1.0") {
		t.Errorf("a go command of another version: %v", err)
	}
	if so, _ := filepath.Glob(filepath.Join(cache, "*.so")); len(so) != 0 {
		t.Errorf("failed builds left %v", so)
	}
}

// TestNativeCorpus compares, outside -short and GDLAB_QUICK, the native and
// the interpreted lanes on every corpus game whose network builds within
// corpusBuild: a seeded stream of 100 playouts, the same goals after the
// same moves (or the same error at the same point), two games at a time.
// It logs how many games it compared and how many it skipped.
func TestNativeCorpus(t *testing.T) {
	if testing.Short() || os.Getenv("GDLAB_QUICK") != "" {
		t.Skip("every corpus game: outside -short and GDLAB_QUICK")
	}
	dirs, err := os.ReadDir(filepath.Join(sharedDir(), "games"))
	if err != nil {
		t.Skipf("no corpus: %v", err)
	}
	cache := t.TempDir()
	var compared, skipped atomic.Int32
	t.Cleanup(func() {
		t.Logf("%d games compared, %d skipped (no network within %v)", compared.Load(), skipped.Load(), corpusBuild)
	})
	slots := make(chan struct{}, 2)
	for _, d := range dirs {
		key := d.Name()
		path := filepath.Join(sharedDir(), "games", key, key+".kif")
		if _, err := os.Stat(path); err != nil {
			continue
		}
		t.Run(key, func(t *testing.T) {
			t.Parallel()
			slots <- struct{}{}
			defer func() { <-slots }()
			ctx, cancel := context.WithTimeout(context.Background(), corpusBuild)
			net, err := propnet.Load(ctx, path, propnet.Options{})
			cancel()
			if err != nil {
				skipped.Add(1)
				t.Skipf("the network cannot: %v", err)
			}
			f, err := propnet.NewFlat(net)
			if err != nil {
				t.Fatal(err)
			}
			nf, _, err := native.Load(context.Background(), f, native.Options{CacheDir: cache})
			if err != nil {
				t.Fatal(err)
			}
			want, wantSteps, wantErr := streamErr(f, 1, 100)
			got, gotSteps, gotErr := streamErr(nf, 1, 100)
			if gotSteps != wantSteps || !slices.Equal(got, want) || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
				t.Fatalf("native lanes played %d moves (%v), interpreted %d (%v); goals equal: %v", gotSteps, gotErr, wantSteps, wantErr, slices.Equal(got, want))
			}
			compared.Add(1)
		})
	}
}

// corpusBuild bounds a corpus network's build in TestNativeCorpus.
const corpusBuild = 30 * time.Second

// streamErr is stream that returns the error, with what was played before
// it, rather than failing.
func streamErr(f *propnet.Flat, seed uint64, n int) ([]int, int, error) {
	var goals []int
	_, steps, err := f.NewLanes().Stream(context.Background(), game.NewRand(seed), n, func(g []int) {
		goals = append(goals, g...)
	})
	return goals, steps, err
}
