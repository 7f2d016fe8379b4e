package propnet

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"gdlab/engine/ground"
)

// Net is a compiled propositional network: one read-only set of flat tables
// shared by every goroutine. It implements game.Machine (safe for concurrent
// use; each call borrows a simulator from a pool) and makes Sims, the
// per-goroutine simulators of the fast path.
//
// Every node of the network is a threshold gate kept as one 16-bit counter
// per simulator: the node is true when its counter is negative. A gate with
// threshold t and k true inputs has counter t-1-k, where an input read
// negated counts as true when its source is false; an AND of n inputs has
// threshold n and an OR threshold 1. Base and input propositions have
// counter -1 when true and 0 when false.
type Net struct {
	meta
	nodes    int32
	cnt0     []counter // every node's counter when all propositions are false
	fanOff   []int32   // node n's readers are fan[fanOff[n]:fanOff[n+1]]
	fan      []int32   // reader, | negReader when it reads the node negated
	watched  int32     // nodes [0, watched) drive a legal or next output
	eager    int32     // nodes [0, eager) propagate; the rest are lazy gates
	watchOff []int32   // node n's watchers are watch[watchOff[n]:watchOff[n+1]]
	watch    []int32   // watcher: index<<2 | negated<<1 | isNext

	baseNode  []int32 // base proposition -> node, -1 when nothing reads it
	inputNode []int32 // input proposition -> node, -1 when nothing reads it
	legal     []clit  // per input proposition (role-major, as inputOff): legal when this and its group's gate hold
	moveGroup []int32 // input proposition -> its legal group
	groupGate []clit  // legal group -> the conjunct its moves share (see gate.go)
	groupRole []int32 // legal group -> role
	groupOff  []int32 // role -> its first legal group
	goals     [][]goalLit
	terminal  clit
	// stateReadsMoves is set when legal, goal or terminal depend on does,
	// which valid GDL forbids: simulators then clear the moves after each
	// transition, as the rules' reading of a state has no moves in it.
	stateReadsMoves bool
	next            []clit // per base proposition
	// Lazy gates (only goals read them) in topological order, evaluated on
	// demand: node lazyNode[i] is an AND (lazyAnd) or OR of the clits
	// lazyIn[lazyOff[i]:lazyOff[i+1]].
	lazyNode []int32
	lazyAnd  []bool
	lazyOff  []int32
	lazyIn   []clit
	initial  []uint64
	words    int // 64-bit words of a state

	nodeName []string // per node: what it computes, "" for helper gates
	nodeKind []uint8  // per node: its kind

	stats Stats
	pool  sync.Pool
	// start is a simulator at the initial state with no moves set, made by
	// the first NewSim of a small network and copied by Reset (see
	// Sim.Reset); nil for large networks.
	start     *Sim
	startOnce sync.Once
}

// counter is a node's counter. Sixteen bits keep a simulator's counters
// small enough to stay in the first-level cache for most games; gates with
// more inputs than maxFanIn are split (see splitWide) so that counters
// cannot overflow.
type counter = int16

// maxFanIn bounds the inputs of a gate, well below the counter's range.
const maxFanIn = 16000

// negReader marks a fan entry whose reader reads the node negated.
const negReader = -1 << 31

// clit is a compiled output: node<<1 | negated, or one of the constants.
type clit int32

const (
	clFalse clit = -2
	clTrue  clit = -1
)

type goalLit struct {
	value int
	text  string
	ok    bool
	l     clit
}

// Stats describes a network and its construction.
type Stats struct {
	Ground     ground.Stats
	Raw        Counts // the network as built from the ground rules
	Optimized  Counts // after optimisation
	Cycles     int    // cycles of ground recursion unrolled into acyclic circuits
	LazyGates  int    // gates evaluated only when a goal is read (see Options.EagerGoals)
	Bases      int    // base propositions (facts a state may hold)
	Inputs     int    // input propositions (moves)
	StateBytes int    // bytes of a state's bitset
	SimBytes   int    // bytes of a simulator's private state
	GroundTime time.Duration
	BuildTime  time.Duration // graph construction, cycle unrolling and optimisation
	TotalTime  time.Duration // everything, from rules to flat tables
}

// Counts are the component counts of a network.
type Counts struct {
	Bases   int // base propositions read by some gate or output
	Inputs  int // input propositions read by some gate or output
	Ands    int // AND gates
	Ors     int // OR gates
	Nots    int // negated connections (NOT components folded into edges)
	Links   int // connections between components
	Outputs int // legal, goal, terminal and next outputs that are not constant
}

// SizeError reports that a network would exceed its bound on nodes.
type SizeError struct {
	Limit   int
	Reached int
	Where   string
}

// Error names the bound and the size reached.
func (e *SizeError) Error() string {
	return fmt.Sprintf("propnet: the network exceeds the bound of %d nodes (reached %d %s)", e.Limit, e.Reached, e.Where)
}

// ErrUnknownMove is returned (wrapped) by ParseMove for a move that the game
// can never make legal for the role: the network has no input proposition
// for it, so it could not play it.
var ErrUnknownMove = errors.New("move is never legal for this role")

var errCycle = errors.New("propnet: internal error: cycle left in the network")

// inputRole returns the role of input proposition i.
func (m *meta) inputRole(i int32) int {
	r := 0
	for r+1 < len(m.roles) && m.inputOff[r+1] <= i {
		r++
	}
	return r
}

// Stats returns the network's component counts, sizes and build times.
func (n *Net) Stats() Stats { return n.stats }

// value reads a compiled lit from a counter array.
func value(cnt []counter, l clit) bool {
	if l < 0 {
		return l == clTrue
	}
	return (cnt[l>>1] < 0) != (l&1 != 0)
}
