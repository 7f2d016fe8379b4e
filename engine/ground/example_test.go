package ground_test

import (
	"context"
	"fmt"

	"gdlab/engine/gdl"
	"gdlab/engine/ground"
)

func ExampleGround() {
	d, _ := gdl.Parse("switch.kif", []byte(`
		(role p)
		(init off)
		(<= (legal p flip) (true off))
		(<= (legal p flip) (true on))
		(<= (next on) (does p flip) (true off))
		(<= (next off) (does p flip) (true on))
		(<= terminal (true on))
		(<= (goal p 100) (true on))`))
	p, err := ground.Ground(context.Background(), d, ground.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(p)
	// Output:
	// (<= (legal p flip) (true off))
	// (<= (legal p flip) (true on))
	// (<= (goal p 100) (true on))
	// (<= terminal (true on))
	// (<= (next on) (true off) (does p flip))
	// (<= (next off) (true on) (does p flip))
}
