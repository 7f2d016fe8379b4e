package display

import (
	"fmt"
	"hash/fnv"
	"html/template"
	"math"
	"regexp"
	"strings"
	"sync/atomic"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"

	"gdlab/kernel/display/echarts"
)

// palette is echarts' default series palette, which the SVG uses too, so
// that both renderings of a chart agree.
var palette = []string{"#5470c6", "#91cc75", "#fac858", "#ee6666", "#73c0de", "#3ba272", "#fc8452", "#9a60b4", "#ea7ccc"}

func color(i int) string { return palette[i%len(palette)] }

// Bars fill 80% of their category (echarts' barCategoryGap 20%) and touch
// (barGap 0), so that bar i of n is centred at barOffset(i, n) category
// widths from the category's centre, in echarts and in the SVG alike.
const barGroup = 0.8

func barOffset(i, n int) float64 { return -barGroup/2 + (float64(i)+0.5)*barGroup/float64(n) }

// errorBarJS draws the interval of one data item [x, lo, hi, dx] as a
// vertical line with caps, shifted dx category widths (for grouped bars).
const errorBarJS = `function (params, api) {
	var x = api.value(0), lo = api.value(1), hi = api.value(2), dx = api.value(3);
	var shift = dx * api.size([1, 0])[0];
	var a = api.coord([x, lo]), b = api.coord([x, hi]);
	var style = {stroke: api.visual('color'), lineWidth: 1.5, fill: null};
	var cap = 4;
	return {type: 'group', children: [
		{type: 'line', shape: {x1: a[0] + shift, y1: a[1], x2: b[0] + shift, y2: b[1]}, style: style},
		{type: 'line', shape: {x1: a[0] + shift - cap, y1: a[1], x2: a[0] + shift + cap, y2: a[1]}, style: style},
		{type: 'line', shape: {x1: b[0] + shift - cap, y1: b[1], x2: b[0] + shift + cap, y2: b[1]}, style: style}
	]};
}`

// shortNumberJS formats axis labels as the SVG's tickLabel does on a log
// axis: 12k for 12000, 1.5M for 1500000.
const shortNumberJS = `function (v) {
	var a = Math.abs(v);
	if (a >= 1e6) { return +(v / 1e6).toPrecision(3) + 'M'; }
	if (a >= 1e4) { return +(v / 1e3).toPrecision(3) + 'k'; }
	return String(+v.toPrecision(6));
}`

// Option returns the chart's echarts option as JavaScript (JSON with the
// error bars' drawing function), made with go-echarts.
func (c *Chart) Option() string {
	global := []charts.GlobalOpts{
		charts.WithTitleOpts(opts.Title{Title: c.title, Left: "left"}),
		charts.WithLegendOpts(opts.Legend{Show: opts.Bool(len(c.series) > 1 || len(c.series) == 1 && c.series[0].name != ""), Top: "28"}),
		charts.WithTooltipOpts(opts.Tooltip{Show: opts.Bool(true), Trigger: map[chartKind]string{lineKind: "axis", barKind: "axis", scatterKind: "item"}[c.kind]}),
		charts.WithColorsOpts(opts.Colors(palette)),
		charts.WithGridOpts(opts.Grid{Left: "64", Right: "24", Top: "64", Bottom: "56"}),
		charts.WithAnimation(false),
		charts.WithXAxisOpts(c.xAxis()),
		charts.WithYAxisOpts(opts.YAxis{Type: map[bool]string{false: "value", true: "log"}[c.logY], Name: c.yLabel, NameLocation: "middle", NameGap: 48,
			Scale: opts.Bool(c.kind != barKind && !c.fromZero), AxisLabel: &opts.AxisLabel{Formatter: opts.FuncOpts(shortNumberJS)}}),
	}
	var chart ECharter
	switch c.kind {
	case lineKind:
		l := charts.NewLine().SetXAxis(nil)
		l.SetGlobalOptions(global...)
		for i, s := range c.series {
			l.AddSeries(s.name, c.lineData(s), charts.WithItemStyleOpts(opts.ItemStyle{Color: color(i)}),
				charts.WithLineChartOpts(opts.LineChart{ShowSymbol: opts.Bool(len(s.y) <= 50), ConnectNulls: opts.Bool(false)}))
		}
		c.overlapErrors(&l.RectChart)
		chart = l
	case scatterKind:
		sc := charts.NewScatter().SetXAxis(nil)
		sc.SetGlobalOptions(global...)
		for i, s := range c.series {
			sc.AddSeries(s.name, c.scatterData(s), charts.WithItemStyleOpts(opts.ItemStyle{Color: color(i)}),
				charts.WithScatterChartOpts(opts.ScatterChart{SymbolSize: 8}))
		}
		c.overlapErrors(&sc.RectChart)
		chart = sc
	default:
		b := charts.NewBar().SetXAxis(c.categories)
		b.SetGlobalOptions(global...)
		for i, s := range c.series {
			b.AddSeries(s.name, c.barData(s), charts.WithItemStyleOpts(opts.ItemStyle{Color: color(i)}),
				charts.WithBarChartOpts(opts.BarChart{BarGap: "0%", BarCategoryGap: fmt.Sprintf("%.0f%%", 100*(1-barGroup))}))
		}
		c.overlapErrors(&b.RectChart)
		chart = b
	}
	return optionJS(chart)
}

