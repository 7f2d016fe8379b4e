package mcts

// What the external test package (positions_test.go) needs of the internal
// tests: the exhaustive solver's entry points and random lines.
var (
	RootValues = rootValues
	UpperValue = upperValue
	RandomLine = randomLine
)
