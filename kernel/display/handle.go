package display

import (
	"fmt"
	"sync/atomic"
)

// Handle is an output shown once and replaced in place afterwards (the
// protocol's update_display_data): a chart or table that a widget's
// callback redraws where it stands, without clearing the cell around it.
type Handle struct {
	id string
}

// handleSeq numbers the handles of this kernel process.
var handleSeq atomic.Int64

// Show displays v now, as Display would, and returns its handle.
func Show(v any) (*Handle, error) {
	h := &Handle{id: fmt.Sprintf("gdlab-display-%d", handleSeq.Add(1))}
	return h, current().Publish(h.bundle(v), false)
}

// Update replaces what the handle shows with v, wherever it was shown.
func (h *Handle) Update(v any) error {
	return current().Publish(h.bundle(v), true)
}

// ID returns the display id that ties the updates to the output.
func (h *Handle) ID() string { return h.id }

// bundle is v's bundle carrying the handle's display id.
func (h *Handle) bundle(v any) Data {
	d := Of(v).clone()
	if d.Transient == nil {
		d.Transient = MIMEMap{}
	}
	d.Transient["display_id"] = h.id
	return d
}
