package session

import (
	"context"
	"testing"
)

// BenchmarkGuardedCall measures the worst case for the panic guard: a
// recursive function that does nothing but call itself (fib(15), 1973
// guarded calls per op).
func BenchmarkGuardedCall(b *testing.B) {
	s, _ := newSession(b)
	if _, err := s.Eval(context.Background(), "func fib(n int) int { if n < 2 { return n }; return fib(n-1) + fib(n-2) }"); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := s.Eval(context.Background(), "fib(15)"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUnguardedCall is the same function evaluated directly by yaegi,
// without the guard, for comparison.
func BenchmarkUnguardedCall(b *testing.B) {
	s, _ := newSession(b)
	if _, err := s.interp.Eval("func fib(n int) int { if n < 2 { return n }; return fib(n-1) + fib(n-2) }"); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := s.interp.Eval("fib(15)"); err != nil {
			b.Fatal(err)
		}
	}
}
