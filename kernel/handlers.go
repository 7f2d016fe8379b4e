package kernel

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"runtime"
	"strings"

	"gdlab/kernel/comm"
	"gdlab/kernel/display"
	"gdlab/kernel/session"
	"gdlab/kernel/wire"
)

// handleShell routes a shell request to its handler. Unknown types get no
// reply, as the protocol allows; comm messages have none either.
func (k *Kernel) handleShell(ctx context.Context, m wire.Message) (any, error) {
	switch m.Header.MsgType {
	case wire.KernelInfoRequest:
		return kernelInfo(), nil
	case wire.ExecuteRequest:
		return k.execute(ctx, m)
	case wire.CompleteRequest:
		return k.complete(m)
	case wire.InspectRequest:
		return k.inspect(m)
	case wire.IsCompleteRequest:
		return isComplete(m)
	case wire.HistoryRequest:
		return map[string]any{"status": "ok", "history": []any{}}, nil
	case wire.CommInfoRequest:
		var req comm.InfoRequest
		if err := json.Unmarshal(m.Content, &req); err != nil {
			return nil, err
		}
		return k.comms.Info(req), nil
	case wire.ShutdownRequest:
		return k.shutdown(m)
	case wire.CommOpen, wire.CommMsg, wire.CommClose:
		return nil, k.handleComm(ctx, m)
	}
	return nil, fmt.Errorf("unhandled message type %q", m.Header.MsgType)
}

// handleControl serves the control channel, which stays responsive while
// a cell runs on the shell channel.
func (k *Kernel) handleControl(ctx context.Context, m wire.Message) (any, error) {
	switch m.Header.MsgType {
	case wire.InterruptRequest:
		k.interruptCell()
		return map[string]any{"status": "ok"}, nil
	case wire.ShutdownRequest:
		return k.shutdown(m)
	case wire.KernelInfoRequest:
		return kernelInfo(), nil
	}
	return nil, fmt.Errorf("unhandled control message type %q", m.Header.MsgType)
}

func kernelInfo() map[string]any {
	return map[string]any{
		"status":                 "ok",
		"protocol_version":       wire.ProtocolVersion,
		"implementation":         "gdlab",
		"implementation_version": "0.1",
		"language_info": map[string]any{
			"name":            "go",
			"version":         strings.TrimPrefix(runtime.Version(), "go"),
			"mimetype":        "text/x-go",
			"file_extension":  ".go",
			"pygments_lexer":  "go",
			"codemirror_mode": "go",
		},
		"banner":     "gdlab: Go cells interpreted by yaegi, calling the compiled GGP engine",
		"help_links": []any{},
		"debugger":   false,
	}
}

// shutdown answers a shutdown request; handle ends Run once the reply is
// sent. With restart set, Jupyter starts a fresh process itself, so both
// cases end this one.
func (k *Kernel) shutdown(m wire.Message) (any, error) {
	var req struct {
		Restart bool `json:"restart"`
	}
	if err := json.Unmarshal(m.Content, &req); err != nil {
		return nil, err
	}
	k.interruptCell()
	reply := map[string]any{"status": "ok", "restart": req.Restart}
	// Protocol 5.4 also broadcasts the reply, so that every client learns
	// of the shutdown.
	k.publish(m, wire.ShutdownReply, reply)
	return reply, nil
}

type executeRequest struct {
	Code         string `json:"code"`
	Silent       bool   `json:"silent"`
	StoreHistory *bool  `json:"store_history"`
	StopOnError  *bool  `json:"stop_on_error"`
}

// execute runs one cell: execute_input, the cell's streams and displays,
// then execute_result or error, all on iopub; the reply on shell.
func (k *Kernel) execute(ctx context.Context, m wire.Message) (any, error) {
	var req executeRequest
	if err := json.Unmarshal(m.Content, &req); err != nil {
		return nil, err
	}
	if !req.Silent && (req.StoreHistory == nil || *req.StoreHistory) {
		k.execCount++
	}
	n := k.execCount
	if !req.Silent {
		k.publish(m, wire.ExecuteInput, map[string]any{"code": req.Code, "execution_count": n})
	}
	res, err := k.run(ctx, m, req.Code)
	k.flusher.flush()
	if err != nil {
		k.abortQueue = req.StopOnError == nil || *req.StopOnError
		content := errorContent(err)
		k.publish(m, wire.Error, content)
		content["status"] = "error"
		content["execution_count"] = n
		return content, nil
	}
	if len(res.Values) > 0 && !req.Silent {
		d := bundleOf(res.Values)
		k.publish(m, wire.ExecuteResult, map[string]any{"execution_count": n, "data": d.Data, "metadata": orEmpty(d.Metadata)})
	}
	return map[string]any{"status": "ok", "execution_count": n, "payload": []any{}, "user_expressions": map[string]any{}}, nil
}

