package emulate

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"gdlab/engine/gdl"
)

// CounterKind says how a Counter reads a number from a state.
type CounterKind int

// The kinds of counter.
const (
	// SetCount counts the base propositions of a set that hold.
	SetCount CounterKind = iota
	// HeldValue reads the number held by the one proposition of a
	// successor-counting family that holds, such as (box_count xplayer 5).
	HeldValue
)

// Counter reads a number from a state: the cardinality of a set of base
// propositions, or the value held in successor-counting propositions.
type Counter struct {
	Kind   CounterKind
	Bases  []int  // the base propositions read (indices into Net.BaseProps)
	Values []int  // HeldValue: the number each of Bases holds
	Text   string // the set as a pattern, such as "(cell * * black)"
}

// count returns the counter's number in a state; ok is false for a
// HeldValue counter when no proposition (or more than one) holds.
func (c *Counter) count(has func(int) bool) (n int, ok bool) {
	if c.Kind == SetCount {
		for _, b := range c.Bases {
			if has(b) {
				n++
			}
		}
		return n, true
	}
	found := false
	for i, b := range c.Bases {
		if has(b) {
			if found {
				return 0, false
			}
			n, found = c.Values[i], true
		}
	}
	return n, found
}

// max returns the largest number the counter can read.
func (c *Counter) max() int {
	if c.Kind == SetCount {
		return len(c.Bases)
	}
	m := 0
	for _, v := range c.Values {
		m = max(m, v)
	}
	return m
}

// family is the base propositions sharing a relation name and arity, with
// their arguments as text.
type family struct {
	name  string
	bases []int
	args  [][]string // per member
}

func (f *family) arity() int { return len(f.args[0]) }

// families groups base propositions by relation name and arity, in order
// of first appearance.
func families(facts []string) []*family {
	byKey := map[string]*family{}
	var out []*family
	for b, text := range facts {
		name, args := splitFact(text)
		key := name + "/" + strconv.Itoa(len(args))
		f := byKey[key]
		if f == nil {
			f = &family{name: name}
			byKey[key] = f
			out = append(out, f)
		}
		f.bases = append(f.bases, b)
		f.args = append(f.args, args)
	}
	return out
}

// splitFact returns a fact's relation name and its arguments as text.
func splitFact(text string) (string, []string) {
	t, err := gdl.ParseTerm(text)
	if err != nil {
		return text, nil
	}
	fn, ok := t.(*gdl.Func)
	if !ok {
		return t.String(), nil
	}
	args := make([]string, len(fn.Args))
	for i, a := range fn.Args {
		args[i] = a.String()
	}
	return fn.Name, args
}

// distinct returns the distinct values of argument i, sorted.
func (f *family) distinct(i int) []string {
	seen := map[string]bool{}
	var out []string
	for _, a := range f.args {
		if !seen[a[i]] {
			seen[a[i]] = true
			out = append(out, a[i])
		}
	}
	sort.Strings(out)
	return out
}

// pattern renders the members whose argument i is v as "(name * v *)",
// with * for every argument other than i, and, when held >= 0, # for the
// counted argument held.
func (f *family) pattern(i int, v string, held int) string {
	parts := []string{f.name}
	for j := 0; j < f.arity(); j++ {
		switch {
		case j == i:
			parts = append(parts, v)
		case j == held:
			parts = append(parts, "#")
		default:
			parts = append(parts, "*")
		}
	}
	return "(" + strings.Join(parts, " ") + ")"
}

// setCounter counts the members whose argument i is v (every member when
// i < 0).
func (f *family) setCounter(i int, v string) Counter {
	c := Counter{Kind: SetCount, Text: f.name}
	if i >= 0 {
		c.Text = f.pattern(i, v, -1)
	} else if f.arity() > 0 {
		c.Text = f.pattern(-1, "", -1)
	}
	for k, a := range f.args {
		if i < 0 || a[i] == v {
			c.Bases = append(c.Bases, f.bases[k])
		}
	}
	return c
}

// positions returns the number of distinct argument tuples once argument i
// is ignored: the squares of a board whose argument i says who owns them.
func (f *family) positions(i int) int {
	seen := map[string]bool{}
	for _, a := range f.args {
		rest := append(append([]string(nil), a[:i]...), a[i+1:]...)
		seen[strings.Join(rest, " ")] = true
	}
	return len(seen)
}

// heldArg returns the argument (other than skip) whose values are all
// integers forming a run of at least three consecutive numbers, and whose
// members, for each value of skip, differ only in it: a successor-counting
// family. It returns -1 when there is none.
func (f *family) heldArg(skip int) int {
	want := 1 // (score 5): one counter for everybody
	if skip >= 0 {
		want = 2 // (score xplayer 5): one counter per role
	}
	if f.arity() != want {
		return -1
	}
	for i := 0; i < f.arity(); i++ {
		if i != skip && consecutiveInts(f.distinct(i)) {
			return i
		}
	}
	return -1
}

// consecutiveInts reports whether the values are at least three integers
// forming a run n, n+1, ...: the domain of a successor relation.
func consecutiveInts(vals []string) bool {
	if len(vals) < 3 {
		return false
	}
	ns := make([]int, len(vals))
	for k, v := range vals {
		n, err := strconv.Atoi(v)
		if err != nil {
			return false
		}
		ns[k] = n
	}
	sort.Ints(ns)
	for k := 1; k < len(ns); k++ {
		if ns[k] != ns[k-1]+1 {
			return false
		}
	}
	return true
}

// heldCounter reads the integer argument held of the members whose
// argument i is v (every member when i < 0).
func (f *family) heldCounter(i int, v string, held int) Counter {
	c := Counter{Kind: HeldValue, Text: f.pattern(i, v, held)}
	for k, a := range f.args {
		if i >= 0 && a[i] != v {
			continue
		}
		n, _ := strconv.Atoi(a[held])
		c.Bases = append(c.Bases, f.bases[k])
		c.Values = append(c.Values, n)
	}
	return c
}

// describe renders a counter for explanations.
func (c *Counter) describe() string {
	if c.Kind == SetCount {
		return fmt.Sprintf("|%s| (%d propositions)", c.Text, len(c.Bases))
	}
	return fmt.Sprintf("the number # in %s (%d..%d)", c.Text, minInt(c.Values), c.max())
}

func minInt(xs []int) int {
	m := 0
	for k, x := range xs {
		if k == 0 || x < m {
			m = x
		}
	}
	return m
}
