package game

// JavaRandom reproduces java.util.Random, the generator ggp-base used to pick
// the moves of the shared traces, so that gdlab can regenerate those matches
// byte for byte from their seeds.
type JavaRandom struct{ s int64 }

const (
	javaMultiplier = 0x5DEECE66D
	javaMask       = (1 << 48) - 1
)

// NewJavaRandom returns a generator seeded as `new java.util.Random(seed)`.
func NewJavaRandom(seed int64) *JavaRandom {
	return &JavaRandom{s: (seed ^ javaMultiplier) & javaMask}
}

func (r *JavaRandom) next(bits uint) int32 {
	r.s = (r.s*javaMultiplier + 0xB) & javaMask
	return int32(r.s >> (48 - bits))
}

// Intn returns a value in [0, n) as Java's nextInt(n) does; n must be positive.
func (r *JavaRandom) Intn(n int) int {
	bound := int32(n)
	if bound&(-bound) == bound { // a power of two
		return int((int64(bound) * int64(r.next(31))) >> 31)
	}
	for {
		b := r.next(31)
		v := b % bound
		if b-v+(bound-1) >= 0 { // no int32 overflow: the draw is unbiased
			return int(v)
		}
	}
}
