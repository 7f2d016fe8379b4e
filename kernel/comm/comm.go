// Package comm owns Jupyter comms: the channels a kernel and its front end
// open to each other for custom messages (comm_open, comm_msg, comm_close
// and comm_info_request of the messaging protocol), which widgets are
// built on. Either side may open a comm; a Manager holds the kernel's open
// comms, the targets the front end may open comms to, and routes the front
// end's messages to them.
//
// The package knows nothing of sockets: the kernel gives a Manager a
// function that publishes a message on iopub, and passes it the comm
// messages the front end sends on the shell channel. Handlers may be cell
// code, so Handle does not call them: it queues each call (Manager.Later),
// and the kernel runs the queue as it runs a cell, interruptible, one
// message at a time.
package comm

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"sync"

	"gdlab/kernel/wire"
)

// Data is the payload of a comm message: a JSON object.
type Data = map[string]any

// Open is the content of comm_open.
type Open struct {
	CommID     string `json:"comm_id"`
	TargetName string `json:"target_name"`
	Data       Data   `json:"data"`
}

// Msg is the content of comm_msg.
type Msg struct {
	CommID string `json:"comm_id"`
	Data   Data   `json:"data"`
}

// Close is the content of comm_close.
type Close struct {
	CommID string `json:"comm_id"`
	Data   Data   `json:"data"`
}

// InfoRequest is the content of comm_info_request: the comms of one
// target, or of all when TargetName is empty.
type InfoRequest struct {
	TargetName string `json:"target_name,omitempty"`
}

// InfoReply is the content of comm_info_reply.
type InfoReply struct {
	Status string          `json:"status"`
	Comms  map[string]Info `json:"comms"`
}

// Info describes one open comm in an InfoReply.
type Info struct {
	TargetName string `json:"target_name"`
}

// Publish sends one message to the front end on iopub, its parent being
// the request the kernel is serving.
type Publish func(t wire.MsgType, content any) error

// Comm is one open comm.
type Comm struct {
	ID     string
	Target string
	m      *Manager

	mu      sync.Mutex
	onMsg   func(Data)
	onClose func(Data)
	closed  bool
}

// Send sends data to the front end's side of the comm.
func (c *Comm) Send(data Data) error {
	if c.isClosed() {
		return fmt.Errorf("comm: %s (%s) is closed", c.ID, c.Target)
	}
	return c.m.publish(wire.CommMsg, Msg{CommID: c.ID, Data: orEmpty(data)})
}

// Close closes the comm on both sides; closing twice does nothing.
func (c *Comm) Close(data Data) error {
	if !c.markClosed() {
		return nil
	}
	c.m.forget(c.ID)
	return c.m.publish(wire.CommClose, Close{CommID: c.ID, Data: orEmpty(data)})
}

// OnMsg sets the handler of the front end's messages on this comm.
func (c *Comm) OnMsg(fn func(Data)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.onMsg = fn
}

// OnClose sets the handler called when the front end closes the comm.
func (c *Comm) OnClose(fn func(Data)) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.onClose = fn
}

func (c *Comm) isClosed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.closed
}

// markClosed closes c and reports whether it was open.
func (c *Comm) markClosed() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	was := !c.closed
	c.closed = true
	return was
}

// Target accepts the comms the front end opens to one target name: it is
// called with the new comm and the data of comm_open, and an error closes
// the comm again, the reason in comm_close's data.
type Target func(c *Comm, data Data) error

// Manager holds a kernel's open comms and its targets.
type Manager struct {
	publish Publish
	parent  func() string

	mu      sync.Mutex
	comms   map[string]*Comm
	targets map[string]Target
	later   []func()
}

// NewManager returns a manager that sends through publish.
func NewManager(publish Publish) *Manager {
	return &Manager{publish: publish, comms: map[string]*Comm{}, targets: map[string]Target{}}
}

// Open opens a comm to a target of the front end with its first data.
func (m *Manager) Open(target string, data Data) (*Comm, error) {
	c := &Comm{ID: wire.NewID(), Target: target, m: m}
	m.mu.Lock()
	m.comms[c.ID] = c
	m.mu.Unlock()
	if err := m.publish(wire.CommOpen, Open{CommID: c.ID, TargetName: target, Data: orEmpty(data)}); err != nil {
		m.forget(c.ID)
		return nil, err
	}
	return c, nil
}

// SetParent installs the function that names the message the kernel is
// serving (see ParentID).
func (m *Manager) SetParent(fn func() string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.parent = fn
}

// ParentID returns the id of the message the kernel is serving, the
// parent of everything it sends now: a cell's execute_request or the
// front end's comm message; "" when unknown.
func (m *Manager) ParentID() string {
	m.mu.Lock()
	fn := m.parent
	m.mu.Unlock()
	if fn == nil {
		return ""
	}
	return fn()
}

