// Package cell is what a notebook cell can ask its kernel for: the context
// of the running cell, which the kernel cancels when the user interrupts
// it. Pass it to every long engine call, which then stops promptly:
//
//	import "gdlab/kernel/cell"
//	result, err := search.Run(cell.Context(), ...)
//
// Inside the kernel the session binds this package to each cell; compiled
// code outside a kernel gets context.Background().
package cell

import "context"

// Context returns the context of the running cell. Outside a kernel it
// returns context.Background().
func Context() context.Context { return context.Background() }
