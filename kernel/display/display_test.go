package display

import (
	"strings"
	"testing"
)

// recorder is a Publisher that keeps what it is given.
type recorder struct {
	shown   []Data
	updates []bool
	clears  int
}

func (r *recorder) Publish(d Data, update bool) error {
	r.shown = append(r.shown, d)
	r.updates = append(r.updates, update)
	return nil
}

func (r *recorder) Clear(bool) error { r.clears++; return nil }

func record(t *testing.T) *recorder {
	r := &recorder{}
	old := SetPublisher(r)
	t.Cleanup(func() { SetPublisher(old) })
	return r
}

func TestConstructors(t *testing.T) {
	cases := []struct {
		d    Data
		mime string
		want any
	}{
		{HTML("<b>x</b>"), MIMEHTML, "<b>x</b>"},
		{Markdown("# T"), MIMEMarkdown, "# T"},
		{SVG("<svg/>"), MIMESVG, "<svg/>"},
		{PNG([]byte{1, 2, 3}), MIMEPNG, "AQID"},
		{JPEG([]byte{1, 2, 3}), MIMEJPEG, "AQID"},
		{Latex("$x$"), MIMELatex, "$x$"},
		{Math(`\frac12`), MIMELatex, `$$\frac12$$`},
		{Text("t"), MIMEText, "t"},
	}
	for _, c := range cases {
		if got := c.d.Data[c.mime]; got != c.want {
			t.Errorf("%s = %v, want %v", c.mime, got, c.want)
		}
		if c.d.Text() == "" {
			t.Errorf("%s bundle has no text/plain fallback", c.mime)
		}
	}
}

func TestJSON(t *testing.T) {
	d := JSON(map[string]int{"a": 1})
	if m, ok := d.Data[MIMEJSON].(map[string]any); !ok || m["a"] != 1.0 {
		t.Errorf("JSON tree = %#v", d.Data[MIMEJSON])
	}
	if d.Text() != `{"a":1}` {
		t.Errorf("text = %q", d.Text())
	}
	if bad := JSON(make(chan int)); !strings.Contains(bad.Text(), "unsupported") {
		t.Errorf("unencodable value: %q", bad.Text())
	}
}

func TestWithAddsFallbackWithoutSharing(t *testing.T) {
	h := HTML("<div>chart</div>")
	both := h.With(MIMESVG, "<svg/>")
	if both.Data[MIMESVG] != "<svg/>" || both.Data[MIMEHTML] != "<div>chart</div>" {
		t.Errorf("bundle %v", both.Data)
	}
	if _, ok := h.Data[MIMESVG]; ok {
		t.Error("With changed its receiver")
	}
}

type card struct{}

func (card) Render() Data { return HTML("<i>card</i>") }

// note is a value that reads as Markdown.
type note string

func (n note) Markdown() string { return string(n) }

func TestOf(t *testing.T) {
	cases := []struct {
		v    any
		mime string
		want string
	}{
		{42, MIMEText, "42"},
		{"hi", MIMEText, `"hi"`},
		{HTML("<p>"), MIMEHTML, "<p>"},
		{card{}, MIMEHTML, "<i>card</i>"},
		{note("**n**"), MIMEMarkdown, "**n**"},
	}
	for _, c := range cases {
		if got := Of(c.v).Data[c.mime]; got != c.want {
			t.Errorf("Of(%#v)[%s] = %v, want %s", c.v, c.mime, got, c.want)
		}
	}
}

func TestDisplayPublishes(t *testing.T) {
	r := record(t)
	if err := Display(HTML("<p>a</p>"), 7); err != nil {
		t.Fatal(err)
	}
	if len(r.shown) != 2 || r.shown[0].Data[MIMEHTML] != "<p>a</p>" || r.shown[1].Text() != "7" || r.updates[0] {
		t.Errorf("published %+v", r.shown)
	}
	ClearOutput(true)
	if r.clears != 1 {
		t.Error("ClearOutput did not reach the publisher")
	}
}

func TestProgressUpdatesInPlace(t *testing.T) {
	r := record(t)
	p := NewProgress("search", 200)
	for i := 1; i <= 200; i++ {
		p.Add(1)
	}
	// One initial display and one update per whole percent.
	if len(r.shown) != 101 {
		t.Fatalf("published %d times, want 101", len(r.shown))
	}
	if r.updates[0] || !r.updates[1] {
		t.Error("first publish must be new output, later ones updates")
	}
	id := r.shown[0].Transient["display_id"]
	if id == nil || r.shown[100].Transient["display_id"] != id {
		t.Error("updates must carry the first display's display_id")
	}
	last := r.shown[100]
	if !strings.Contains(last.Text(), "100% (200/200)") || !strings.Contains(last.Data[MIMEHTML].(string), `value="200"`) {
		t.Errorf("final bar %q / %q", last.Text(), last.Data[MIMEHTML])
	}
	p.Set(500)
	if p.Done() != 200 {
		t.Errorf("Set past total gave %d", p.Done())
	}
}

// TestHandleUpdatesInPlace: a handle's updates carry its display id and
// ask for replacement; two handles do not share an id.
func TestHandleUpdatesInPlace(t *testing.T) {
	r := record(t)
	h, err := Show(BarChart("nodes", []string{"a"}).Add("n", nil, []float64{1}))
	if err != nil {
		t.Fatal(err)
	}
	other, _ := Show("other")
	if err := h.Update(BarChart("nodes", []string{"a"}).Add("n", nil, []float64{2})); err != nil {
		t.Fatal(err)
	}
	if len(r.shown) != 3 || r.updates[0] || r.updates[1] || !r.updates[2] {
		t.Fatalf("updates %v", r.updates)
	}
	if r.shown[0].Transient["display_id"] != h.ID() || r.shown[2].Transient["display_id"] != h.ID() || other.ID() == h.ID() {
		t.Errorf("display ids %v %v %v", r.shown[0].Transient, r.shown[2].Transient, other.ID())
	}
	if r.shown[0].Data[MIMEHTML] == r.shown[2].Data[MIMEHTML] {
		t.Error("the update shows the same chart")
	}
}
