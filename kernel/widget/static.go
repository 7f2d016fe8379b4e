package widget

import (
	"fmt"
	"html"
	"strconv"
	"strings"
	"sync"

	"gdlab/kernel/comm"
	"gdlab/kernel/display"
)

// VersionTarget is the comm target through which the widget front end of
// ipywidgets 6, when it connects to a kernel, asks for the version range
// of models the kernel speaks and answers whether it draws them.
const VersionTarget = "jupyter.widget.version"

// live holds the comm managers (kernels) whose front end validated the
// version: there a widget is drawn by the front end.
var live sync.Map

// Serve registers the version target on a kernel's comm manager; the kernel
// calls it once at start. From the front end's validation on, widgets show
// as live views; before it, or with no widget front end at all (a headless
// run, nbconvert, a console), they show as static HTML.
func Serve(mgr *comm.Manager) {
	mgr.Register(VersionTarget, func(c *comm.Comm, _ comm.Data) error {
		c.OnMsg(func(d comm.Data) {
			if ok, _ := d["validated"].(bool); ok {
				live.Store(mgr, true)
			} else {
				live.Delete(mgr)
			}
		})
		return c.Send(comm.Data{"version": ModuleVersion})
	})
}

// Live reports whether a widget front end draws this kernel's widgets. A
// front end validates when it connects, so a cell run right after a
// notebook opens may still see false and show its widgets statically.
func Live() bool {
	mgr := comm.Default()
	if mgr == nil {
		return false
	}
	_, ok := live.Load(mgr)
	return ok
}

// static is a widget's stand-in where no front end draws it: text, and its
// controls as disabled HTML at their current values, which nbconvert's
// HTML and the saved notebook show. The state still goes to the front end
// over the comm, so a notebook runner saves it with the notebook.
func (m *model) static() display.Data {
	return display.Data{Data: display.MIMEMap{display.MIMEText: m.text(), display.MIMEHTML: m.staticHTML()}}
}

// staticHTML draws the model as a disabled HTML control at its state.
func (m *model) staticHTML() string {
	if m.html != nil {
		return m.html()
	}
	st := m.snapshot()
	name, _ := st["_model_name"].(string)
	desc, _ := st["description"].(string)
	label := ""
	if desc != "" {
		label = `<label style="display:inline-block;min-width:7em">` + html.EscapeString(desc) + `</label> `
	}
	var control string
	switch name {
	case "IntSliderModel", "FloatSliderModel":
		value := number(st["value"])
		control = fmt.Sprintf(`<input type="range" min="%g" max="%g" step="%g" value="%g" disabled> <span>%s</span>`,
			number(st["min"]), number(st["max"]), number(st["step"]), value, strconv.FormatFloat(value, 'g', -1, 64))
	case "SelectionSliderModel":
		labels, value := options(st)
		control = fmt.Sprintf(`<input type="range" min="0" max="%d" step="1" value="%d" disabled> <span>%s</span>`,
			len(labels)-1, index(labels, value), html.EscapeString(value))
	case "DropdownModel":
		labels, value := options(st)
		var b strings.Builder
		b.WriteString(`<select disabled>`)
		for _, l := range labels {
			sel := ""
			if l == value {
				sel = " selected"
			}
			fmt.Fprintf(&b, `<option%s>%s</option>`, sel, html.EscapeString(l))
		}
		control = b.String() + `</select>`
	case "ToggleButtonsModel":
		labels, value := options(st)
		var b strings.Builder
		for _, l := range labels {
			style := ""
			if l == value {
				style = ` style="font-weight:bold;border-style:inset"`
			}
			fmt.Fprintf(&b, `<button disabled%s>%s</button>`, style, html.EscapeString(l))
		}
		control = b.String()
	case "CheckboxModel":
		checked := ""
		if v, _ := st["value"].(bool); v {
			checked = " checked"
		}
		return `<div><input type="checkbox" disabled` + checked + `> ` + html.EscapeString(desc) + `</div>`
	case "TextModel":
		s, _ := st["value"].(string)
		control = `<input type="text" value="` + html.EscapeString(s) + `" disabled>`
	case "ProgressModel":
		control = fmt.Sprintf(`<progress value="%g" max="%g"></progress>`, number(st["value"])-number(st["min"]), number(st["max"])-number(st["min"]))
	case "ButtonModel":
		return `<div><button disabled>` + html.EscapeString(desc) + `</button></div>`
	case "LabelModel":
		s, _ := st["value"].(string)
		return `<div>` + html.EscapeString(s) + `</div>`
	default: // an output area: what it showed is in the cell's output
		return `<div></div>`
	}
	return `<div>` + label + control + `</div>`
}

// options returns a selection's option labels and its chosen one.
func options(st map[string]any) ([]string, string) {
	var labels []string
	switch l := st["_options_labels"].(type) {
	case []string:
		labels = l
	case []any:
		for _, x := range l {
			s, _ := x.(string)
			labels = append(labels, s)
		}
	}
	value, _ := st["value"].(string)
	return labels, value
}

// index returns the position of s in list, or 0.
func index(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return 0
}
