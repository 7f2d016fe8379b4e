package ground_test

import (
	"context"
	"os"
	"runtime"
	"testing"
	"time"

	"gdlab/engine/gdl"
	"gdlab/engine/ground"
)

func TestProfGame(t *testing.T) {
	key := os.Getenv("PROF_GAME")
	d, err := gdl.ParseFile(kifPath(sharedDir(t), key))
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	p, err := ground.Ground(context.Background(), d, ground.Options{MaxSize: 20_000_000, MaxWork: 2_000_000_000, NoDecompose: os.Getenv("NODEC") != ""})
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	if err != nil {
		t.Fatalf("%v after %v, heap %d MB", err, time.Since(start), ms.HeapAlloc>>20)
	}
	t.Logf("%+v heap %d MB (sys %d MB)", p.Stats, ms.HeapAlloc>>20, ms.Sys>>20)
}
