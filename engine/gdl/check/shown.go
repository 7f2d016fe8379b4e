package check

import (
	"strings"

	"gdlab/engine/gdl"
)

// maxShown bounds how many bytes of a term, literal or name a message quotes.
// A message per variable that quoted its whole literal would make the error
// list of a hostile text quadratic in its size.
const maxShown = 80

// clip cuts a name to maxShown bytes, marking the cut with "...".
func clip(s string) string {
	if len(s) <= maxShown {
		return s
	}
	return s[:maxShown] + "..."
}

// shown returns the canonical text of a term or literal, as its String
// method prints it, cut to maxShown bytes without printing the rest.
func shown(n any) string {
	p := &printer{}
	p.node(n)
	if p.full {
		return p.b.String() + "..."
	}
	return p.b.String()
}

// printer writes canonical text until maxShown bytes are written.
type printer struct {
	b    strings.Builder
	full bool
}

func (p *printer) write(s string) {
	if p.full {
		return
	}
	if room := maxShown - p.b.Len(); len(s) > room {
		p.b.WriteString(s[:room])
		p.full = true
		return
	}
	p.b.WriteString(s)
}

func (p *printer) node(n any) {
	if p.full {
		return
	}
	switch n := n.(type) {
	case *gdl.Const:
		p.write(n.Name)
	case *gdl.Var:
		p.write(n.Name)
	case *gdl.Func:
		p.compound(n.Name, n.Args)
	case *gdl.Atom:
		if len(n.Args) == 0 {
			p.write(n.Name)
			return
		}
		p.compound(n.Name, n.Args)
	case *gdl.Not:
		p.write("(not ")
		p.node(n.Arg)
		p.write(")")
	case *gdl.Distinct:
		p.write("(distinct ")
		p.node(n.A)
		p.write(" ")
		p.node(n.B)
		p.write(")")
	case *gdl.Or:
		p.write("(or")
		for _, a := range n.Args {
			p.write(" ")
			p.node(a)
		}
		p.write(")")
	}
}

func (p *printer) compound(name string, args []gdl.Term) {
	p.write("(")
	p.write(name)
	for _, a := range args {
		if p.full {
			return
		}
		p.write(" ")
		p.node(a)
	}
	p.write(")")
}
