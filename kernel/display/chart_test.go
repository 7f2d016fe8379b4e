package display

import (
	"context"
	"encoding/xml"
	"errors"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/go-echarts/go-echarts/v2/charts"
	"github.com/go-echarts/go-echarts/v2/opts"

	"gdlab/kernel/display/echarts"
)

// testCharts are one chart of each kind, with intervals, gaps and a log axis.
func testCharts() map[string]*Chart {
	xs := []float64{1, 2, 3, 4, 5}
	return map[string]*Chart{
		"bars": BarChart("Playouts per second", []string{"ticTacToe", "connectFour", "breakthrough"}).
			Labels("game", "playouts/s").
			AddErr("prover", nil, []float64{9169, 573, 121}, []float64{300, 20, 5}).
			AddErr("propnet", nil, []float64{186541, 47546, 17738}, []float64{5000, 1000, 400}),
		"lines": LineChart("Win rate by depth").Labels("depth", "win %").
			AddCI("alpha-beta", xs, []float64{50, 55, 61, 70, 72}, []float64{45, 50, 56, 64, 66}, []float64{55, 60, 66, 76, 78}).
			Add("minimax", xs, []float64{50, 52, math.NaN(), 60, 63}),
		"scatter": ScatterChart("Nodes and time").Labels("nodes", "ms").LogY().
			Add("", []float64{1, 2, 3, 4}, []float64{0.5, 20, 300, 4000}),
		"empty": LineChart("Nothing yet"),
	}
}

func TestChartBundle(t *testing.T) {
	loaderSent.Store(false)
	first := testCharts()["bars"].Render()
	second := testCharts()["bars"].Render()
	for i, d := range []Data{first, second} {
		html, _ := d.Data[MIMEHTML].(string)
		svg, _ := d.Data[MIMESVG].(string)
		if !strings.HasPrefix(svg, "<svg ") || !strings.Contains(html, svg) {
			t.Errorf("render %d: the HTML does not hold the SVG fallback", i)
		}
		if got := d.Text(); got != `[Bar chart "Playouts per second": prover, propnet]` {
			t.Errorf("render %d: text %q", i, got)
		}
		if !strings.Contains(html, `echarts.init(el)`) || !strings.Contains(html, `"type":"custom"`) {
			t.Errorf("render %d: no live chart with error bars in the HTML", i)
		}
		if loads := strings.Contains(html, "Apache ECharts "+echarts.Version); loads != (i == 0) {
			t.Errorf("render %d carries the library: %v; only the first should", i, loads)
		}
	}
	if id := regexp.MustCompile(`id="(gdlab-chart-[^"]+)"`).FindAllStringSubmatch(first.Data[MIMEHTML].(string)+second.Data[MIMEHTML].(string), -1); len(id) != 2 || id[0][1] == id[1][1] {
		t.Errorf("chart element ids %v, want two different ones", id)
	}
	if d := ECharts(); !strings.Contains(d.Data[MIMEHTML].(string), "window.echarts") {
		t.Error("ECharts() does not define window.echarts")
	}
}

func TestLoaderHidesAMD(t *testing.T) {
	h := loaderHTML()
	body := strings.TrimSuffix(strings.TrimSpace(h), "</script>")
	if strings.Contains(body, "</script") {
		t.Error("the library's text closes its script element early")
	}
	for _, want := range []string{`typeof window.echarts === "undefined"`, "(function (define, exports, module) {", "}).call(window);"} {
		if !strings.Contains(h, want) {
			t.Errorf("loader lacks %q", want)
		}
	}
	if len(echarts.JS) < 500_000 {
		t.Errorf("vendored echarts is %d bytes; run scripts/vendor-echarts.sh", len(echarts.JS))
	}
}

// TestChartSVG checks that each chart's SVG is well-formed XML with the
// marks its data calls for.
func TestChartSVG(t *testing.T) {
	want := map[string]map[string]int{
		"bars":    {"rect": 1 + 2*3 + 2, "path": 2 * 3}, // background, bars, legend swatches; error bars
		"lines":   {"polyline": 1 + 2, "circle": 5 + 4, "path": 5},
		"scatter": {"circle": 4},
		"empty":   {"polyline": 0},
	}
	for name, c := range testCharts() {
		counts := elements(t, name, c.SVG())
		for el, n := range want[name] {
			if counts[el] != n {
				t.Errorf("%s: %d <%s> elements, want %d", name, counts[el], el, n)
			}
		}
	}
}

