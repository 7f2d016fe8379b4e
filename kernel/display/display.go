// Package display owns what a notebook cell can show: MIME bundles (Data),
// the constructors gophernotes users know (HTML, Markdown, SVG, PNG, JPEG,
// JSON, Latex, Math), Display to show one now, a progress bar that updates
// in place, tables (Table), and line, bar and scatter charts with error
// bars (Chart): live echarts charts, the library vendored and sent once per
// kernel, with an SVG drawn from the same data as static fallback. It does
// not import the kernel: the kernel installs a Publisher, and without one
// output falls back to plain text on stdout.
package display

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"sync"
)

// MIME types the constructors produce.
const (
	MIMEText     = "text/plain"
	MIMEHTML     = "text/html"
	MIMEMarkdown = "text/markdown"
	MIMELatex    = "text/latex"
	MIMESVG      = "image/svg+xml"
	MIMEPNG      = "image/png"
	MIMEJPEG     = "image/jpeg"
	MIMEJSON     = "application/json"
)

// MIMEMap maps a MIME type to its representation: a string, or for JSON
// any value that encodes as JSON.
type MIMEMap = map[string]any

// Data is a MIME bundle: one value in several representations, of which the
// front end shows the richest it can. A chart, for example, carries
// text/html for live notebooks and image/svg+xml for static renderings.
type Data struct {
	Data      MIMEMap
	Metadata  MIMEMap
	Transient MIMEMap // not stored in the notebook; holds display_id
}

// With returns a copy of d with one more representation, for bundles that
// carry fallbacks: display.HTML(h).With(display.MIMESVG, svg).
func (d Data) With(mime string, value any) Data {
	out := d.clone()
	out.Data[mime] = value
	return out
}

// Text returns the plain-text representation, or "" when d has none.
func (d Data) Text() string {
	s, _ := d.Data[MIMEText].(string)
	return s
}

func (d Data) clone() Data {
	out := Data{Data: MIMEMap{}, Metadata: copyMap(d.Metadata), Transient: copyMap(d.Transient)}
	for k, v := range d.Data {
		out.Data[k] = v
	}
	return out
}

func copyMap(m MIMEMap) MIMEMap {
	if m == nil {
		return nil
	}
	out := make(MIMEMap, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// bundle makes a Data with one rich representation and a text fallback, so
// that consoles and text-only renderings show something.
func bundle(mime string, value any, text string) Data {
	return Data{Data: MIMEMap{mime: value, MIMEText: text}}
}

// Text shows s as plain text.
func Text(s string) Data { return Data{Data: MIMEMap{MIMEText: s}} }

// HTML shows an HTML fragment.
func HTML(s string) Data { return bundle(MIMEHTML, s, "[HTML]") }

// Markdown shows Markdown; its source is the text fallback.
func Markdown(s string) Data { return bundle(MIMEMarkdown, s, s) }

// SVG shows an SVG image given as XML text.
func SVG(s string) Data { return bundle(MIMESVG, s, "[SVG image]") }

// PNG shows a PNG image from its encoded bytes.
func PNG(b []byte) Data {
	return bundle(MIMEPNG, base64.StdEncoding.EncodeToString(b), fmt.Sprintf("[PNG image, %d bytes]", len(b)))
}

// JPEG shows a JPEG image from its encoded bytes.
func JPEG(b []byte) Data {
	return bundle(MIMEJPEG, base64.StdEncoding.EncodeToString(b), fmt.Sprintf("[JPEG image, %d bytes]", len(b)))
}

// JSON shows v as an explorable JSON tree; v must encode as JSON, and when
// it does not the bundle holds the error as text.
func JSON(v any) Data {
	raw, err := json.Marshal(v)
	if err != nil {
		return Text("display.JSON: " + err.Error())
	}
	var tree any
	json.Unmarshal(raw, &tree) // raw came from Marshal, so it decodes
	return bundle(MIMEJSON, tree, string(raw))
}

// Latex shows a LaTeX document fragment, such as "$x^2$".
func Latex(s string) Data { return bundle(MIMELatex, s, s) }

// Math shows a display-mode formula written without delimiters.
func Math(s string) Data { return bundle(MIMELatex, "$$"+s+"$$", s) }

// Renderer is implemented by compiled types that know how to show
// themselves; a cell whose last value is a Renderer shows Render().
type Renderer interface {
	Render() Data
}

// Markdowner is implemented by values that read best as Markdown, such
// as an experiment's verdict; the engine cannot import this package, so
// it offers Markdown text and the display shows it.
type Markdowner interface {
	Markdown() string
}

// Of returns the bundle for any value: Data as is, a Renderer's rendering,
// a Markdowner as Markdown, a string quoted as Go would write it, anything
// else formatted with %v.
func Of(v any) Data {
	switch v := v.(type) {
	case Data:
		return v
	case *Data:
		return *v
	case Renderer:
		return v.Render()
	case Markdowner:
		return Markdown(v.Markdown())
	case string:
		return Text(strconv.Quote(v))
	}
	return Text(fmt.Sprintf("%v", v))
}

// Publisher sends bundles to the front end; the kernel implements it.
type Publisher interface {
	// Publish shows d as new output, or replaces the output shown with the
	// same d.Transient["display_id"] when update is true.
	Publish(d Data, update bool) error
	// Clear clears the cell's output, when the next output arrives if wait.
	Clear(wait bool) error
}

var (
	mu        sync.Mutex
	publisher Publisher = textPublisher{}
)

// SetPublisher installs p for all later output and returns the previous
// publisher. The kernel calls it once; tests may swap in a recorder.
func SetPublisher(p Publisher) Publisher {
	mu.Lock()
	defer mu.Unlock()
	old := publisher
	publisher = p
	return old
}

func current() Publisher {
	mu.Lock()
	defer mu.Unlock()
	return publisher
}

// Display shows each value now, as Of would show it, without waiting for
// the cell to end.
func Display(values ...any) error {
	for _, v := range values {
		if err := current().Publish(Of(v), false); err != nil {
			return err
		}
	}
	return nil
}

// ClearOutput clears the cell's output; with wait, only when the next
// output arrives, which avoids flicker in animations.
func ClearOutput(wait bool) error { return current().Clear(wait) }

// textPublisher is the fallback outside a kernel: plain text on stdout.
type textPublisher struct{}

// Publish prints d's text; an update prints again, as text cannot redraw.
func (textPublisher) Publish(d Data, update bool) error {
	_, err := fmt.Fprintln(os.Stdout, d.Text())
	return err
}

// Clear does nothing: printed text cannot be taken back.
func (textPublisher) Clear(bool) error { return nil }
