package logic_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"gdlab/engine/gdl"
	"gdlab/engine/logic"
)

// program is the simplest Relations: names and rules.
type program struct {
	index logic.Index
	keys  []string
	rules [][]*logic.Rule
}

func (p *program) Relation(name string, arity int) int {
	i, known := p.index.Number(name, arity, len(p.keys))
	if !known {
		p.keys = append(p.keys, logic.Key(name, arity))
		p.rules = append(p.rules, nil)
	}
	return i
}

func (p *program) Len() int                    { return len(p.keys) }
func (p *program) Key(rel int) string          { return p.keys[rel] }
func (p *program) Rules(rel int) []*logic.Rule { return p.rules[rel] }

// compile compiles src into a program, failing the test on errors.
func compile(t *testing.T, src string) (*program, *logic.Store) {
	t.Helper()
	p, terms, err := tryCompile(src, 0)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	return p, terms
}

func tryCompile(src string, maxRules int) (*program, *logic.Store, error) {
	d, err := gdl.Parse("test.kif", []byte(src))
	if err != nil {
		return nil, nil, err
	}
	p, terms := &program{}, logic.NewStore()
	rules, err := logic.Compile(d, terms, p, maxRules)
	for _, r := range rules {
		p.rules[r.Head] = append(p.rules[r.Head], r)
	}
	return p, terms, err
}

// ruleText renders a compiled rule with its variables as slots (?0, ?1 ...)
// and its literal kinds spelt out.
func ruleText(p *program, terms *logic.Store, r *logic.Rule) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s%s <=", p.keys[r.Head], patternsText(terms, r.Args))
	for _, l := range r.Body {
		kind := [...]string{"pos", "neg", "distinct", "equal", "ask"}[l.Kind]
		rel := ""
		if l.Kind == logic.LitPos || l.Kind == logic.LitNeg {
			rel = " " + p.keys[l.Rel]
		}
		fmt.Fprintf(&b, " %s%s%s%v", kind, rel, patternsText(terms, l.Args), l.Vars)
	}
	return b.String()
}

func patternsText(terms *logic.Store, ps []logic.Pattern) string {
	var b strings.Builder
	b.WriteByte('(')
	for i, p := range ps {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(patternText(terms, p))
	}
	b.WriteByte(')')
	return b.String()
}

func patternText(terms *logic.Store, p logic.Pattern) string {
	switch p.Kind {
	case logic.PatGround:
		return terms.String(p.ID)
	case logic.PatVar:
		return fmt.Sprintf("?%d", p.Slot)
	}
	return "f" + patternsText(terms, p.Args)
}

func TestCompile(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      []string // the rules, relation by relation
	}{
		{"fact", "(p a (f b))", []string{"p/2(a (f b)) <="}},
		{"slots", "(<= (p ?x (f ?y)) (q ?y ?x))",
			[]string{"p/2(?1 f(?0)) <= pos q/2(?0 ?1)[0 1]"}},
		{"arities", "(<= (p ?x) (p ?x ?x))",
			[]string{"p/1(?0) <= pos p/2(?0 ?0)[0]"}},
		{"or", "(<= (p ?x) (q ?x) (or (r ?x) (s ?x)))",
			[]string{"p/1(?0) <= pos q/1(?0)[0] pos r/1(?0)[0]", "p/1(?0) <= pos q/1(?0)[0] pos s/1(?0)[0]"}},
		{"not", "(<= (p ?x) (q ?x) (not (r ?x)))",
			[]string{"p/1(?0) <= pos q/1(?0)[0] neg r/1(?0)[0]"}},
		{"distinct", "(<= (p ?x ?y) (q ?x ?y) (distinct ?x (f ?y)))",
			[]string{"p/2(?0 ?1) <= pos q/2(?0 ?1)[0 1] distinct(?0 f(?1))[0 1]"}},
		{"not distinct", "(<= (p ?x ?y) (q ?x ?y) (not (distinct ?x ?y)))",
			[]string{"p/2(?0 ?1) <= pos q/2(?0 ?1)[0 1] equal(?0 ?1)[0 1]"}},
		{"not or", "(<= (p ?x ?y) (q ?x ?y) (not (or (distinct ?x ?y) (r ?x))))",
			[]string{"p/2(?0 ?1) <= pos q/2(?0 ?1)[0 1] equal(?0 ?1)[0 1] neg r/1(?0)[0]"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, terms := compile(t, c.src)
			var got []string
			for _, rules := range p.rules {
				for _, r := range rules {
					got = append(got, ruleText(p, terms, r))
				}
			}
			if strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("compiled\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
		})
	}
}

