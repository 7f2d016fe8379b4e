// Package widget offers interactive controls to notebook cells: sliders,
// a dropdown, a checkbox, toggle buttons, a button, a text box, a progress
// bar, an output area and boxes to lay them out, each a Go value whose
// OnChange (or OnClick) callbacks run in the kernel when the user moves
// it, plus Interact, which builds the controls from a short spec and
// re-runs a function into an output area on every change.
//
// The widgets speak the protocol of the front end `make lab` runs: the
// classic notebook with Debian's ipywidgets 6 extension, whose JavaScript
// models are jupyter-js-widgets ~2.1.4. Each widget is a model in the
// front end, kept in step over a comm (package kernel/comm) of target
// jupyter.widget: the kernel opens the comm with the model's state, sends
// {"method": "update", "state": ...} when a cell changes it, and receives
// {"method": "backbone", "sync_data": ...} when the user does. The front
// end sends at most one change before the kernel is idle again (the
// model's msg_throttle), so a dragged slider's intermediate positions
// coalesce on its side and no change is lost or reordered.
//
// Callbacks are cell code: the kernel runs them as it runs a cell (an
// interrupt stops them, a panic is reported), with the front end's
// message as the parent of their output. Outside a kernel a widget keeps
// its state and shows as text; in a kernel without a widget front end (a
// headless run, nbconvert) it shows as disabled HTML controls at its
// current values (see Live).
package widget

import (
	"fmt"
	"sync"

	"gdlab/kernel/comm"
	"gdlab/kernel/display"
)

// The module and version of the front end's models.
const (
	Module        = "jupyter-js-widgets"
	ModuleVersion = "~2.1.4"
)

// Target is the comm target of widget models.
const Target = "jupyter.widget"

// MIMEView is the MIME type of a widget's view in a display bundle.
const MIMEView = "application/vnd.jupyter.widget-view+json"

// model is one widget model: its state and comm, and the hooks of the
// widget built on it.
type model struct {
	mu    sync.Mutex
	id    string
	comm  *comm.Comm // nil outside a kernel
	state map[string]any
	// changed is called with the keys the front end changed, after the
	// state took them; custom with a custom message's content.
	changed func(keys []string)
	custom  func(content map[string]any)
	// text shows the widget outside a kernel and, with its HTML, where no
	// widget front end draws it; html, when set, draws it (a box draws
	// its children).
	text func() string
	html func() string
}

// modelCount numbers models made outside a kernel.
var modelCount struct {
	sync.Mutex
	n int
}

// newModel makes a widget's model, of the named front-end model and view,
// with its own state on top of the common fields and a layout model of
// its own, and opens its comm when a kernel runs.
func newModel(name, view string, state map[string]any) *model {
	layout := newPart("LayoutModel", "LayoutView", nil)
	return newPartWith(name, view, state, map[string]any{"_dom_classes": []any{}, "layout": ref(layout)})
}

// newPart makes a model that is part of a widget's (its layout or style).
func newPart(name, view string, state map[string]any) *model {
	return newPartWith(name, view, state, nil)
}

func newPartWith(name, view string, state, dom map[string]any) *model {
	m := &model{state: map[string]any{
		"_model_name": name, "_model_module": Module, "_model_module_version": ModuleVersion,
		"_view_name": view, "_view_module": Module, "_view_module_version": ModuleVersion,
		"msg_throttle": 1,
	}}
	for k, v := range dom {
		m.state[k] = v
	}
	for k, v := range state {
		m.state[k] = v
	}
	m.open()
	return m
}

// open opens the model's comm, and sends the whole state once more as an
// update, which is where notebook runners (nbclient) read a widget's state
// to save it with the notebook.
func (m *model) open() {
	mgr := comm.Default()
	if mgr == nil {
		modelCount.Lock()
		modelCount.n++
		m.id = fmt.Sprintf("local-%d", modelCount.n)
		modelCount.Unlock()
		return
	}
	c, err := mgr.Open(Target, openData(m.snapshot()))
	if err != nil {
		panic(fmt.Errorf("widget: opening %s: %w", m.state["_model_name"], err))
	}
	m.comm, m.id = c, c.ID
	c.OnMsg(m.handle)
	m.sendState(nil)
}

