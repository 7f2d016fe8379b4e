// Package draw turns 16-bit pieces of a random word into uniform draws
// below small bounds, so that one Uint64 of a generator serves four
// draws. The lanes' rejection draw (which tries several moves a lane and
// step) and the hand-written bitboards (which give the benchmarks their
// ceiling) draw this way from the same generator, so that neither is
// faster for its random numbers alone.
//
// A draw is Lemire's multiply-and-shift on 16 bits: x in [0, 2^16) maps
// to (x*n)>>16, and the few x whose low product half falls below
// Threshold(n) are rejected, which leaves every result in [0, n) exactly
// 2^16/n (rounded down) accepted x.
package draw

import "math/rand/v2"

// MaxBound is the largest bound a 16-bit draw can serve.
const MaxBound = 1 << 16

// Threshold returns the low product halves that a draw below n must
// reject: (2^16 - n) mod n. n must be in [1, MaxBound].
func Threshold(n uint32) uint32 { return (MaxBound - n) % n }

// Map maps x, whose low 16 bits are used, to a draw below n, with t =
// Threshold(n); ok is false when x must be rejected.
func Map(x uint64, n, t uint32) (j uint32, ok bool) {
	m := uint32(x&0xffff) * n
	return m >> 16, m&0xffff >= t
}

// Source hands out draws from the 16-bit pieces of its generator's
// words, one Uint64 for four draws but the rejected ones. It is not safe
// for concurrent use.
type Source struct {
	rng  *rand.Rand
	buf  uint64
	left uint
}

// NewSource returns a Source that draws from rng.
func NewSource(rng *rand.Rand) *Source { return &Source{rng: rng} }

// Use makes s draw from rng, dropping the pieces left of the last word
// unless rng is the generator s already draws from.
func (s *Source) Use(rng *rand.Rand) {
	if rng != s.rng {
		*s = Source{rng: rng}
	}
}

// Below returns a uniform draw in [0, n), for n in [1, MaxBound].
func (s *Source) Below(n uint32) uint32 {
	t := Threshold(n)
	for {
		if s.left == 0 {
			s.buf, s.left = s.rng.Uint64(), 4
		}
		j, ok := Map(s.buf, n, t)
		s.buf >>= 16
		s.left--
		if ok {
			return j
		}
	}
}
