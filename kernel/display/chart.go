package display

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Chart is a line, bar or scatter chart, built by chaining and shown as a
// cell's value or with Display. Its bundle holds an interactive echarts
// chart (text/html, the library vendored and sent once per kernel; see
// ECharts), a static SVG drawn from the same data (image/svg+xml, also
// inside the HTML until the script replaces it, for renderings where
// JavaScript does not run), and a one-line summary (text/plain).
//
//	display.LineChart("Playouts per second").
//		Labels("depth", "playouts/s").
//		AddErr("prover", depths, rates, halfWidths)
//
// A mistake in the data, such as series of unequal lengths, is reported
// in place of the chart rather than panicking.
type Chart struct {
	kind           chartKind
	title          string
	xLabel, yLabel string
	categories     []string
	series         []series
	width, height  int
	logY           bool
	err            error
	fromZero       bool
}

type chartKind int

const (
	lineKind chartKind = iota
	barKind
	scatterKind
)

func (k chartKind) String() string {
	return [...]string{"Line chart", "Bar chart", "Scatter chart"}[k]
}

// series is one named set of points with optional intervals [lo, hi].
type series struct {
	name   string
	x, y   []float64
	lo, hi []float64 // nil when the series has no error bars
}

// Default chart size in pixels; Size changes it.
const (
	DefaultChartWidth  = 720
	DefaultChartHeight = 400
)

// LineChart starts a chart of lines through points in order of x.
func LineChart(title string) *Chart { return newChart(lineKind, title) }

// ScatterChart starts a chart of unconnected points.
func ScatterChart(title string) *Chart { return newChart(scatterKind, title) }

// BarChart starts a chart of grouped bars, one group per category; each
// series gives one value per category, in order.
func BarChart(title string, categories []string) *Chart {
	c := newChart(barKind, title)
	c.categories = append([]string(nil), categories...)
	return c
}

// Lines is a line chart of several series over shared x values, one per
// map entry, in order of name.
func Lines(title string, xs []float64, ys map[string][]float64) *Chart {
	c := LineChart(title)
	names := make([]string, 0, len(ys))
	for name := range ys {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		c.Add(name, xs, ys[name])
	}
	return c
}

func newChart(kind chartKind, title string) *Chart {
	return &Chart{kind: kind, title: title, width: DefaultChartWidth, height: DefaultChartHeight}
}

// Labels names the axes.
func (c *Chart) Labels(x, y string) *Chart {
	c.xLabel, c.yLabel = x, y
	return c
}

// Size sets the chart's size in pixels; the chart shrinks to fit narrower
// outputs, keeping its proportions.
func (c *Chart) Size(width, height int) *Chart {
	if width < 100 || height < 80 {
		c.fail(fmt.Errorf("size %dx%d is too small (at least 100x80)", width, height))
		return c
	}
	c.width, c.height = width, height
	return c
}

// LogY puts the y axis on a logarithmic scale; points with y ≤ 0 are left out.
func (c *Chart) LogY() *Chart {
	c.logY = true
	return c
}

// FromZero makes a line or scatter chart's y axis start at zero; by
// default it fits the data. Bar charts always start at zero.
func (c *Chart) FromZero() *Chart {
	c.fromZero = true
	return c
}

// Add adds a series of points (xs[i], ys[i]). For a bar chart xs is
// ignored and may be nil: ys holds one value per category. For a line or
// scatter chart a nil xs means 0, 1, 2, .... NaN values are gaps.
func (c *Chart) Add(name string, xs, ys []float64) *Chart {
	return c.add(name, xs, ys, nil, nil)
}

// AddErr adds a series with symmetric error bars: ys[i] ± errs[i].
func (c *Chart) AddErr(name string, xs, ys, errs []float64) *Chart {
	if len(errs) != len(ys) {
		c.fail(fmt.Errorf("series %q: %d values but %d errors", name, len(ys), len(errs)))
		return c
	}
	lo, hi := make([]float64, len(ys)), make([]float64, len(ys))
	for i, y := range ys {
		lo[i], hi[i] = y-math.Abs(errs[i]), y+math.Abs(errs[i])
	}
	return c.add(name, xs, ys, lo, hi)
}

// AddCI adds a series with intervals, such as confidence intervals:
// ys[i] is drawn with a bar from lo[i] to hi[i].
func (c *Chart) AddCI(name string, xs, ys, lo, hi []float64) *Chart {
	if len(lo) != len(ys) || len(hi) != len(ys) {
		c.fail(fmt.Errorf("series %q: %d values but %d lower and %d upper bounds", name, len(ys), len(lo), len(hi)))
		return c
	}
	return c.add(name, xs, ys, append([]float64(nil), lo...), append([]float64(nil), hi...))
}

func (c *Chart) add(name string, xs, ys, lo, hi []float64) *Chart {
	switch {
	case c.kind == barKind && len(ys) != len(c.categories):
		c.fail(fmt.Errorf("series %q: %d values for %d categories", name, len(ys), len(c.categories)))
		return c
	case c.kind == barKind || xs == nil:
		xs = make([]float64, len(ys))
		for i := range xs {
			xs[i] = float64(i)
		}
	case len(xs) != len(ys):
		c.fail(fmt.Errorf("series %q: %d x values but %d y values", name, len(xs), len(ys)))
		return c
	default:
		xs = append([]float64(nil), xs...)
	}
	c.series = append(c.series, series{name: name, x: xs, y: append([]float64(nil), ys...), lo: lo, hi: hi})
	return c
}

// fail keeps the first error; Render shows it instead of the chart.
func (c *Chart) fail(err error) {
	if c.err == nil {
		c.err = err
	}
}

// Err returns the first mistake made building the chart, or nil.
func (c *Chart) Err() error {
	if c.err != nil {
		return fmt.Errorf("display: %s %q: %w", strings.ToLower(c.kind.String()), c.title, c.err)
	}
	return nil
}

// Render returns the chart's bundle: interactive HTML with the SVG inside
// as fallback, the SVG alone, and a summary. A chart built with mistakes
// renders as the error's text.
func (c *Chart) Render() Data {
	if err := c.Err(); err != nil {
		return Text(err.Error())
	}
	svg := c.SVG()
	return Data{Data: MIMEMap{
		MIMEHTML: echartsHTML(c.Option(), svg, c.width, c.height),
		MIMESVG:  svg,
		MIMEText: c.summary(),
	}}
}

// summary is the chart's text form: kind, title and series.
func (c *Chart) summary() string {
	names := make([]string, len(c.series))
	for i, s := range c.series {
		names[i] = s.name
	}
	return fmt.Sprintf("[%s %q: %s]", c.kind, c.title, strings.Join(names, ", "))
}

// valid reports whether v can be drawn on the chart's y axis.
func (c *Chart) valid(v float64) bool {
	return !math.IsNaN(v) && !math.IsInf(v, 0) && (!c.logY || v > 0)
}
