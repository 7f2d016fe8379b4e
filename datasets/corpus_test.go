package datasets

import (
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"gdlab/engine/game"
	"gdlab/engine/prover"
)

// comparison says how a curated game is compared with its counterpart in the
// public repository (../shared/games/<key>). Counts are per effort: quick,
// normal, full.
type comparison struct {
	key  string // corpus key
	game string // the curated game compared, or
	// generate builds the compared rules when the corpus holds another
	// instance of a generated family than the committed ones.
	generate func() (*Rulesheet, error)
	perft    [3]int // perft depth compared; 0: none
	seeds    [3]int // seeded playouts compared; 0: none
	// statistical compares the outcome distributions of independent samples
	// (a chi-square test) instead of seed by seed, for rules whose move
	// choices do not correspond one to one.
	statistical bool
	why         string // why counts are small or absent, for the log
}

// comparisons lists every corpus comparison. Seed counts follow the cost of
// the reference prover on the corpus rules.
var comparisons = []comparison{
	{key: "nim1", game: "nim", perft: [3]int{12, 12, 12}, seeds: [3]int{50, 1000, 1000}},
	{key: "ticTacToe", game: "ticTacToe", perft: [3]int{9, 9, 9}, seeds: [3]int{50, 1000, 1000}},
	{key: "conn4", game: "connectFour", perft: [3]int{3, 5, 5}, seeds: [3]int{10, 100, 1000}},
	{key: "breakthrough", game: "breakthrough", perft: [3]int{1, 2, 3}, seeds: [3]int{5, 50, 1000}},
	{key: "breakthroughSmall", game: "breakthroughSmall", perft: [3]int{1, 2, 3}, seeds: [3]int{0, 5, 1000}},
	{key: "escortLatch", game: "escortLatchBreakthrough", perft: [3]int{2, 3, 3}, seeds: [3]int{5, 100, 1000}},
	{key: "reversi", game: "reversi", perft: [3]int{3, 4, 5}, seeds: [3]int{0, 10, 1000}},
	{key: "dotsAndBoxes", game: "dotsAndBoxes", perft: [3]int{1, 2, 2}, seeds: [3]int{5, 50, 1000}},
	{key: "nineBoardTicTacToe", game: "nineBoardTicTacToe", perft: [3]int{2, 3, 3}, seeds: [3]int{5, 50, 1000}},
	{key: "nineBoardTicTacToePie", game: "nineBoardTicTacToePie", perft: [3]int{2, 3, 3}, seeds: [3]int{5, 50, 1000}},
	{key: "kalaha6x2x4", game: "kalaha", seeds: [3]int{50, 300, 1000}, statistical: true,
		why: "the corpus game sows one seed per move, so perft differs and seeds do not correspond; TestKalahaSowing compares states move by move"},
	{key: "blocker", game: "blocker", perft: [3]int{1, 2, 2}, seeds: [3]int{20, 300, 1000}},
	{key: "3pConnectFour", game: "threePlayerConnectFour", perft: [3]int{3, 4, 4}, seeds: [3]int{5, 50, 1000}},
	{key: "eightPuzzle", game: "eightPuzzle", perft: [3]int{6, 10, 12}, seeds: [3]int{5, 50, 1000},
		why: "random playouts never solve the puzzle, so seeded outcomes are all 0; perft and the shared traces carry the comparison"},
	{key: "untwistycomplex2", generate: corridorGen(7, false), perft: [3]int{7, 7, 7}, seeds: [3]int{50, 1000, 1000}},
	{key: "hex", generate: hexGen(9, false), perft: [3]int{1, 2, 2}, seeds: [3]int{2, 20, 1000}},
	{key: "hexPie", generate: hexGen(9, true), perft: [3]int{1, 2, 2}, seeds: [3]int{2, 20, 1000}},
}

// TestCorpus compares curated games with their counterparts in the public
// repository: replaying the shared ggp-base traces where the vocabulary is
// the same, then perft counts and seeded random playouts (the same seed gives
// the same move choices when the legal move lists correspond, so outcomes
// must agree seed by seed), or the outcome distributions.
func TestCorpus(t *testing.T) {
	shared := sharedDir(t)
	for _, c := range comparisons {
		t.Run(c.key, func(t *testing.T) {
			t.Parallel()
			ours, err := c.rules()
			if err != nil {
				t.Fatal(err)
			}
			theirs, err := LoadDir(filepath.Join(shared, "games", c.key))
			if err != nil {
				t.Fatal(err)
			}
			mine := newProver(t, ours)
			if link := ours.Meta.Corpus; link != nil && link.Vocabulary {
				replayShared(t, mine, shared, c.key)
			}
			e := testEffort()
			if c.perft[e] == 0 && c.seeds[e] == 0 {
				if c.why != "" {
					t.Logf("%s effort: %s", e, c.why)
				}
				return
			}
			corpus := newProver(t, theirs)
			comparePerft(t, mine, corpus, c.perft[e])
			if c.statistical {
				compareDistributions(t, mine, corpus, c.seeds[e])
			} else {
				compareSeeded(t, mine, corpus, c.seeds[e])
			}
			if c.why != "" {
				t.Logf("%s effort: %s", e, c.why)
			}
		})
	}
}