// openData is comm_open's data: the state itself, as the front end of
// ipywidgets 6 reads it, and the state again under "state" with its
// "buffer_paths", as ipywidgets 7 and later write it and notebook runners
// (nbclient) read it; the old front end takes the two extra keys for
// attributes it does not use.
func openData(state map[string]any) map[string]any {
	data := make(map[string]any, len(state)+2)
	for k, v := range state {
		data[k] = v
	}
	data["state"] = state
	data["buffer_paths"] = []any{}
	return data
}

// ref is how a model names another in its state.
func ref(o *model) string { return "IPY_MODEL_" + o.id }

// snapshot copies the state.
func (m *model) snapshot() map[string]any {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make(map[string]any, len(m.state))
	for k, v := range m.state {
		out[k] = v
	}
	return out
}

// get returns one field of the state.
func (m *model) get(key string) any {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.state[key]
}

// set changes fields of the state and sends them to the front end.
func (m *model) set(fields map[string]any) {
	m.mu.Lock()
	for k, v := range fields {
		m.state[k] = v
	}
	m.mu.Unlock()
	m.sendState(fields)
}

// sendState sends fields (all of the state when nil) as an update.
func (m *model) sendState(fields map[string]any) {
	if m.comm == nil {
		return
	}
	if fields == nil {
		fields = m.snapshot()
	}
	if err := m.comm.Send(comm.Data{"method": "update", "state": fields, "buffers": []any{}}); err != nil {
		panic(fmt.Errorf("widget: %w", err))
	}
}

// handle serves the front end's messages: a change of state, a request
// for the whole state, or a custom message (a button's click).
func (m *model) handle(data comm.Data) {
	switch data["method"] {
	case "backbone":
		sync, _ := data["sync_data"].(map[string]any)
		keys := make([]string, 0, len(sync))
		m.mu.Lock()
		for k, v := range sync {
			m.state[k] = v
			keys = append(keys, k)
		}
		m.mu.Unlock()
		if m.changed != nil && len(keys) > 0 {
			m.changed(keys)
		}
	case "request_state":
		m.sendState(nil)
	case "custom":
		if content, ok := data["content"].(map[string]any); ok && m.custom != nil {
			m.custom(content)
		}
	}
}

// render shows the widget: where a widget front end runs (Live), it draws
// the model's view where the display goes ("display" tells the front end
// of ipywidgets 6 to draw it; the bundle's view reference is what the
// notebook saves); elsewhere the widget shows as static HTML.
func (m *model) render() display.Data {
	if m.comm == nil {
		return display.Text(m.text())
	}
	if !Live() {
		return m.static()
	}
	if err := m.comm.Send(comm.Data{"method": "display"}); err != nil {
		panic(fmt.Errorf("widget: %w", err))
	}
	// No text/plain beside the view: the notebook would then draw the
	// widget twice (checked in a browser, test_browser.py).
	return display.Data{Data: display.MIMEMap{MIMEView: map[string]any{"model_id": m.id, "version_major": 2, "version_minor": 0}}}
}

// close closes the model's comm, which removes its views.
func (m *model) close() {
	if m.comm != nil {
		m.comm.Close(nil)
	}
}

// number reads a JSON number of the state as a float64.
func number(v any) float64 {
	switch v := v.(type) {
	case float64:
		return v
	case int:
		return float64(v)
	case int64:
		return float64(v)
	}
	return 0
}

// hooks is a list of functions run in order on every change.
type hooks struct {
	mu  sync.Mutex
	fns []func()
}

func (h *hooks) add(fn func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.fns = append(h.fns, fn)
}

func (h *hooks) run() {
	h.mu.Lock()
	fns := append([]func(){}, h.fns...)
	h.mu.Unlock()
	for _, fn := range fns {
		fn()
	}
}