func (c *Chart) xAxis() opts.XAxis {
	ax := opts.XAxis{Name: c.xLabel, NameLocation: "middle", NameGap: 32}
	if c.kind == barKind {
		ax.Type = "category"
	} else {
		ax.Type, ax.Scale = "value", opts.Bool(true)
	}
	return ax
}

// yValue is a y value as echarts takes it: "-" for a gap.
func (c *Chart) yValue(v float64) any {
	if !c.valid(v) {
		return "-"
	}
	return v
}

func (c *Chart) lineData(s series) []opts.LineData {
	out := make([]opts.LineData, len(s.y))
	for i := range s.y {
		out[i] = opts.LineData{Value: []any{s.x[i], c.yValue(s.y[i])}}
	}
	return out
}

func (c *Chart) scatterData(s series) []opts.ScatterData {
	out := make([]opts.ScatterData, len(s.y))
	for i := range s.y {
		out[i] = opts.ScatterData{Value: []any{s.x[i], c.yValue(s.y[i])}}
	}
	return out
}

func (c *Chart) barData(s series) []opts.BarData {
	out := make([]opts.BarData, len(s.y))
	for i, v := range s.y {
		out[i] = opts.BarData{Value: c.yValue(v)}
	}
	return out
}

// overlapErrors adds a custom series drawing the error bars of each series
// that has them. It has the series' name and colour, so the legend shows
// one entry for both and toggles both.
func (c *Chart) overlapErrors(main *charts.RectChart) {
	for i, s := range c.series {
		if s.lo == nil {
			continue
		}
		var data []opts.CustomData
		for j := range s.y {
			if !c.valid(s.lo[j]) || !c.valid(s.hi[j]) || math.IsNaN(s.x[j]) {
				continue
			}
			dx := 0.0
			if c.kind == barKind {
				dx = barOffset(i, len(c.series))
			}
			data = append(data, opts.CustomData{Value: []float64{s.x[j], s.lo[j], s.hi[j], dx}})
		}
		custom := charts.NewCustom()
		// encode makes both bounds count for the y axis's extent.
		custom.AddSeries(s.name, data, charts.WithCustomChartOpts(opts.CustomChart{RenderItem: opts.FuncOpts(errorBarJS)}),
			charts.WithEncodeOpts(opts.Encode{X: 0, Y: []int{1, 2}}),
			charts.WithItemStyleOpts(opts.ItemStyle{Color: color(i)}))
		main.Overlap(custom)
	}
}

// ECharter is a go-echarts chart, such as *charts.Line or *charts.Bar:
// Validate puts its series and axes in place and JSONNotEscaped encodes
// its option.
type ECharter interface {
	Validate()
	JSONNotEscaped() template.HTML
}

