package widget

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"gdlab/kernel/display"
)

// valued is what every control with a value shares: its model, the hooks
// its changes run, and its description.
type valued struct {
	m     *model
	hooks hooks
}

func newValued(name, view string, state map[string]any) *valued {
	v := &valued{m: newModel(name, view, state)}
	v.m.changed = func(keys []string) {
		for _, k := range keys {
			if k == "value" {
				v.hooks.run()
				return
			}
		}
	}
	return v
}

// ID returns the widget's model id.
func (v *valued) ID() string { return v.m.id }

// Render shows the widget (display.Renderer): a cell whose last value is a
// widget draws it.
func (v *valued) Render() display.Data { return v.m.render() }

// Close removes the widget and its views.
func (v *valued) Close() { v.m.close() }

// Description returns the label shown beside the control.
func (v *valued) Description() string { s, _ := v.m.get("description").(string); return s }

// IntSlider chooses a whole number in [Min, Max] by Step.
type IntSlider struct{ *valued }

// NewIntSlider returns a slider over [min, max] by step, at value.
func NewIntSlider(description string, min, max, step, value int) *IntSlider {
	s := &IntSlider{newValued("IntSliderModel", "IntSliderView", map[string]any{
		"description": description, "min": min, "max": max, "step": step, "value": value,
		"disabled": false, "continuous_update": true, "orientation": "horizontal", "readout": true,
		"readout_format": "d", "_range": false, "style": ref(newPart("SliderStyleModel", "StyleView", map[string]any{"handle_color": nil}))})}
	s.m.text = func() string { return fmt.Sprintf("%s: %d", description, s.Value()) }
	return s
}

// Value returns the slider's position.
func (s *IntSlider) Value() int { return int(math.Round(number(s.m.get("value")))) }

// SetValue moves the slider; it does not run the OnChange callbacks.
func (s *IntSlider) SetValue(v int) { s.m.set(map[string]any{"value": v}) }

// OnChange runs fn with the new value whenever the user moves the slider.
func (s *IntSlider) OnChange(fn func(v int)) { s.hooks.add(func() { fn(s.Value()) }) }

// FloatSlider chooses a number in [Min, Max] by Step.
type FloatSlider struct{ *valued }

// NewFloatSlider returns a slider over [min, max] by step, at value.
func NewFloatSlider(description string, min, max, step, value float64) *FloatSlider {
	s := &FloatSlider{newValued("FloatSliderModel", "FloatSliderView", map[string]any{
		"description": description, "min": min, "max": max, "step": step, "value": value,
		"disabled": false, "continuous_update": true, "orientation": "horizontal", "readout": true,
		"readout_format": ".2f", "_range": false, "slider_color": nil})}
	s.m.text = func() string { return fmt.Sprintf("%s: %g", description, s.Value()) }
	return s
}

// Value returns the slider's position.
func (s *FloatSlider) Value() float64 { return number(s.m.get("value")) }

// SetValue moves the slider; it does not run the OnChange callbacks.
func (s *FloatSlider) SetValue(v float64) { s.m.set(map[string]any{"value": v}) }

// OnChange runs fn with the new value whenever the user moves the slider.
func (s *FloatSlider) OnChange(fn func(v float64)) { s.hooks.add(func() { fn(s.Value()) }) }

// LogSlider chooses among numbers spaced evenly on a log scale, such as the
// p of min/max approximation from 1 to 10^6; the front end shows each
// number's label. (The models of ipywidgets 6 have no log slider of their
// own: this is a selection slider over the values.)
type LogSlider struct {
	*valued
	values []float64
	labels []string
}

