package display

import (
	"fmt"
	"html"
	"strings"
	"sync"
	"sync/atomic"
)

// Progress is a progress bar shown once and then updated in place, with an
// HTML <progress> element and a text bar as fallback. It is safe for use
// by several goroutines.
type Progress struct {
	label string
	total int
	id    string

	mu      sync.Mutex
	done    int
	percent int // last published, so that updates are sent only on change
}

var progressSeq atomic.Int64

// NewProgress shows a bar for total steps, labelled label, at zero.
func NewProgress(label string, total int) *Progress {
	p := &Progress{
		label:   label,
		total:   max(total, 1),
		id:      fmt.Sprintf("gdlab-progress-%d", progressSeq.Add(1)),
		percent: -1,
	}
	p.publish(false)
	return p
}

// Add advances the bar by n steps.
func (p *Progress) Add(n int) { p.Set(p.Done() + n) }

// Set moves the bar to n steps, clamped to [0, total]. The display is
// updated only when the whole percentage changes, so a loop may call Set
// on every iteration without flooding the notebook.
func (p *Progress) Set(n int) {
	p.mu.Lock()
	p.done = min(max(n, 0), p.total)
	changed := p.done*100/p.total != p.percent
	p.mu.Unlock()
	if changed {
		p.publish(true)
	}
}

// Done returns the steps done so far.
func (p *Progress) Done() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.done
}

// Render returns the bar's current bundle.
func (p *Progress) Render() Data {
	p.mu.Lock()
	done, total := p.done, p.total
	p.mu.Unlock()
	return p.render(done, total)
}

func (p *Progress) render(done, total int) Data {
	pct := done * 100 / total
	const width = 30
	fill := width * done / total
	text := fmt.Sprintf("%s [%s%s] %3d%% (%d/%d)", p.label,
		strings.Repeat("#", fill), strings.Repeat(" ", width-fill), pct, done, total)
	h := fmt.Sprintf(`<div><span>%s</span> <progress value="%d" max="%d"></progress> %d%% (%d/%d)</div>`,
		html.EscapeString(p.label), done, total, pct, done, total)
	d := Data{Data: MIMEMap{MIMEText: text, MIMEHTML: h}, Transient: MIMEMap{"display_id": p.id}}
	return d
}

func (p *Progress) publish(update bool) {
	p.mu.Lock()
	p.percent = p.done * 100 / p.total
	d := p.render(p.done, p.total)
	p.mu.Unlock()
	// A progress bar is decoration: a failure to show it must not stop the
	// work it measures.
	_ = current().Publish(d, update)
}
