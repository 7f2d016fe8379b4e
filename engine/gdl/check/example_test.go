package check_test

import (
	"fmt"

	"gdlab/engine/gdl"
	"gdlab/engine/gdl/check"
)

func Example() {
	src := `(role robot)
(<= (legal robot (go ?to)) (true (at ?from)))
(<= (next (at ?to)) (does robot (go ?to)))
(<= (goal robot 100) (not (goal robot 0)))
(<= (goal robot 0) (goal robot 100))
(<= terminal (true (at home)))`
	d, err := gdl.Parse("robot.kif", []byte(src))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range check.Check(d) {
		fmt.Println(e)
	}
	// Output:
	// robot.kif:2:22: variable ?to in head of rule for legal/2 is unsafe: it occurs in no positive body literal
	// robot.kif:4:27: negation in a cycle of the dependency graph: goal/2 -> not goal/2 -> goal/2; the rules are not stratified
}

func ExampleGraph() {
	src := `(role r)
(succ 1 2) (succ 2 3)
(<= (less ?x ?y) (succ ?x ?y))
(<= (less ?x ?z) (succ ?x ?y) (less ?y ?z))
(<= (top ?x) (succ ?w ?x) (not (less ?x ?y)) (succ ?y ?z))`
	d, _ := gdl.Parse("less.kif", []byte(src))
	g := check.NewGraph(d)
	fmt.Println("components:", g.SCCs)
	fmt.Println("less/2 recursive:", g.Recursive("less/2"))
	fmt.Println("strata:", g.Strata())
	for _, e := range g.Edges {
		fmt.Printf("%s -> %s negative=%v at %s\n", e.From, e.To, e.Negative, d.Position(e.Pos))
	}
	// Output:
	// components: [[succ/2] [less/2] [role/1] [top/1]]
	// less/2 recursive: true
	// strata: [[less/2 role/1 succ/2] [top/1]]
	// less/2 -> less/2 negative=false at less.kif:4:31
	// less/2 -> succ/2 negative=false at less.kif:3:18
	// top/1 -> less/2 negative=true at less.kif:5:32
	// top/1 -> succ/2 negative=false at less.kif:5:14
}
