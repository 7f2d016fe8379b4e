package display

import (
	"fmt"
	"html"
	"math"
	"strconv"
	"strings"
)

// The SVG rendering of a Chart: the static fallback of its bundle, drawn
// from the chart's data with the same palette, bar layout and intervals as
// the echarts rendering, so a notebook read without JavaScript (nbconvert
// to PDF, a repository viewer, an untrusted notebook) shows the same plot.

// plot is the drawing area inside the margins, and the data ranges mapped
// onto it.
type plot struct {
	left, top, right, bottom float64 // pixels
	x0, x1, y0, y1           float64 // data range; y in log10 on a log axis
	logY                     bool
}

func (p plot) px(x float64) float64 {
	if p.x1 == p.x0 {
		return (p.left + p.right) / 2
	}
	return p.left + (x-p.x0)/(p.x1-p.x0)*(p.right-p.left)
}

func (p plot) py(y float64) float64 {
	if p.logY {
		y = math.Log10(y)
	}
	if p.y1 == p.y0 {
		return (p.top + p.bottom) / 2
	}
	return p.bottom - (y-p.y0)/(p.y1-p.y0)*(p.bottom-p.top)
}

// SVG returns the chart drawn as a standalone SVG document.
func (c *Chart) SVG() string {
	if err := c.Err(); err != nil {
		return svgMessage(c.width, c.height, err.Error())
	}
	w, h := float64(c.width), float64(c.height)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="12">`+"\n", c.width, c.height, c.width, c.height)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#ffffff"/>`+"\n", c.width, c.height)
	fmt.Fprintf(&b, `<text x="8" y="20" font-size="16" font-weight="bold" fill="#464646">%s</text>`+"\n", esc(c.title))
	top := 44.0
	if c.hasLegend() {
		c.svgLegend(&b, w)
		top = 64
	}
	p := plot{left: 64, top: top, right: w - 24, bottom: h - 56, logY: c.logY}
	yTicks := c.yRange(&p)
	xTicks := c.xRange(&p)
	c.svgAxes(&b, p, xTicks, yTicks)
	for i, s := range c.series {
		switch c.kind {
		case lineKind:
			c.svgLine(&b, p, s, color(i))
		case scatterKind:
			c.svgScatter(&b, p, s, color(i))
		default:
			c.svgBars(&b, p, s, i, color(i))
		}
		if s.lo != nil {
			c.svgErrors(&b, p, s, i, color(i))
		}
	}
	b.WriteString("</svg>\n")
	return b.String()
}

func (c *Chart) hasLegend() bool {
	return len(c.series) > 1 || len(c.series) == 1 && c.series[0].name != ""
}

// svgLegend draws the series names in a centred row under the title.
func (c *Chart) svgLegend(b *strings.Builder, w float64) {
	const swatch, gap = 20.0, 16.0
	total := 0.0
	for _, s := range c.series {
		total += swatch + 6 + textWidth(s.name) + gap
	}
	x := math.Max(8, (w-total+gap)/2)
	for i, s := range c.series {
		fmt.Fprintf(b, `<rect x="%.1f" y="34" width="%.0f" height="10" rx="2" fill="%s"/>`, x, swatch, color(i))
		fmt.Fprintf(b, `<text x="%.1f" y="43" fill="#333333">%s</text>`+"\n", x+swatch+6, esc(s.name))
		x += swatch + 6 + textWidth(s.name) + gap
	}
}

// textWidth estimates the width of s at 12px sans-serif.
func textWidth(s string) float64 { return 6.5 * float64(len([]rune(s))) }

// yRange sets p's y range from the data and returns the tick values.
func (c *Chart) yRange(p *plot) []float64 {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range c.series {
		for j, y := range s.y {
			for _, v := range []float64{y, at(s.lo, j), at(s.hi, j)} {
				if c.valid(v) {
					lo, hi = math.Min(lo, v), math.Max(hi, v)
				}
			}
		}
	}
	if math.IsInf(lo, 1) { // no data
		lo, hi = 0, 1
		if c.logY {
			lo, hi = 1, 10
		}
	}
	if c.logY {
		ticks := logTicks(lo, hi)
		p.y0, p.y1 = math.Log10(ticks[0]), math.Log10(ticks[len(ticks)-1])
		return ticks
	}
	if c.kind == barKind || c.fromZero {
		lo, hi = math.Min(lo, 0), math.Max(hi, 0)
	}
	ticks := niceTicks(lo, hi, 5)
	p.y0, p.y1 = ticks[0], ticks[len(ticks)-1]
	return ticks
}