// Register makes target accept the comms the front end opens to it.
func (m *Manager) Register(name string, t Target) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.targets[name] = t
}

// Later queues work for the kernel to run once the message being handled
// is done (see Take).
func (m *Manager) Later(fn func()) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.later = append(m.later, fn)
}

// Take returns the queued work and empties the queue.
func (m *Manager) Take() []func() {
	m.mu.Lock()
	defer m.mu.Unlock()
	fns := m.later
	m.later = nil
	return fns
}

// Info answers comm_info_request.
func (m *Manager) Info(req InfoRequest) InfoReply {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := InfoReply{Status: "ok", Comms: map[string]Info{}}
	for id, c := range m.comms {
		if req.TargetName == "" || req.TargetName == c.Target {
			out.Comms[id] = Info{TargetName: c.Target}
		}
	}
	return out
}

// IDs returns the open comms' ids, sorted.
func (m *Manager) IDs() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	ids := make([]string, 0, len(m.comms))
	for id := range m.comms {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// ErrUnknownComm reports a message for a comm that is not open.
var ErrUnknownComm = errors.New("comm: no such comm")

// Handle serves one comm message from the front end: comm_open opens a
// comm to a registered target (an unknown target is answered with
// comm_close, as the protocol asks), comm_msg goes to its comm's handler,
// comm_close closes the comm and tells its handler. The handlers' calls
// are queued (see Take), not made.
func (m *Manager) Handle(t wire.MsgType, content json.RawMessage) error {
	switch t {
	case wire.CommOpen:
		var o Open
		if err := json.Unmarshal(content, &o); err != nil {
			return fmt.Errorf("comm: comm_open: %w", err)
		}
		return m.opened(o)
	case wire.CommMsg:
		var msg Msg
		if err := json.Unmarshal(content, &msg); err != nil {
			return fmt.Errorf("comm: comm_msg: %w", err)
		}
		c := m.comm(msg.CommID)
		if c == nil {
			return fmt.Errorf("%w: %q", ErrUnknownComm, msg.CommID)
		}
		c.mu.Lock()
		fn := c.onMsg
		c.mu.Unlock()
		m.call(fn, msg.Data)
		return nil
	case wire.CommClose:
		var cl Close
		if err := json.Unmarshal(content, &cl); err != nil {
			return fmt.Errorf("comm: comm_close: %w", err)
		}
		c := m.comm(cl.CommID)
		if c == nil {
			return fmt.Errorf("%w: %q", ErrUnknownComm, cl.CommID)
		}
		c.markClosed()
		m.forget(c.ID)
		c.mu.Lock()
		fn := c.onClose
		c.mu.Unlock()
		m.call(fn, cl.Data)
		return nil
	}
	return fmt.Errorf("comm: %s is not a comm message", t)
}

// call queues a handler's call with the front end's data, when there is a
// handler.
func (m *Manager) call(fn func(Data), data Data) {
	if fn != nil {
		data = orEmpty(data)
		m.Later(func() { fn(data) })
	}
}

// opened accepts a comm the front end opened, or closes it when no target
// takes it.
func (m *Manager) opened(o Open) error {
	m.mu.Lock()
	t, ok := m.targets[o.TargetName]
	c := &Comm{ID: o.CommID, Target: o.TargetName, m: m}
	if ok {
		m.comms[c.ID] = c
	}
	m.mu.Unlock()
	if !ok {
		c.closed = true
		if err := m.publish(wire.CommClose, Close{CommID: o.CommID, Data: Data{}}); err != nil {
			return err
		}
		return fmt.Errorf("comm: no target %q", o.TargetName)
	}
	data := orEmpty(o.Data)
	m.Later(func() {
		if err := t(c, data); err != nil {
			c.Close(Data{"error": fmt.Sprintf("target %q refused the comm: %v", o.TargetName, err)})
		}
	})
	return nil
}

func (m *Manager) comm(id string) *Comm {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.comms[id]
}

func (m *Manager) forget(id string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.comms, id)
}

func orEmpty(d Data) Data {
	if d == nil {
		return Data{}
	}
	return d
}

// current is the manager of the running kernel, for packages cells use.
var current struct {
	sync.Mutex
	m *Manager
}

// SetDefault installs the kernel's manager and returns the previous one.
func SetDefault(m *Manager) *Manager {
	current.Lock()
	defer current.Unlock()
	old := current.m
	current.m = m
	return old
}

// Default returns the running kernel's manager, or nil outside a kernel.
func Default() *Manager {
	current.Lock()
	defer current.Unlock()
	return current.m
}
