package widget

import (
	"fmt"
	"strings"

	"gdlab/kernel/comm"
	"gdlab/kernel/display"
)

// Widget is any widget of this package: a box holds them.
type Widget interface {
	ID() string
	Render() display.Data
}

// Box lays widgets out in a row (HBox) or a column (VBox).
type Box struct {
	*valued
	children []Widget
}

// NewVBox returns a column of the widgets.
func NewVBox(children ...Widget) *Box { return newBox("VBoxModel", "VBoxView", children) }

// NewHBox returns a row of the widgets.
func NewHBox(children ...Widget) *Box { return newBox("HBoxModel", "HBoxView", children) }

func newBox(name, view string, children []Widget) *Box {
	refs := make([]any, len(children))
	for i, c := range children {
		refs[i] = "IPY_MODEL_" + c.ID()
	}
	b := &Box{valued: newValued(name, view, map[string]any{"children": refs, "box_style": ""}), children: children}
	b.m.text = func() string {
		lines := make([]string, len(children))
		for i, c := range children {
			lines[i] = c.Render().Text()
		}
		return strings.Join(lines, "\n")
	}
	dir := "column"
	if name == "HBoxModel" {
		dir = "row"
	}
	b.m.html = func() string {
		var s strings.Builder
		s.WriteString(`<div style="display:flex;flex-direction:` + dir + `;gap:4px">`)
		for _, c := range children {
			h, _ := c.Render().Data[display.MIMEHTML].(string)
			s.WriteString(h)
		}
		return s.String() + `</div>`
	}
	return b
}

// Children returns the widgets in the box.
func (b *Box) Children() []Widget { return append([]Widget(nil), b.children...) }

// Output is an area that shows what code run under Capture prints and
// displays, in place of what it showed before.
type Output struct {
	*valued
}

// NewOutput returns an empty output area.
func NewOutput() *Output {
	o := &Output{newValued("OutputModel", "OutputView", map[string]any{"msg_id": ""})}
	o.m.text = func() string { return "" }
	return o
}

// Capture clears the area and runs fn with its output, printing, displays
// and errors, going to the area. The front end of ipywidgets 6 routes to
// an output area the messages whose parent is the message named by its
// msg_id: Capture sets it to the message the kernel is serving (the front
// end's change that runs the callback, or the cell), and leaves it set,
// so that output still in the kernel's pipes when fn returns lands there
// too. Where no widget front end draws the area (see Live), fn's output
// goes to the cell's output instead. A panic in fn is shown in the area
// and not raised.
func (o *Output) Capture(fn func()) {
	if mgr := comm.Default(); mgr != nil && Live() {
		o.m.set(map[string]any{"msg_id": mgr.ParentID()})
	}
	display.ClearOutput(true)
	defer func() {
		if r := recover(); r != nil {
			display.Display(display.Text(fmt.Sprintf("error: %v", r)))
		}
	}()
	fn()
}
