package propnet

// NewFlatSimGeneric returns a straight-line simulator that runs the
// generic kernel, for the benchmarks that compare the kernels.
func (f *Flat) NewFlatSimGeneric() *FlatSim { return newFlatSim(f.p, true) }

// CodeLinks returns the inputs read by the state, move and goal code.
func (f *Flat) CodeLinks() (state, move, goal int) {
	return len(f.p.stateCode.ins), len(f.p.moveCode.ins), len(f.p.goalCode.ins)
}

// InputLinks returns how many of the move code's inputs are input
// propositions.
func (f *Flat) InputLinks() int {
	k := 0
	for _, l := range f.p.moveCode.ins {
		if l>>1 < f.p.konst && f.nodeKind[l>>1] == uint8(kInput) {
			k++
		}
	}
	return k
}

// NewLanesDense returns lanes whose ORs over moves read every move, as
// the generic code does, with no pseudo-nodes.
func (f *Flat) NewLanesDense() (*Lanes, error) {
	p, err := compileProgram(f.Net, false)
	if err != nil {
		return nil, err
	}
	return newLanes(p), nil
}

// NewLanesScalar returns lanes that count legal moves with a counter per
// lane (drawScalar).
func (f *Flat) NewLanesScalar() *Lanes {
	l := newLanes(f.p)
	l.draw = drawScalar
	return l
}

// NewLanesRejection returns lanes that always draw by rejection
// (drawByRejection).
func (f *Flat) NewLanesRejection() *Lanes {
	l := newLanes(f.p)
	l.draw = drawRejection
	return l
}

// NewLanesSliced returns lanes that count legal moves in bit-sliced
// counters (drawSliced).
func (f *Flat) NewLanesSliced() *Lanes {
	l := newLanes(f.p)
	l.draw = drawSliced
	return l
}

// Transpose8 is transpose8, for the test of its orientation.
var Transpose8 = transpose8
