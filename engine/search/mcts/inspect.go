package mcts

import "gdlab/engine/game"

// MoveStat is one move of one role at the root after a search.
type MoveStat struct {
	Move   game.Move
	Text   string
	Visits int64
	Mean   float64 // mean value for the role through the move, 0..100; -1 when unvisited
	Solved bool    // the move leads to a solved node
	Value  float64 // that node's exact value for the role, when Solved
}

// Root returns role's moves at the root of the last search with their
// visits and values, in the order of the legal moves. With DecisionNodes,
// at a root where several roles choose, the root holds the player's own
// role's choice only; another role's moves there are one placeholder.
func (p *Player) Root(role int) []MoveStat {
	t := p.t
	if t == nil || t.root == none {
		return nil
	}
	nd := &t.nodes[t.root]
	if nd.moves == nil || role < 0 || role >= t.roles {
		return nil
	}
	out := make([]MoveStat, len(nd.moves[role]))
	for i, mv := range nd.moves[role] {
		ms := MoveStat{Move: mv, Text: t.m.MoveText(role, mv), Visits: nd.n[role][i], Mean: -1}
		if ms.Visits > 0 {
			ms.Mean = nd.w[role][i] / float64(ms.Visits)
		}
		if ch := t.childOf(nd, role, i); ch != none && t.nodes[ch].solved {
			ms.Solved, ms.Value = true, t.nodes[ch].value[role]
		}
		out[i] = ms
	}
	return out
}

// DepthProfile returns the number of tree nodes at each depth (in decision
// nodes) below the root of the last search; index 0 is the root.
func (p *Player) DepthProfile() []int {
	if p.t == nil || p.t.root == none {
		return nil
	}
	return p.t.depthProfile()
}

func (t *tree) depthProfile() []int {
	t.markID++
	level := []int32{t.root}
	t.nodes[t.root].mark = t.markID
	var out []int
	for len(level) > 0 {
		out = append(out, len(level))
		var next []int32
		for _, id := range level {
			for _, c := range t.nodes[id].children {
				if c != none && t.nodes[c].mark != t.markID {
					t.nodes[c].mark = t.markID
					next = append(next, c)
				}
			}
		}
		level = next
	}
	return out
}

func (t *tree) maxDepth() int { return len(t.depthProfile()) - 1 }

// RootVisits returns the root's visit count after the last search.
func (p *Player) RootVisits() int64 {
	if p.t == nil || p.t.root == none {
		return 0
	}
	return p.t.nodes[p.t.root].visits
}