// NewLogSlider returns a slider over perDecade values a decade from min to
// max (both included, min > 0), at the value nearest to value.
func NewLogSlider(description string, min, max float64, perDecade int, value float64) *LogSlider {
	if min <= 0 || max < min || perDecade < 1 {
		panic(fmt.Sprintf("widget: a log slider needs 0 < min <= max and perDecade >= 1, not %g, %g, %d", min, max, perDecade))
	}
	var values []float64
	var labels []string
	steps := int(math.Round(math.Log10(max/min) * float64(perDecade)))
	for i := 0; i <= steps; i++ {
		x := min * math.Pow(10, float64(i)/float64(perDecade))
		x = roundSignificant(x, 3)
		values, labels = append(values, x), append(labels, strconv.FormatFloat(x, 'g', -1, 64))
	}
	at := nearest(values, value)
	s := &LogSlider{values: values, labels: labels}
	s.valued = newValued("SelectionSliderModel", "SelectionSliderView", map[string]any{
		"description": description, "_options_labels": labels, "value": labels[at],
		"disabled": false, "continuous_update": true, "orientation": "horizontal", "readout": true})
	s.m.text = func() string { return fmt.Sprintf("%s: %g", description, s.Value()) }
	return s
}

// Value returns the chosen number.
func (s *LogSlider) Value() float64 {
	label, _ := s.m.get("value").(string)
	for i, l := range s.labels {
		if l == label {
			return s.values[i]
		}
	}
	return s.values[0]
}

// Values returns the numbers the slider offers.
func (s *LogSlider) Values() []float64 { return append([]float64(nil), s.values...) }

// SetValue moves the slider to the offered number nearest v.
func (s *LogSlider) SetValue(v float64) {
	s.m.set(map[string]any{"value": s.labels[nearest(s.values, v)]})
}

// OnChange runs fn with the new value whenever the user moves the slider.
func (s *LogSlider) OnChange(fn func(v float64)) { s.hooks.add(func() { fn(s.Value()) }) }

// nearest returns the index of the value nearest x on a log scale.
func nearest(values []float64, x float64) int {
	best, dist := 0, math.Inf(1)
	for i, v := range values {
		if d := math.Abs(math.Log(v) - math.Log(math.Max(x, 1e-300))); d < dist {
			best, dist = i, d
		}
	}
	return best
}

// roundSignificant rounds x to n significant digits.
func roundSignificant(x float64, n int) float64 {
	if x == 0 {
		return 0
	}
	scale := math.Pow(10, float64(n)-math.Ceil(math.Log10(math.Abs(x))))
	return math.Round(x*scale) / scale
}

// Dropdown chooses one of several strings.
type Dropdown struct{ *valued }

// NewDropdown returns a dropdown over options, showing value (the first
// option when value is not one of them).
func NewDropdown(description string, options []string, value string) *Dropdown {
	return &Dropdown{newChoice("DropdownModel", "DropdownView", description, options, value, nil)}
}

// Value returns the chosen option.
func (d *Dropdown) Value() string { s, _ := d.m.get("value").(string); return s }

// SetValue chooses an option; it does not run the OnChange callbacks.
func (d *Dropdown) SetValue(v string) { d.m.set(map[string]any{"value": v}) }

// OnChange runs fn with the new choice whenever the user makes one.
func (d *Dropdown) OnChange(fn func(v string)) { d.hooks.add(func() { fn(d.Value()) }) }

// ToggleButtons chooses one of several strings with a row of buttons.
type ToggleButtons struct{ *valued }

// NewToggleButtons returns a row of buttons for options, value pressed.
func NewToggleButtons(description string, options []string, value string) *ToggleButtons {
	return &ToggleButtons{newChoice("ToggleButtonsModel", "ToggleButtonsView", description, options, value,
		map[string]any{"button_style": "", "icons": []any{}, "tooltips": []any{}})}
}

// Value returns the pressed option.
func (t *ToggleButtons) Value() string { s, _ := t.m.get("value").(string); return s }

// SetValue presses an option; it does not run the OnChange callbacks.
func (t *ToggleButtons) SetValue(v string) { t.m.set(map[string]any{"value": v}) }

// OnChange runs fn with the new choice whenever the user makes one.
func (t *ToggleButtons) OnChange(fn func(v string)) { t.hooks.add(func() { fn(t.Value()) }) }

// newChoice builds a selection model over options (synced by label).
func newChoice(name, view, description string, options []string, value string, extra map[string]any) *valued {
	if len(options) == 0 {
		panic("widget: a choice needs at least one option")
	}
	found := false
	for _, o := range options {
		found = found || o == value
	}
	if !found {
		value = options[0]
	}
	state := map[string]any{"description": description, "_options_labels": options, "value": value, "disabled": false}
	for k, v := range extra {
		state[k] = v
	}
	c := newValued(name, view, state)
	c.m.text = func() string {
		s, _ := c.m.get("value").(string)
		return fmt.Sprintf("%s: %s (of %s)", description, s, strings.Join(options, ", "))
	}
	return c
}