// elements parses svg and counts its elements by name.
func elements(t *testing.T, name, svg string) map[string]int {
	t.Helper()
	counts := map[string]int{}
	dec := xml.NewDecoder(strings.NewReader(svg))
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			return counts
		}
		if err != nil {
			t.Fatalf("%s: SVG is not well-formed: %v\n%s", name, err, svg)
		}
		if se, ok := tok.(xml.StartElement); ok {
			counts[se.Name.Local]++
		}
	}
}

func TestChartMistakes(t *testing.T) {
	cases := map[string]*Chart{
		"lengths":    LineChart("t").Add("a", []float64{1, 2}, []float64{1}),
		"categories": BarChart("t", []string{"a", "b"}).Add("s", nil, []float64{1}),
		"errors":     ScatterChart("t").AddErr("s", nil, []float64{1, 2}, []float64{1}),
		"bounds":     LineChart("t").AddCI("s", nil, []float64{1}, []float64{0}, nil),
		"size":       LineChart("t").Size(10, 10),
	}
	for name, c := range cases {
		if c.Err() == nil {
			t.Errorf("%s: no error", name)
			continue
		}
		d := c.Render()
		if _, ok := d.Data[MIMEHTML]; ok || !strings.Contains(d.Text(), "display: ") {
			t.Errorf("%s: rendered %v, want the error as text", name, d.Data)
		}
		elements(t, name, c.SVG())
	}
}

func TestLines(t *testing.T) {
	c := Lines("t", []float64{0, 1}, map[string][]float64{"b": {1, 2}, "a": {3, 4}})
	if c.Err() != nil || len(c.series) != 2 || c.series[0].name != "a" {
		t.Errorf("Lines: %v, series %v", c.Err(), c.series)
	}
}

func TestNiceTicks(t *testing.T) {
	cases := []struct {
		lo, hi float64
		n      int
		want   []float64
	}{
		{0, 1, 5, []float64{0, 0.2, 0.4, 0.6, 0.8, 1}},
		{45, 78, 5, []float64{40, 50, 60, 70, 80}},
		{0, 186541, 5, []float64{0, 50000, 100000, 150000, 200000}},
		{-3, 3, 6, []float64{-3, -2, -1, 0, 1, 2, 3}},
		{5, 5, 5, []float64{4, 4.5, 5, 5.5, 6}},
	}
	for _, c := range cases {
		got := niceTicks(c.lo, c.hi, c.n)
		if len(got) != len(c.want) {
			t.Errorf("niceTicks(%v, %v) = %v, want %v", c.lo, c.hi, got, c.want)
			continue
		}
		for i := range got {
			if math.Abs(got[i]-c.want[i]) > 1e-9 {
				t.Errorf("niceTicks(%v, %v) = %v, want %v", c.lo, c.hi, got, c.want)
				break
			}
		}
	}
	if got := logTicks(0.5, 4000); len(got) != 6 || got[0] != 0.1 || got[5] != 10000 {
		t.Errorf("logTicks(0.5, 4000) = %v", got)
	}
}

func TestTickLabel(t *testing.T) {
	cases := []struct {
		t     float64
		ticks []float64
		log   bool
		want  string
	}{
		{0.4, []float64{0, 0.2, 0.4}, false, "0.4"},
		{150000, []float64{0, 50000, 100000, 150000}, false, "150k"},
		{2500000, []float64{0, 2500000}, false, "2.5M"},
		{60, []float64{40, 50, 60}, false, "60"},
		{10000, []float64{1, 10, 100, 1000, 10000}, true, "10k"},
		{0.1, []float64{0.1, 1}, true, "0.1"},
		{1000, []float64{0.1, 1000}, true, "1000"},
	}
	for _, c := range cases {
		if got := tickLabel(c.t, c.ticks, c.log); got != c.want {
			t.Errorf("tickLabel(%v, %v, %v) = %q, want %q", c.t, c.ticks, c.log, got, c.want)
		}
	}
}

