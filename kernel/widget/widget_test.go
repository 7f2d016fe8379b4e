package widget_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"gdlab/kernel/comm"
	"gdlab/kernel/widget"
	"gdlab/kernel/wire"
)

// kernel installs a recording comm manager, as a kernel would, and a
// widget front end that validated the version.
func kernel(t *testing.T) (*comm.Manager, *[]string) {
	m, sent := headless(t)
	frontEnd(t, m, true)
	*sent = nil
	return m, sent
}

// headless installs a recording comm manager with no widget front end.
func headless(t *testing.T) (*comm.Manager, *[]string) {
	sent := &[]string{}
	m := comm.NewManager(func(tp wire.MsgType, c any) error {
		raw, _ := json.Marshal(c)
		*sent = append(*sent, string(tp)+" "+string(raw))
		return nil
	})
	widget.Serve(m)
	old := comm.SetDefault(m)
	t.Cleanup(func() { comm.SetDefault(old) })
	return m, sent
}

// frontEnd checks the version as the widget front end does when it
// connects, answering validated.
func frontEnd(t *testing.T, m *comm.Manager, validated bool) {
	t.Helper()
	raw, _ := json.Marshal(comm.Open{CommID: "version", TargetName: widget.VersionTarget, Data: comm.Data{}})
	if err := m.Handle(wire.CommOpen, raw); err != nil {
		t.Fatal(err)
	}
	for _, fn := range m.Take() {
		fn()
	}
	change(t, m, "version", map[string]any{"validated": validated, "frontend_version": "2.1.4"})
}

// change sends a front end's change of a widget's state and runs the
// callbacks, as the kernel does.
func change(t *testing.T, m *comm.Manager, id string, data map[string]any) {
	t.Helper()
	raw, _ := json.Marshal(comm.Msg{CommID: id, Data: data})
	if err := m.Handle(wire.CommMsg, raw); err != nil {
		t.Fatal(err)
	}
	for _, fn := range m.Take() {
		fn()
	}
}

func TestSliderState(t *testing.T) {
	m, sent := kernel(t)
	s := widget.NewIntSlider("depth", 1, 6, 1, 3)
	var seen []int
	s.OnChange(func(v int) { seen = append(seen, v) })
	// A layout, a style and the slider are opened, each followed by its whole state.
	opens := 0
	for _, line := range *sent {
		if strings.HasPrefix(line, "comm_open") {
			opens++
		}
	}
	if opens != 3 || s.Value() != 3 {
		t.Fatalf("%d models opened, value %d:\n%s", opens, s.Value(), strings.Join(*sent, "\n"))
	}
	change(t, m, s.ID(), map[string]any{"method": "backbone", "sync_data": map[string]any{"value": 5}})
	change(t, m, s.ID(), map[string]any{"method": "backbone", "sync_data": map[string]any{"description": "d"}})
	if s.Value() != 5 || fmt.Sprint(seen) != "[5]" {
		t.Errorf("value %d, callbacks saw %v", s.Value(), seen)
	}
	s.SetValue(2)
	if last := (*sent)[len(*sent)-1]; last != `comm_msg {"comm_id":"`+s.ID()+`","data":{"buffers":[],"method":"update","state":{"value":2}}}` || fmt.Sprint(seen) != "[5]" {
		t.Errorf("SetValue sent %s and ran %v", last, seen)
	}
}

func TestLogSlider(t *testing.T) {
	kernel(t)
	p := widget.NewLogSlider("p", 1, 1e6, 1, 20)
	if fmt.Sprint(p.Values()) != "[1 10 100 1000 10000 100000 1e+06]" || p.Value() != 10 {
		t.Errorf("values %v, at %g", p.Values(), p.Value())
	}
	q := widget.NewLogSlider("q", 1, 100, 3, 5)
	if fmt.Sprint(q.Values()) != "[1 2.15 4.64 10 21.5 46.4 100]" || q.Value() != 4.64 {
		t.Errorf("values %v, at %g", q.Values(), q.Value())
	}
	q.SetValue(30)
	if q.Value() != 21.5 {
		t.Errorf("SetValue(30) chose %g", q.Value())
	}
}

