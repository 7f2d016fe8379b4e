package gdl_test

import (
	"errors"
	"fmt"

	"gdlab/engine/gdl"
)

// Parse a rulesheet, print it canonically and find where a rule starts.
func Example() {
	src := `; Keywords may be written in any case; other symbols keep theirs.
(ROLE robot)
(<= (LEGAL robot (go ?to)) (TRUE (at ?from)) (adjacent ?from ?to))`
	d, err := gdl.Parse("robot.kif", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(gdl.Format(d))
	fmt.Println(d.Position(d.Rules[1].Pos()))
	// Output:
	// (role robot)
	// (<= (legal robot (go ?to))
	//     (true (at ?from))
	//     (adjacent ?from ?to))
	// robot.kif:3:1
}

// A text with problems gives every one of them, positioned and sorted.
func ExampleParse_errors() {
	src := `(role robot))
(<= (legal robot ?) (true (at ?from)))
(<= (next (at ?x)) (not))`
	_, err := gdl.Parse("robot.kif", []byte(src))
	var list gdl.ErrorList
	if errors.As(err, &list) {
		fmt.Print(list.Detail())
	}
	// Output:
	// robot.kif:1:13: unexpected ')'
	// robot.kif:2:18: variable has no name after '?'
	// robot.kif:3:20: 'not' takes exactly one literal, found 0
}

// ParseTerm reads one term, as a move or a fact is written in a trace.
func ExampleParseTerm() {
	t, err := gdl.ParseTerm("(MARK 1 ?x)")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(t, gdl.IsGround(t))
	_, err = gdl.ParseTerm("(mark 1) (mark 2)")
	fmt.Println(err)
	// Output:
	// (MARK 1 ?x) false
	// 1:1: expected one term, found 2
}