// handleComm passes a comm message from the front end to the comms, with
// m as the parent of what they send, then runs the work they queued (a
// widget's callbacks) as a cell runs: interruptible, its output and
// errors published under m.
func (k *Kernel) handleComm(ctx context.Context, m wire.Message) error {
	k.mu.Lock()
	k.parent = m
	k.mu.Unlock()
	err := k.comms.Handle(m.Header.MsgType, m.Content)
	for _, fn := range k.comms.Take() {
		if cerr := k.call(ctx, m, fn); cerr != nil {
			k.publish(m, wire.Error, errorContent(cerr))
		}
	}
	k.flusher.flush()
	return err
}

// call runs work that calls cell code as a cell runs (see interruptible).
func (k *Kernel) call(ctx context.Context, m wire.Message, fn func()) error {
	var err error
	k.interruptible(ctx, m, func(ctx context.Context) { err = k.session.Call(ctx, fn) })
	return err
}

// run evaluates a cell's code (see interruptible).
func (k *Kernel) run(ctx context.Context, m wire.Message, code string) (res session.Result, err error) {
	k.interruptible(ctx, m, func(ctx context.Context) { res, err = k.session.Eval(ctx, code) })
	return res, err
}

// interruptible runs fn under a context that an interrupt cancels, with m
// as the parent of everything it prints or displays.
func (k *Kernel) interruptible(ctx context.Context, m wire.Message, fn func(context.Context)) {
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	k.mu.Lock()
	k.parent, k.interrupt = m, cancel
	k.mu.Unlock()
	defer func() {
		k.mu.Lock()
		k.interrupt = nil
		k.mu.Unlock()
	}()
	fn(runCtx)
}

// errorContent is the content of an error message: the traceback's first
// line names the failure, the rest are the interpreted frames.
func errorContent(err error) map[string]any {
	e, ok := err.(*session.Error)
	if !ok {
		e = &session.Error{Kind: "InternalError", Value: err.Error()}
	}
	tb := append([]string{fmt.Sprintf("\x1b[0;31m%s\x1b[0m: %s", e.Kind, e.Value)}, e.Trace...)
	return map[string]any{"ename": string(e.Kind), "evalue": e.Value, "traceback": tb}
}

// bundleOf shows a cell's value as display.Of would; several values (a
// multi-valued call) show as one comma-separated line.
func bundleOf(vs []reflect.Value) display.Data {
	if len(vs) == 1 {
		return display.Of(valueOf(vs[0]))
	}
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = display.Of(valueOf(v)).Text()
	}
	return display.Text(strings.Join(parts, ", "))
}

func valueOf(v reflect.Value) any {
	if !v.IsValid() {
		return nil
	}
	if !v.CanInterface() {
		return fmt.Sprint(v)
	}
	return v.Interface()
}

func orEmpty(m display.MIMEMap) display.MIMEMap {
	if m == nil {
		return display.MIMEMap{}
	}
	return m
}

func (k *Kernel) complete(m wire.Message) (any, error) {
	var req struct {
		Code      string `json:"code"`
		CursorPos int    `json:"cursor_pos"`
	}
	if err := json.Unmarshal(m.Content, &req); err != nil {
		return nil, err
	}
	c := k.session.Complete(req.Code, req.CursorPos)
	matches := c.Matches
	if matches == nil {
		matches = []string{}
	}
	return map[string]any{"status": "ok", "matches": matches, "cursor_start": c.Start, "cursor_end": c.End, "metadata": map[string]any{}}, nil
}

func (k *Kernel) inspect(m wire.Message) (any, error) {
	var req struct {
		Code      string `json:"code"`
		CursorPos int    `json:"cursor_pos"`
	}
	if err := json.Unmarshal(m.Content, &req); err != nil {
		return nil, err
	}
	text, found := k.session.Inspect(req.Code, req.CursorPos)
	data := map[string]any{}
	if found {
		data["text/plain"] = text
	}
	return map[string]any{"status": "ok", "found": found, "data": data, "metadata": map[string]any{}}, nil
}

func isComplete(m wire.Message) (any, error) {
	var req struct {
		Code string `json:"code"`
	}
	if err := json.Unmarshal(m.Content, &req); err != nil {
		return nil, err
	}
	status, indent := session.IsComplete(req.Code)
	reply := map[string]any{"status": status}
	if status == "incomplete" {
		reply["indent"] = indent
	}
	return reply, nil
}

// Publish implements display.Publisher: it flushes the cell's streams first
// so that output keeps the order in which the cell produced it.
func (k *Kernel) Publish(d display.Data, update bool) error {
	parent, ok := k.currentParent()
	if !ok {
		return fmt.Errorf("no request to display for")
	}
	k.flusher.flush()
	t := wire.DisplayData
	if update {
		t = wire.UpdateDisplayData
	}
	k.publish(parent, t, map[string]any{"data": d.Data, "metadata": orEmpty(d.Metadata), "transient": orEmpty(d.Transient)})
	return nil
}

// Clear implements display.Publisher.
func (k *Kernel) Clear(wait bool) error {
	parent, ok := k.currentParent()
	if !ok {
		return fmt.Errorf("no request to clear output for")
	}
	k.flusher.flush()
	k.publish(parent, wire.ClearOutput, map[string]any{"wait": wait})
	return nil
}