func TestButtonAndChoices(t *testing.T) {
	m, _ := kernel(t)
	b := widget.NewButton("go")
	clicks := 0
	b.OnClick(func() { clicks++ })
	change(t, m, b.ID(), map[string]any{"method": "custom", "content": map[string]any{"event": "click"}})
	d := widget.NewDropdown("game", []string{"a", "b"}, "z")
	var chosen string
	d.OnChange(func(v string) { chosen = v })
	change(t, m, d.ID(), map[string]any{"method": "backbone", "sync_data": map[string]any{"value": "b"}})
	c := widget.NewCheckbox("latch", true)
	change(t, m, c.ID(), map[string]any{"method": "backbone", "sync_data": map[string]any{"value": false}})
	if clicks != 1 || chosen != "b" || c.Value() {
		t.Errorf("clicks %d, chosen %q, checkbox %v", clicks, chosen, c.Value())
	}
}

func TestInteractValues(t *testing.T) {
	m, sent := kernel(t)
	var calls []string
	panel := widget.Interact(func(v widget.Values) {
		calls = append(calls, fmt.Sprintf("%d %g %s %v", v.Int("n"), v.Float("p"), v.String("g"), v.Bool("f")))
	}, widget.Int("n", 1, 9, 1, 2), widget.Log("p", 1, 100, 1, 10), widget.Choice("g", []string{"x", "y"}, "y"), widget.Flag("f", false))
	kids := panel.Children()
	if len(kids) != 5 || fmt.Sprint(calls) != "[2 10 y false]" {
		t.Fatalf("%d children, calls %v", len(kids), calls)
	}
	change(t, m, kids[0].ID(), map[string]any{"method": "backbone", "sync_data": map[string]any{"value": 7}})
	if fmt.Sprint(calls) != "[2 10 y false 7 10 y false]" {
		t.Errorf("calls %v", calls)
	}
	// Each run points the output area at the message being served and clears it.
	if !strings.Contains(strings.Join(*sent, "\n"), `"state":{"msg_id":""}`) {
		t.Errorf("the output area was not pointed at the message: %v", *sent)
	}
}

func TestOutsideAKernel(t *testing.T) {
	old := comm.SetDefault(nil)
	defer comm.SetDefault(old)
	s := widget.NewIntSlider("depth", 1, 6, 1, 4)
	if got := s.Render().Text(); got != "depth: 4" {
		t.Errorf("text %q", got)
	}
	box := widget.NewVBox(s, widget.NewCheckbox("latch", true))
	if got := box.Render().Text(); got != "depth: 4\nlatch: true" {
		t.Errorf("box text %q", got)
	}
}

// TestStaticWithoutFrontEnd: until a front end validates the version a
// widget shows as disabled HTML at its values, and the kernel answers the
// check with its version range; a validated front end gets views.
func TestStaticWithoutFrontEnd(t *testing.T) {
	m, sent := headless(t)
	box := widget.NewHBox(widget.NewIntSlider("depth", 1, 6, 1, 3), widget.NewToggleButtons("side", []string{"x", "o"}, "o"), widget.NewButton("go"))
	d := box.Render()
	html, _ := d.Data["text/html"].(string)
	for _, want := range []string{`flex-direction:row`, `<input type="range" min="1" max="6" step="1" value="3" disabled> <span>3</span>`,
		`<button disabled>x</button><button disabled style="font-weight:bold;border-style:inset">o</button>`, `<button disabled>go</button>`} {
		if !strings.Contains(html, want) {
			t.Errorf("static HTML lacks %s:\n%s", want, html)
		}
	}
	if _, ok := d.Data[widget.MIMEView]; ok || d.Text() != "depth: 3\nside: o (of x, o)\n[go]" {
		t.Errorf("static bundle: %v", d.Data)
	}
	frontEnd(t, m, false)
	if widget.Live() {
		t.Error("live after a front end that does not draw this version")
	}
	if !strings.Contains(strings.Join(*sent, "\n"), `"data":{"version":"~2.1.4"}`) {
		t.Errorf("the version check was not answered:\n%s", strings.Join(*sent, "\n"))
	}
	frontEnd(t, m, true)
	if d := box.Render(); !widget.Live() || d.Data[widget.MIMEView] == nil {
		t.Errorf("validated front end, bundle %v", d.Data)
	}
}
