// Package bitboard holds hand-written simulators of two corpus games,
// Connect Four (connectFour: 8 columns, 6 rows) and Breakthrough
// (breakthrough: 8x8), for benchmarks only. They play uniformly random
// playouts under exactly the corpus rules, so their rate is the physical
// ceiling against which the propnet's rate is reported.
package bitboard
