package draw

import (
	"math"
	"math/rand/v2"
	"testing"
)

// TestMapExact checks, over every 16-bit x, that the accepted x split
// evenly among the results: the draw is exactly uniform, not nearly.
func TestMapExact(t *testing.T) {
	for _, n := range []uint32{1, 2, 3, 7, 71, 100, 255, 1000, 4097, 65535, 65536} {
		th := Threshold(n)
		count := make([]int, n)
		for x := range uint64(MaxBound) {
			if j, ok := Map(x, n, th); ok {
				count[j]++
			}
		}
		want := MaxBound / int(n)
		for j, c := range count {
			if c != want {
				t.Fatalf("n=%d: result %d accepted %d of the 2^16 pieces, want %d", n, j, c, want)
			}
		}
	}
}

// TestBelowUniform draws from a seeded generator and checks the counts
// with a chi-square test at the 0.1% level, and that every draw is in
// range.
func TestBelowUniform(t *testing.T) {
	for _, n := range []uint32{2, 6, 71, 300} {
		s := NewSource(rand.New(rand.NewPCG(uint64(n), 7)))
		const per = 2000
		count := make([]float64, n)
		for range int(n) * per {
			j := s.Below(n)
			if j >= n {
				t.Fatalf("n=%d: drew %d", n, j)
			}
			count[j]++
		}
		chi := 0.0
		for _, c := range count {
			chi += (c - per) * (c - per) / per
		}
		// Wilson-Hilferty: the chi-square quantile at 0.999.
		k := float64(n - 1)
		q := k * math.Pow(1-2/(9*k)+3.09*math.Sqrt(2/(9*k)), 3)
		if chi > q {
			t.Errorf("n=%d: chi-square %.1f over %.1f", n, chi, q)
		}
	}
}

// TestBelowUsesEveryPiece checks that four draws take one word.
func TestBelowUsesEveryPiece(t *testing.T) {
	calls := 0
	s := NewSource(rand.New(countingSource{&calls}))
	for range 8 {
		s.Below(2) // 2 divides 2^16: nothing is rejected
	}
	if calls != 2 {
		t.Errorf("8 draws took %d words, want 2", calls)
	}
}

type countingSource struct{ n *int }

func (c countingSource) Uint64() uint64 {
	*c.n++
	return 0x0123456789abcdef * uint64(*c.n)
}
