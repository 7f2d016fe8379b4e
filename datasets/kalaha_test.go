package datasets

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"gdlab/engine/game"
	"gdlab/engine/prover"
)

// TestKalahaSowing checks kalaha against the corpus game kalaha6x2x4, which
// sows one seed per move, move by move: along seeded random games of ours,
// each (sow p) is replayed in the corpus game as (pick p) followed by its
// forced (put ...) steps, and then both games must hold the same seeds in
// every pit and store and give control to the same player; at each decision
// both must offer the same pits. At our end of the game the corpus game is
// played out (its remaining moves only clear pits into stores) and the goals
// must agree.
func TestKalahaSowing(t *testing.T) {
	shared := sharedDir(t)
	theirs, err := LoadDir(filepath.Join(shared, "games", "kalaha6x2x4"))
	if err != nil {
		t.Fatal(err)
	}
	ours := newProver(t, loadGame(t, "kalaha"))
	corpus := newProver(t, theirs)
	games := map[effort]int{quick: 3, normal: 20, full: 300}[testEffort()]
	moves := 0
	for i := 0; i < games; i++ {
		moves += kalahaGame(t, ours, corpus, seedOf(i))
		if t.Failed() {
			return
		}
	}
	t.Logf("%d games, %d sowings: pits, stores, control, choices and final goals agree with kalaha6x2x4", games, moves)
}

// kalahaGame plays one seeded random game of ours alongside the corpus game
// and returns the number of sowings.
func kalahaGame(t *testing.T, ours, corpus *prover.Prover, seed uint64) int {
	rng := game.NewRand(seed)
	s, c := ours.Initial(), corpus.Initial()
	for n := 0; ; n++ {
		term, err := ours.Terminal(s)
		if err != nil {
			t.Fatal(err)
		}
		if term {
			c = corpusPlayOut(t, corpus, c)
			if a, b := game.Goals(ours, s), game.Goals(corpus, c); !slices.Equal(a, b) {
				t.Errorf("seed %d: final goals %v, corpus %v", seed, a, b)
			}
			return n
		}
		mover := moverOf(t, ours, s)
		legal := legalTexts(t, ours, s, mover)
		if want := corpusPicks(t, corpus, c, mover); !slices.Equal(legal, want) {
			t.Fatalf("seed %d move %d: we offer %v, corpus %v", seed, n, legal, want)
		}
		move := legal[rng.IntN(len(legal))]
		s = applyText(t, ours, s, mover, move)
		c = applyText(t, corpus, c, mover, strings.Replace(move, "(sow", "(pick", 1))
		c = corpusFinishSowing(t, corpus, c)
		if a, b := ours.Roles(), corpus.Roles(); !slices.Equal(a, b) {
			t.Fatalf("roles %v, corpus %v", a, b)
		}
		if a, b := s.Facts(), kalahaCorpusFacts(c.Facts()); !slices.Equal(a, b) {
			t.Fatalf("seed %d after %s (move %d): state\n %v\ncorpus\n %v", seed, move, n, a, b)
		}
	}
}

// corpusNumber matches a seed count as the corpus writes it: " s12)".
var corpusNumber = regexp.MustCompile(` s([0-9]+)\)$`)

// kalahaCorpusFacts translates corpus facts into ours: numbers s4 -> 4,
// stores pwinsouth -> southKalah; the hand and the sowing position, empty
// between sowings, are dropped.
func kalahaCorpusFacts(facts []string) []string {
	r := strings.NewReplacer("pwinsouth", "southKalah", "pwinnorth", "northKalah")
	var out []string
	for _, f := range facts {
		if strings.HasPrefix(f, "(pit ") || strings.HasPrefix(f, "(control ") {
			out = append(out, corpusNumber.ReplaceAllString(r.Replace(f), " $1)"))
		}
	}
	slices.Sort(out)
	return out
}

func moverOf(t *testing.T, m game.Machine, s game.State) int {
	for r := range m.Roles() {
		for _, mv := range legalTexts(t, m, s, r) {
			if mv != "noop" {
				return r
			}
		}
	}
	t.Fatal("no player has a move")
	return -1
}

func legalTexts(t *testing.T, m game.Machine, s game.State, role int) []string {
	ms, err := m.Legal(s, role, nil)
	if err != nil {
		t.Fatal(err)
	}
	return game.MovesText(m, role, ms)
}

// corpusPicks returns the corpus mover's pick moves, as our sow moves.
func corpusPicks(t *testing.T, m game.Machine, s game.State, role int) []string {
	var out []string
	for _, mv := range legalTexts(t, m, s, role) {
		if strings.HasPrefix(mv, "(pick ") {
			out = append(out, strings.Replace(mv, "(pick", "(sow", 1))
		}
	}
	slices.Sort(out)
	return out
}

// applyText plays role's move given as text, every other role playing noop.
func applyText(t *testing.T, m game.Machine, s game.State, role int, move string) game.State {
	joint := make([]game.Move, len(m.Roles()))
	for r := range joint {
		text := "noop"
		if r == role {
			text = move
		}
		mv, err := m.ParseMove(r, text)
		if err != nil {
			t.Fatal(err)
		}
		joint[r] = mv
	}
	ns, err := m.Next(s, joint)
	if err != nil {
		t.Fatal(err)
	}
	return ns
}

// corpusFinishSowing plays the corpus game's forced put moves until the
// sowing is over.
func corpusFinishSowing(t *testing.T, m game.Machine, s game.State) game.State {
	for {
		put, role := "", -1
		for r := range m.Roles() {
			for _, mv := range legalTexts(t, m, s, r) {
				if strings.HasPrefix(mv, "(put ") {
					put, role = mv, r
				}
			}
		}
		if put == "" {
			return s
		}
		s = applyText(t, m, s, role, put)
	}
}

// corpusPlayOut ends the corpus game once a side is empty: the only moves
// left clear pits into stores or pass, in any order.
func corpusPlayOut(t *testing.T, m game.Machine, s game.State) game.State {
	for i := 0; i < 1000; i++ {
		term, err := m.Terminal(s)
		if err != nil {
			t.Fatal(err)
		}
		if term {
			return s
		}
		legal, err := game.LegalAll(m, s)
		if err != nil {
			t.Fatal(err)
		}
		joint := make([]game.Move, len(legal))
		for r, ms := range legal {
			joint[r] = ms[0]
		}
		if s, err = m.Next(s, joint); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatal("the corpus game does not end")
	return s
}