// xRange sets p's x range and returns the tick values; for bars, the
// categories' indices, with half a category either side.
func (c *Chart) xRange(p *plot) []float64 {
	if c.kind == barKind {
		n := len(c.categories)
		p.x0, p.x1 = -0.5, float64(n)-0.5
		ticks := make([]float64, n)
		for i := range ticks {
			ticks[i] = float64(i)
		}
		return ticks
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range c.series {
		for j, x := range s.x {
			if !math.IsNaN(x) && !math.IsInf(x, 0) && c.valid(s.y[j]) {
				lo, hi = math.Min(lo, x), math.Max(hi, x)
			}
		}
	}
	if math.IsInf(lo, 1) {
		lo, hi = 0, 1
	}
	ticks := niceTicks(lo, hi, 6)
	p.x0, p.x1 = ticks[0], ticks[len(ticks)-1]
	return ticks
}

func at(v []float64, i int) float64 {
	if v == nil {
		return math.NaN()
	}
	return v[i]
}

// svgAxes draws grid lines, ticks, tick labels and axis names.
func (c *Chart) svgAxes(b *strings.Builder, p plot, xTicks, yTicks []float64) {
	for _, t := range yTicks {
		y := p.py(t)
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#e0e6f1"/>`, p.left, y, p.right, y)
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="end" fill="#6e7079">%s</text>`+"\n", p.left-8, y+4, esc(tickLabel(t, yTicks, c.logY)))
	}
	fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#6e7079"/>`+"\n", p.left, p.bottom, p.right, p.bottom)
	for i, t := range xTicks {
		x := p.px(t)
		label := ""
		if c.kind == barKind {
			label = c.categories[i]
		} else {
			label = tickLabel(t, xTicks, false)
		}
		fmt.Fprintf(b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#6e7079"/>`, x, p.bottom, x, p.bottom+5)
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle" fill="#6e7079">%s</text>`+"\n", x, p.bottom+18, esc(label))
	}
	if c.xLabel != "" {
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle" fill="#464646">%s</text>`+"\n", (p.left+p.right)/2, p.bottom+40, esc(c.xLabel))
	}
	if c.yLabel != "" {
		cx, cy := 16.0, (p.top+p.bottom)/2
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle" fill="#464646" transform="rotate(-90 %.1f %.1f)">%s</text>`+"\n", cx, cy, cx, cy, esc(c.yLabel))
	}
}

// svgLine draws s as a polyline, broken at gaps, with point markers when
// there are few points.
func (c *Chart) svgLine(b *strings.Builder, p plot, s series, col string) {
	var pts []string
	flush := func() {
		if len(pts) > 1 {
			fmt.Fprintf(b, `<polyline fill="none" stroke="%s" stroke-width="2" points="%s"/>`+"\n", col, strings.Join(pts, " "))
		}
		pts = pts[:0]
	}
	for j, y := range s.y {
		if !c.valid(y) || math.IsNaN(s.x[j]) {
			flush()
			continue
		}
		pts = append(pts, fmt.Sprintf("%.1f,%.1f", p.px(s.x[j]), p.py(y)))
	}
	flush()
	if len(s.y) <= 50 {
		c.svgPoints(b, p, s, col, 3, "#ffffff")
	}
}

func (c *Chart) svgScatter(b *strings.Builder, p plot, s series, col string) {
	c.svgPoints(b, p, s, col, 4, col)
}

func (c *Chart) svgPoints(b *strings.Builder, p plot, s series, col string, r float64, fill string) {
	for j, y := range s.y {
		if c.valid(y) && !math.IsNaN(s.x[j]) {
			fmt.Fprintf(b, `<circle cx="%.1f" cy="%.1f" r="%.0f" fill="%s" stroke="%s" stroke-width="1.5"/>`, p.px(s.x[j]), p.py(y), r, fill, col)
		}
	}
	b.WriteString("\n")
}

// svgBars draws series i of a bar chart: bar i of each category's group.
func (c *Chart) svgBars(b *strings.Builder, p plot, s series, i int, col string) {
	cw := p.px(1) - p.px(0)
	bw := cw * barGroup / float64(len(c.series))
	base := p.py(math.Max(p.y0, math.Min(p.y1, 0)))
	if c.logY {
		base = p.bottom
	}
	for j, y := range s.y {
		if !c.valid(y) {
			continue
		}
		x := p.px(s.x[j]) + barOffset(i, len(c.series))*cw - bw/2
		top := p.py(y)
		fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"/>`, x, math.Min(top, base), bw, math.Abs(base-top), col)
	}
	b.WriteString("\n")
}

// svgErrors draws s's intervals as vertical bars with caps.
func (c *Chart) svgErrors(b *strings.Builder, p plot, s series, i int, col string) {
	shift := 0.0
	if c.kind == barKind {
		shift = barOffset(i, len(c.series)) * (p.px(1) - p.px(0))
	}
	for j := range s.y {
		if !c.valid(s.lo[j]) || !c.valid(s.hi[j]) || math.IsNaN(s.x[j]) {
			continue
		}
		x := p.px(s.x[j]) + shift
		y0, y1 := p.py(s.lo[j]), p.py(s.hi[j])
		fmt.Fprintf(b, `<path d="M%.1f %.1fV%.1fM%.1f %.1fH%.1fM%.1f %.1fH%.1f" stroke="%s" stroke-width="1.5" fill="none"/>`,
			x, y0, y1, x-4, y0, x+4, x-4, y1, x+4, col)
	}
	b.WriteString("\n")
}

// niceTicks returns about n round values from at most lo to at least hi,
// spaced 1, 2 or 5 times a power of ten.
func niceTicks(lo, hi float64, n int) []float64 {
	if hi < lo {
		lo, hi = hi, lo
	}
	if hi == lo {
		d := math.Max(math.Abs(lo)/10, 1)
		lo, hi = lo-d, hi+d
	}
	raw := (hi - lo) / float64(n)
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := mag
	for _, m := range []float64{1, 2, 5, 10} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	start := math.Floor(lo/step) * step
	var ticks []float64
	for i := 0; ; i++ {
		t := start + float64(i)*step
		if math.Abs(t) < step*1e-9 {
			t = 0
		}
		ticks = append(ticks, t)
		if t >= hi-step*1e-9 || i > 100 {
			break
		}
	}
	return ticks
}

// logTicks returns the powers of ten from at most lo to at least hi (lo > 0).
func logTicks(lo, hi float64) []float64 {
	a, b := math.Floor(math.Log10(lo)), math.Ceil(math.Log10(hi))
	if b == a {
		b++
	}
	var ticks []float64
	for e := a; e <= b; e++ {
		ticks = append(ticks, math.Pow(10, e))
	}
	return ticks
}

// tickLabel formats tick t of ticks: in thousands (k) or millions (M)
// when the ticks reach 10,000 or a million, and as briefly as it reads
// exactly (0.2, not 0.20000000000000001). Log-axis ticks, powers of ten,
// are each shortened alone, as echarts' labels are.
func tickLabel(t float64, ticks []float64, log bool) string {
	if log {
		return shortNumber(t)
	}
	top := 0.0
	for _, v := range ticks {
		top = math.Max(top, math.Abs(v))
	}
	unit, suffix := 1.0, ""
	switch {
	case top >= 1e6:
		unit, suffix = 1e6, "M"
	case top >= 1e4:
		unit, suffix = 1e3, "k"
	}
	if t == 0 {
		return "0"
	}
	v, _ := strconv.ParseFloat(strconv.FormatFloat(t/unit, 'g', 9, 64), 64) // drop float noise
	return strconv.FormatFloat(v, 'f', -1, 64) + suffix
}

// shortNumber writes v with at most three significant digits in k or M
// from 10,000 up, as shortNumberJS does.
func shortNumber(v float64) string {
	switch a := math.Abs(v); {
	case a >= 1e6:
		return strconv.FormatFloat(v/1e6, 'g', 3, 64) + "M"
	case a >= 1e4:
		return strconv.FormatFloat(v/1e3, 'g', 3, 64) + "k"
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}

func esc(s string) string { return html.EscapeString(s) }

// svgMessage is an SVG showing only a message, for a chart that cannot be drawn.
func svgMessage(w, h int, msg string) string {
	return fmt.Sprintf(`<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="12"><text x="8" y="20" fill="#c23531">%s</text></svg>`+"\n", w, h, esc(msg))
}
