package mcts

import (
	"context"
	"fmt"

	"gdlab/engine/analysis"
	"gdlab/engine/analysis/distance"
	"gdlab/engine/analysis/emulate"
	"gdlab/engine/analysis/latch"
	"gdlab/engine/search"
)

// Adaptation says which analyses Start ran under Options.Adapt and what
// each decided, for a log or a notebook.
type Adaptation struct {
	Latches bool     // the four latch switches are on
	Virtual bool     // virtual terminality is on
	Local   bool     // local search is on
	Why     []string // one line per analysis: its decision and reason
}

// String lists the decisions.
func (a Adaptation) String() string {
	s := ""
	for i, w := range a.Why {
		if i > 0 {
			s += "; "
		}
		s += w
	}
	return s
}

// Adapted returns what the last Start decided under Options.Adapt (the
// zero Adaptation when Adapt is off).
func (p *Player) Adapted() Adaptation { return p.adapted }

// Prepared says what the last Start decided (search.Preparer): the
// adaptation's decisions, or "" without Adapt.
func (p *Player) Prepared() string { return p.adapted.String() }

// adapt runs the analyses under the start budget and turns on the switches
// they support, in p.opt. An analysis that fails, or that the budget cuts
// short, leaves its switch off and says so.
func (p *Player) adapt(ctx context.Context, setup search.Setup) {
	ctx, cancel := setup.Budget.Context(ctx)
	defer cancel()
	a := Adaptation{}
	net, err := analysis.Network(ctx, p.m)
	if err != nil {
		a.Why = append(a.Why, "no analysis: "+err.Error())
		p.adapted = a
		return
	}
	an, err := latch.Analyze(ctx, net, latch.Options{})
	switch {
	case err != nil:
		a.Why = append(a.Why, "latches: "+err.Error())
	case an.HasGoalLatches():
		p.an, a.Latches = an, true
		p.opt = p.opt.AllLatches()
		a.Why = append(a.Why, fmt.Sprintf("latches on: %d goal latches", len(an.GoalLatches)))
	default:
		a.Why = append(a.Why, "latches off: no goal latch")
	}
	if an != nil {
		em, err := emulate.Analyze(ctx, net, an, emulate.Options{})
		switch {
		case err != nil:
			a.Why = append(a.Why, "virtual terminality: "+err.Error())
		case em != nil && em.Virtual != nil:
			p.opt.VirtualTerminal, p.opt.Emulation, a.Virtual = true, em, true
			a.Why = append(a.Why, "virtual terminality on: the goal emulation decides outcomes early")
		default:
			a.Why = append(a.Why, "virtual terminality off: no goal emulation that decides outcomes")
		}
	}
	if len(p.m.Roles()) == 2 {
		d, err := distance.Of(ctx, net)
		if err != nil {
			a.Why = append(a.Why, "local search: "+err.Error())
		} else if on, why := distance.Enabled(d); on {
			p.opt.LocalSearch, p.metric, a.Local = true, d, true
			a.Why = append(a.Why, "local search on: "+why)
		} else {
			a.Why = append(a.Why, "local search off: "+why)
		}
	} else {
		a.Why = append(a.Why, "local search off: not a two-role game")
	}
	p.adapted = a
}