// TestCorpusLinks checks that every game claiming a corpus counterpart is
// compared with it, and that the counterpart exists.
func TestCorpusLinks(t *testing.T) {
	compared := map[string]bool{}
	for _, c := range comparisons {
		compared[c.key] = true
	}
	shared := ""
	if dir := sharedCandidate(); dir != "" {
		shared = dir
	}
	for _, name := range List() {
		link := loadGame(t, name).Meta.Corpus
		if link == nil {
			continue
		}
		if !compared[link.Key] {
			t.Errorf("%s: meta.json links corpus game %s, which no comparison covers", name, link.Key)
		}
		if !link.Same && link.Differences == "" {
			t.Errorf("%s: rules differ from corpus %s but meta.json does not say how", name, link.Key)
		}
		if shared != "" {
			if _, err := os.Stat(filepath.Join(shared, "games", link.Key, "METADATA")); err != nil {
				t.Errorf("%s: corpus game %s not found: %v", name, link.Key, err)
			}
		}
	}
}

// sharedCandidate returns the shared directory if present, else "".
func sharedCandidate() string {
	dir := os.Getenv("GDLAB_SHARED")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared")
	}
	if _, err := os.Stat(filepath.Join(dir, "games")); err != nil {
		return ""
	}
	return dir
}

func (c comparison) rules() (*Rulesheet, error) {
	if c.generate != nil {
		return c.generate()
	}
	return Game(c.game)
}

// replayShared replays the shared ggp-base traces of key through m.
func replayShared(t *testing.T, m *prover.Prover, shared, key string) {
	t.Helper()
	f, err := os.Open(filepath.Join(shared, "traces", key+".jsonl"))
	if err != nil {
		t.Logf("no shared traces: %v", err)
		return
	}
	defer f.Close()
	traces, err := game.ReadTraces(f)
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range traces {
		d, err := game.Replay(context.Background(), m, tr)
		if err != nil {
			t.Errorf("trace seed %d: %v", tr.Seed, err)
		} else if d != nil {
			t.Errorf("trace seed %d: %v", tr.Seed, d)
		}
	}
	t.Logf("replayed %d shared traces (%s) step by step: states, legal moves, terminal and goals agree", len(traces), traceLengths(traces))
}

func traceLengths(trs []*game.Trace) string {
	s := ""
	for i, tr := range trs {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("%d steps", len(tr.Steps)-1)
	}
	return s
}

// comparePerft requires equal perft counts to the given depth.
func comparePerft(t *testing.T, mine, corpus game.Machine, depth int) {
	t.Helper()
	if depth == 0 {
		return
	}
	ctx := context.Background()
	a, err := game.Perft(ctx, mine, mine.Initial(), depth)
	if err != nil {
		t.Fatal(err)
	}
	b, err := game.Perft(ctx, corpus, corpus.Initial(), depth)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a, b) {
		t.Errorf("perft differs:\n curated %v\n corpus  %v", a, b)
		return
	}
	t.Logf("perft agrees to depth %d: %s", depth, perftText(a))
}

func perftText(lv []game.PerftLevel) string {
	s := ""
	for i, l := range lv {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("%d/%d/%d", l.Sequences, l.States, l.Terminals)
	}
	return s + " (sequences/states/terminals)"
}

// compareSeeded plays n seeded random playouts on both machines: since the
// legal move lists correspond, each seed must give the same number of
// steps and the same goals.
func compareSeeded(t *testing.T, mine, corpus game.Machine, n int) {
	t.Helper()
	if n == 0 {
		return
	}
	outcomes := map[string]int{}
	steps := 0
	for i := 0; i < n; i++ {
		a := playout(t, mine, seedOf(i))
		b := playout(t, corpus, seedOf(i))
		if a.Steps != b.Steps || !slices.Equal(a.Goals, b.Goals) {
			t.Fatalf("seed %d: curated game ends after %d steps with goals %v, corpus game after %d with %v",
				seedOf(i), a.Steps, a.Goals, b.Steps, b.Goals)
		}
		outcomes[goalsText(a.Goals)]++
		steps += a.Steps
	}
	t.Logf("%d seeded playouts agree seed by seed; mean length %.1f; outcomes %s", n, float64(steps)/float64(n), outcomeSummary(outcomes))
}

// compareDistributions plays n playouts on each machine and tests that the
// outcome distributions are the same: a chi-square test of homogeneity,
// failing below the 0.1% level.
func compareDistributions(t *testing.T, mine, corpus game.Machine, n int) {
	t.Helper()
	if n == 0 {
		return
	}
	a, b := map[string]int{}, map[string]int{}
	for i := 0; i < n; i++ {
		a[goalsText(playout(t, mine, seedOf(i)).Goals)]++
		b[goalsText(playout(t, corpus, seedOf(i)+1_000_000).Goals)]++
	}
	a, b = poolRare(a, b, 10)
	stat, df := chiSquareHomogeneity(a, b)
	p := chiSquareSurvival(stat, df)
	t.Logf("outcomes of %d playouts each: curated %s; corpus %s; chi-square %.2f with %d df, p = %.3f",
		n, outcomeSummary(a), outcomeSummary(b), stat, df, p)
	if p < 0.001 {
		t.Errorf("outcome distributions differ (p = %.2g < 0.001)", p)
	}
}