// EChart shows a chart built with go-echarts in a cell, with the library
// loaded as for Chart. It has no static image: where JavaScript does not
// run, the text fallback names the chart.
func EChart(c ECharter) Data {
	return Data{Data: MIMEMap{
		MIMEHTML: echartsHTML(optionJS(c), "<p>[echarts chart: it needs JavaScript]</p>", DefaultChartWidth, DefaultChartHeight),
		MIMEText: "[echarts chart]",
	}}
}

// funcMarkers are what go-echarts puts around JavaScript functions
// (opts.FuncOpts) in the encoded option, quotes included.
var funcMarkers = regexp.MustCompile(`(__f__")|("__f__)|(__f__)`)

// optionJS returns c's option as JavaScript: the JSON with functions
// unquoted, as go-echarts' own page rendering does. (Its RenderSnippet
// leaves them quoted, as strings echarts cannot call.)
func optionJS(c ECharter) string {
	c.Validate()
	return funcMarkers.ReplaceAllString(strings.TrimSpace(string(c.JSONNotEscaped())), "")
}

// loaderSent records whether this process has sent echarts to the front
// end. A kernel serves one notebook, so the first chart carries the
// library and later ones find it in the page.
var loaderSent atomic.Bool

// ECharts returns the echarts library as an HTML output. Charts include it
// by themselves the first time; show it again with Display(ECharts()) if
// the output that carried it was cleared and later charts show only their
// static images.
func ECharts() Data {
	loaderSent.Store(true)
	return Data{Data: MIMEMap{MIMEHTML: loaderHTML(), MIMEText: "[echarts " + echarts.Version + " loaded]"}}
}

// loaderHTML defines window.echarts unless the page already has it. The
// library's UMD header prefers AMD or CommonJS when it finds them, which
// in a Notebook 6 page (RequireJS) would leave window.echarts undefined;
// the wrapper shadows define, exports and module with undefined, so the
// library always installs itself as a global.
func loaderHTML() string {
	js := strings.ReplaceAll(echarts.JS, "</script", `<\/script`)
	return `<script type="text/javascript">` + "\n/* Apache ECharts " + echarts.Version + ", vendored by gdlab */\n" +
		"if (typeof window.echarts === \"undefined\") { (function (define, exports, module) {\n" +
		js + "\n}).call(window); }\n</script>\n"
}

var chartSeq atomic.Int64

// echartsHTML returns a chart's HTML: a div holding the static fallback,
// which the script replaces with the live chart when echarts is loaded.
// The first chart of the process carries the library itself.
func echartsHTML(option, fallback string, width, height int) string {
	h := fnv.New64a()
	h.Write([]byte(option))
	id := fmt.Sprintf("gdlab-chart-%d-%08x", chartSeq.Add(1), h.Sum64()&0xffffffff)
	var b strings.Builder
	if loaderSent.CompareAndSwap(false, true) {
		b.WriteString(loaderHTML())
	}
	fmt.Fprintf(&b, `<div class="gdlab-chart" id="%s" style="width:100%%;max-width:%dpx">%s</div>`+"\n", id, width, fallback)
	// Notebook 6 runs an output's scripts before it attaches the output to
	// the page (and JupyterLab may too), so the script looks for its element
	// again for a while; the ResizeObserver redraws the chart once the
	// element has its real width.
	fmt.Fprintf(&b, `<script type="text/javascript">
(function () {
  var tries = 0;
  function draw() {
    var el = document.getElementById(%q);
    if (!el) { if (tries++ < 100) { setTimeout(draw, 20); } return; }
    if (typeof window.echarts === "undefined") { return; }
    var option = %s;
    el.innerHTML = "";
    el.style.height = "%dpx";
    var chart = window.echarts.init(el);
    chart.setOption(option);
    if (window.ResizeObserver) { new ResizeObserver(function () { chart.resize(); }).observe(el); }
  }
  draw();
})();
</script>
`, id, strings.ReplaceAll(strings.TrimSpace(option), "</", `<\/`), height)
	return b.String()
}