// TestEChartUnquotesFunctions shows a chart a cell might build with
// go-echarts, with a JavaScript formatter, which must reach echarts as a
// function rather than a string.
func TestEChartUnquotesFunctions(t *testing.T) {
	l := charts.NewLine()
	l.SetGlobalOptions(charts.WithYAxisOpts(opts.YAxis{AxisLabel: &opts.AxisLabel{Formatter: opts.FuncOpts("function (v) { return v + ' %'; }")}}))
	l.SetXAxis([]string{"a", "b"}).AddSeries("s", []opts.LineData{{Value: 1}, {Value: 2}})
	html := EChart(l).Data[MIMEHTML].(string)
	if !strings.Contains(html, `"formatter":function (v)`) {
		t.Errorf("the formatter is not a function in:\n%s", html[max(0, len(html)-1500):])
	}
}

// TestOptionsRenderInECharts feeds each chart's option to the vendored
// echarts under Node, which renders charts to SVG without a browser, so
// that a mistake in an option or in the error-bar function fails here.
func TestOptionsRenderInECharts(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the options are not checked against echarts itself")
	}
	dir := t.TempDir()
	lib := filepath.Join(dir, "echarts.js")
	if err := os.WriteFile(lib, []byte(echarts.JS), 0o644); err != nil {
		t.Fatal(err)
	}
	const script = `
const echarts = require(process.argv[1]);
const fs = require('fs');
const option = eval('(' + fs.readFileSync(process.argv[2], 'utf8') + ')');
const chart = echarts.init(null, null, {renderer: 'svg', ssr: true, width: 720, height: 400});
chart.setOption(option);
process.stdout.write(chart.renderToSVGString());
chart.dispose();
process.exit(0);
`
	for name, c := range testCharts() {
		opt := filepath.Join(dir, name+".js")
		if err := os.WriteFile(opt, []byte(c.Option()), 0o644); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		out, err := exec.CommandContext(ctx, node, "-e", script, lib, opt).CombinedOutput()
		cancel()
		if err != nil {
			t.Errorf("%s: echarts failed: %v\n%s", name, err, out)
			continue
		}
		svg := string(out)
		if !strings.HasPrefix(svg, "<svg") || (name != "empty" && !strings.Contains(svg, "<path")) {
			t.Errorf("%s: echarts drew no marks:\n%.500s", name, svg)
		}
		if c.title != "" && !strings.Contains(svg, c.title) {
			t.Errorf("%s: echarts did not draw the title %q", name, c.title)
		}
	}
}

// TestChartScriptWaitsForElement runs a chart's scripts under Node with a
// stub page whose output is attached only after the scripts ran, as in
// Notebook 6, and a stub echarts: the chart must still be drawn, once.
func TestChartScriptWaitsForElement(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the chart's script is not run")
	}
	loaderSent.Store(false)
	html := testCharts()["lines"].Render().Data[MIMEHTML].(string)
	file := filepath.Join(t.TempDir(), "chart.html")
	if err := os.WriteFile(file, []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	const script = `
const fs = require('fs'), vm = require('vm');
const html = fs.readFileSync(process.argv[1], 'utf8');
const scripts = [...html.matchAll(/<script type="text\/javascript">([\s\S]*?)<\/script>/g)].map(m => m[1]);
globalThis.window = globalThis;
let attached = false, draws = 0, series = 0;
const el = {innerHTML: '<svg></svg>', style: {}};
globalThis.document = {getElementById: id => attached && id.startsWith('gdlab-chart-') ? el : null};
window.echarts = {init: e => ({setOption: o => { draws++; series = o.series.length; }, resize() {}})};
for (const s of scripts) vm.runInThisContext(s);
setTimeout(() => { attached = true; }, 50);
setTimeout(() => {
  console.log(JSON.stringify({scripts: scripts.length, draws, series, height: el.style.height, cleared: el.innerHTML === ''}));
  process.exit(0);
}, 400);
`
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, node, "-e", script, file).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	// The loader, skipped because the stub defines echarts, and the chart.
	want := `{"scripts":2,"draws":1,"series":3,"height":"400px","cleared":true}`
	if got := strings.TrimSpace(string(out)); got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