func TestCompileErrors(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      []string
	}{
		{"unsafe head", "(<= (p ?x) (q ?y))",
			[]string{"test.kif:1:8: variable ?x in rule for p/1 is unsafe: it occurs in no positive body literal"}},
		{"unsafe not", "(<= (p ?x) (q ?x) (not (r ?y)))",
			[]string{"test.kif:1:27: variable ?y in rule for p/1 is unsafe: it occurs in no positive body literal"}},
		{"unsafe distinct", "(<= (p ?x) (q ?x) (distinct ?x ?z))",
			[]string{"test.kif:1:32: variable ?z in rule for p/1 is unsafe: it occurs in no positive body literal"}},
		{"unsafe in one disjunct", "(<= (p ?x) (or (q ?x) (r ?y)))",
			[]string{"test.kif:1:8: variable ?x in rule for p/1 is unsafe: it occurs in no positive body literal"}},
		{"true", "(<= (true a) (q a))", []string{`test.kif:1:1: rules may not define "true"`}},
		{"does and order", "(<= (p ?x) (q ?y))\n(does r a)",
			[]string{`test.kif:1:8: variable ?x in rule for p/1 is unsafe: it occurs in no positive body literal`,
				`test.kif:2:1: rules may not define "does"`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := tryCompile(c.src, 0)
			var list gdl.ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("error %v, want a gdl.ErrorList", err)
			}
			if got := strings.TrimSpace(list.Detail()); got != strings.Join(c.want, "\n") {
				t.Errorf("errors\n%s\nwant\n%s", got, strings.Join(c.want, "\n"))
			}
		})
	}
}

// TestCompileLimit checks that the bound counts rules after expanding or.
func TestCompileLimit(t *testing.T) {
	src := "(<= (p ?x) (q ?x) (or (r ?x) (s ?x)) (or (r ?x) (s ?x)))\n(q a)"
	if _, _, err := tryCompile(src, 5); err != nil {
		t.Fatalf("5 rules under a bound of 5: %v", err)
	}
	_, _, err := tryCompile(src, 4)
	var le *logic.RuleLimitError
	if !errors.As(err, &le) || le.Limit != 4 || le.Reached != 5 {
		t.Fatalf("error %v, want a RuleLimitError at 5 of 4", err)
	}
}

// TestRelationNumbers checks the order in which Compile numbers relations:
// a rule's head, then its body from left to right.
func TestRelationNumbers(t *testing.T) {
	p, _ := compile(t, "(<= (p ?x) (q ?x) (not (r ?x)) (distinct ?x a))\n(<= s (r b) (q b))")
	want := "p/1 q/1 r/1 s/0"
	if got := strings.Join(p.keys, " "); got != want {
		t.Errorf("relations %s, want %s", got, want)
	}
	k := logic.KeywordsOf(p)
	if k.True != 4 || k.Role != 11 || p.keys[k.Terminal] != "terminal/0" {
		t.Errorf("keywords %+v after %d relations", k, 4)
	}
	if again := logic.KeywordsOf(p); again != k {
		t.Errorf("keywords numbered again: %+v, then %+v", k, again)
	}
}