func playout(t *testing.T, m game.Machine, seed uint64) game.PlayoutResult {
	t.Helper()
	res, err := game.Playout(context.Background(), m, m.Initial(), game.NewRand(seed), maxPlayoutSteps)
	if err != nil {
		t.Fatalf("seed %d: %v", seed, err)
	}
	if !res.Terminal {
		t.Fatalf("seed %d: no terminal state after %d steps", seed, res.Steps)
	}
	return res
}

// poolRare merges the categories seen fewer than min times in both samples
// together into one, "rare", so that expected counts are not too small for
// the chi-square approximation.
func poolRare(a, b map[string]int, min int) (map[string]int, map[string]int) {
	pa, pb := map[string]int{}, map[string]int{}
	for _, m := range []map[string]int{a, b} {
		for k := range m {
			key := k
			if a[k]+b[k] < min {
				key = "rare"
			}
			pa[key], pb[key] = pa[key]+0, pb[key]+0
		}
	}
	for k, v := range a {
		if a[k]+b[k] < min {
			k = "rare"
		}
		pa[k] += v
	}
	for k, v := range b {
		if a[k]+b[k] < min {
			k = "rare"
		}
		pb[k] += v
	}
	return pa, pb
}

// chiSquareHomogeneity returns Pearson's statistic for two samples of
// category counts, and its degrees of freedom (categories - 1).
//
//	X² = Σ_k Σ_s (O_sk - E_sk)² / E_sk,  E_sk = n_s · (a_k + b_k) / (n_a + n_b)
func chiSquareHomogeneity(a, b map[string]int) (float64, int) {
	na, nb := 0, 0
	cats := map[string]bool{}
	for k, v := range a {
		na += v
		cats[k] = true
	}
	for k, v := range b {
		nb += v
		cats[k] = true
	}
	total := float64(na + nb)
	stat := 0.0
	for k := range cats {
		col := float64(a[k] + b[k])
		for _, o := range []struct{ obs, n int }{{a[k], na}, {b[k], nb}} {
			e := float64(o.n) * col / total
			d := float64(o.obs) - e
			stat += d * d / e
		}
	}
	return stat, len(cats) - 1
}

// chiSquareSurvival is P(X² ≥ x) for df degrees of freedom: the regularized
// upper incomplete gamma function Q(df/2, x/2).
func chiSquareSurvival(x float64, df int) float64 {
	if df <= 0 {
		return 1
	}
	return upperGammaQ(float64(df)/2, x/2)
}

// upperGammaQ computes Q(a, x) by its series (x < a+1) or its continued
// fraction (Numerical Recipes, gser and gcf), to about 1e-12.
func upperGammaQ(a, x float64) float64 {
	if x <= 0 {
		return 1
	}
	lg, _ := math.Lgamma(a)
	if x < a+1 {
		sum, term := 1/a, 1/a
		for n := 1; n < 1000 && math.Abs(term) > math.Abs(sum)*1e-14; n++ {
			term *= x / (a + float64(n))
			sum += term
		}
		return 1 - sum*math.Exp(-x+a*math.Log(x)-lg)
	}
	const tiny = 1e-300
	b := x + 1 - a
	c, d := 1/tiny, 1/b
	h := d
	for i := 1; i < 1000; i++ {
		an := -float64(i) * (float64(i) - a)
		b += 2
		d = an*d + b
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = b + an/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		h *= d * c
		if math.Abs(d*c-1) < 1e-14 {
			break
		}
	}
	return math.Exp(-x+a*math.Log(x)-lg) * h
}

// TestChiSquare checks the statistics against known values.
func TestChiSquare(t *testing.T) {
	for _, c := range []struct {
		x    float64
		df   int
		want float64
	}{
		{3.841458820694124, 1, 0.05},
		{5.991464547107979, 2, 0.05},
		{16.26623619623813, 3, 0.001},
		{0.5, 4, 0.9735009788392561},
	} {
		if got := chiSquareSurvival(c.x, c.df); math.Abs(got-c.want) > 1e-9 {
			t.Errorf("Q(chi2=%v, df=%d) = %v, want %v", c.x, c.df, got, c.want)
		}
	}
	stat, df := chiSquareHomogeneity(map[string]int{"a": 10, "b": 20}, map[string]int{"a": 20, "b": 10})
	if df != 1 || math.Abs(stat-6.666666666666667) > 1e-12 {
		t.Errorf("chi-square of a 2x2 table: %v with %d df, want 6.667 with 1", stat, df)
	}
}
