package game

import "testing"

// Values printed by java.util.Random itself: new Random(0).nextInt() and
// new Random(42).nextInt() are -1155484576 and -1170105035.
func TestJavaRandomMatchesJava(t *testing.T) {
	for _, c := range []struct {
		seed int64
		want int32
	}{{0, -1155484576}, {42, -1170105035}} {
		if got := NewJavaRandom(c.seed).next(32); got != c.want {
			t.Errorf("seed %d: next(32) = %d, want %d", c.seed, got, c.want)
		}
	}
}

func TestJavaRandomIntnInRange(t *testing.T) {
	r := NewJavaRandom(7)
	for _, n := range []int{1, 2, 3, 7, 8, 10, 1 << 20, 1<<30 + 1} {
		for i := 0; i < 1000; i++ {
			if v := r.Intn(n); v < 0 || v >= n {
				t.Fatalf("Intn(%d) = %d", n, v)
			}
		}
	}
}