// Checkbox is a switch.
type Checkbox struct{ *valued }

// NewCheckbox returns a checkbox, ticked when value.
func NewCheckbox(description string, value bool) *Checkbox {
	c := &Checkbox{newValued("CheckboxModel", "CheckboxView", map[string]any{"description": description, "value": value, "disabled": false})}
	c.m.text = func() string { return fmt.Sprintf("%s: %v", description, c.Value()) }
	return c
}

// Value reports whether the box is ticked.
func (c *Checkbox) Value() bool { b, _ := c.m.get("value").(bool); return b }

// SetValue ticks or clears the box; it does not run the OnChange callbacks.
func (c *Checkbox) SetValue(v bool) { c.m.set(map[string]any{"value": v}) }

// OnChange runs fn with the new value whenever the user ticks or clears
// the box.
func (c *Checkbox) OnChange(fn func(v bool)) { c.hooks.add(func() { fn(c.Value()) }) }

// Text is a one-line text box.
type Text struct{ *valued }

// NewText returns a text box holding value.
func NewText(description, value string) *Text {
	t := &Text{newValued("TextModel", "TextView", map[string]any{"description": description, "value": value, "disabled": false, "placeholder": "\u200b"})}
	t.m.text = func() string { return fmt.Sprintf("%s: %q", description, t.Value()) }
	return t
}

// Value returns the text.
func (t *Text) Value() string { s, _ := t.m.get("value").(string); return s }

// SetValue replaces the text; it does not run the OnChange callbacks.
func (t *Text) SetValue(v string) { t.m.set(map[string]any{"value": v}) }

// OnChange runs fn with the new text whenever the user edits it.
func (t *Text) OnChange(fn func(v string)) { t.hooks.add(func() { fn(t.Value()) }) }

// Progress is a progress bar over [Min, Max].
type Progress struct{ *valued }

// NewProgress returns a bar over [0, max] at 0.
func NewProgress(description string, max float64) *Progress {
	p := &Progress{newValued("ProgressModel", "ProgressView", map[string]any{
		"description": description, "min": 0.0, "max": max, "step": 0.1, "value": 0.0, "bar_style": "",
		"disabled": false, "orientation": "horizontal", "style": ref(newPart("ProgressStyleModel", "StyleView", map[string]any{"bar_color": nil}))})}
	p.m.text = func() string { return fmt.Sprintf("%s: %g of %g", description, p.Value(), max) }
	return p
}

// Value returns the bar's position.
func (p *Progress) Value() float64 { return number(p.m.get("value")) }

// SetValue moves the bar.
func (p *Progress) SetValue(v float64) { p.m.set(map[string]any{"value": v}) }

// Button runs its OnClick callbacks when pressed.
type Button struct{ *valued }

// NewButton returns a button labelled description.
func NewButton(description string) *Button {
	b := &Button{newValued("ButtonModel", "ButtonView", map[string]any{
		"description": description, "button_style": "", "disabled": false, "icon": "", "tooltip": "",
		"style": ref(newPart("ButtonStyleModel", "StyleView", map[string]any{"button_color": nil, "font_weight": ""}))})}
	b.m.custom = func(content map[string]any) {
		if content["event"] == "click" {
			b.hooks.run()
		}
	}
	b.m.text = func() string { return "[" + description + "]" }
	return b
}

// OnClick runs fn whenever the button is pressed.
func (b *Button) OnClick(fn func()) { b.hooks.add(fn) }

// Label shows a line of text.
type Label struct{ *valued }

// NewLabel returns a label showing value.
func NewLabel(value string) *Label {
	l := &Label{newValued("LabelModel", "LabelView", map[string]any{"value": value, "description": "", "disabled": false, "placeholder": "\u200b"})}
	l.m.text = func() string { s, _ := l.m.get("value").(string); return s }
	return l
}

// SetValue replaces the label's text.
func (l *Label) SetValue(v string) { l.m.set(map[string]any{"value": v}) }
