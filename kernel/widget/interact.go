package widget

import (
	"fmt"
	"sort"
)

// Control is one control of Interact, named by the value it sets: build
// it with Int, Float, Log, Choice or Flag.
type Control struct {
	name  string
	build func() (w Widget, value func() any, onChange func(func()))
}

// Int is a whole-number slider over [min, max] by step.
func Int(name string, min, max, step, value int) Control {
	return Control{name, func() (Widget, func() any, func(func())) {
		s := NewIntSlider(name, min, max, step, value)
		return s, func() any { return s.Value() }, func(fn func()) { s.OnChange(func(int) { fn() }) }
	}}
}

// Float is a slider over [min, max] by step.
func Float(name string, min, max, step, value float64) Control {
	return Control{name, func() (Widget, func() any, func(func())) {
		s := NewFloatSlider(name, min, max, step, value)
		return s, func() any { return s.Value() }, func(fn func()) { s.OnChange(func(float64) { fn() }) }
	}}
}

// Log is a log-scale slider from min to max, perDecade values a decade.
func Log(name string, min, max float64, perDecade int, value float64) Control {
	return Control{name, func() (Widget, func() any, func(func())) {
		s := NewLogSlider(name, min, max, perDecade, value)
		return s, func() any { return s.Value() }, func(fn func()) { s.OnChange(func(float64) { fn() }) }
	}}
}

// Choice is a dropdown over options.
func Choice(name string, options []string, value string) Control {
	return Control{name, func() (Widget, func() any, func(func())) {
		d := NewDropdown(name, options, value)
		return d, func() any { return d.Value() }, func(fn func()) { d.OnChange(func(string) { fn() }) }
	}}
}

// Flag is a checkbox.
func Flag(name string, value bool) Control {
	return Control{name, func() (Widget, func() any, func(func())) {
		c := NewCheckbox(name, value)
		return c, func() any { return c.Value() }, func(fn func()) { c.OnChange(func(bool) { fn() }) }
	}}
}

// Values are the controls' values by name, as Interact passes them.
type Values struct{ m map[string]any }

// Names returns the controls' names, sorted.
func (v Values) Names() []string {
	out := make([]string, 0, len(v.m))
	for k := range v.m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func (v Values) get(name string) any {
	x, ok := v.m[name]
	if !ok {
		panic(fmt.Sprintf("widget: no control named %q (have %v)", name, v.Names()))
	}
	return x
}

// Int returns an Int control's value.
func (v Values) Int(name string) int { return v.get(name).(int) }

// Float returns a Float or Log control's value.
func (v Values) Float(name string) float64 { return v.get(name).(float64) }

// String returns a Choice control's value.
func (v Values) String(name string) string { return v.get(name).(string) }

// Bool returns a Flag control's value.
func (v Values) Bool(name string) bool { return v.get(name).(bool) }

// Interact builds the controls with an output area below them and calls
// fn with their values at once and after every change; each call's output
// (printing, displays such as a chart, a panic's message) replaces the
// previous one in the area. It returns the panel, which a cell shows by
// ending with it.
func Interact(fn func(v Values), controls ...Control) *Box {
	out := NewOutput()
	children := make([]Widget, 0, len(controls)+1)
	values := make(map[string]func() any, len(controls))
	var subscribe []func(func())
	for _, c := range controls {
		w, value, onChange := c.build()
		children = append(children, w)
		values[c.name] = value
		subscribe = append(subscribe, onChange)
	}
	run := func() {
		v := Values{m: make(map[string]any, len(values))}
		for name, value := range values {
			v.m[name] = value()
		}
		out.Capture(func() { fn(v) })
	}
	for _, on := range subscribe {
		on(run)
	}
	children = append(children, out)
	panel := NewVBox(children...)
	run()
	return panel
}
