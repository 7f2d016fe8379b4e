package comm_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"gdlab/kernel/comm"
	"gdlab/kernel/wire"
)

// sent records what a manager publishes.
type sent struct {
	types    []wire.MsgType
	contents []string
}

func (s *sent) publish(t wire.MsgType, content any) error {
	raw, err := json.Marshal(content)
	if err != nil {
		return err
	}
	s.types = append(s.types, t)
	s.contents = append(s.contents, string(raw))
	return nil
}

func (s *sent) last() string {
	return string(s.types[len(s.types)-1]) + " " + s.contents[len(s.contents)-1]
}

// run runs the queued handler calls, as the kernel does.
func run(m *comm.Manager) {
	for _, fn := range m.Take() {
		fn()
	}
}

func TestKernelOpensSendsCloses(t *testing.T) {
	var s sent
	m := comm.NewManager(s.publish)
	c, err := m.Open("jupyter.widget", comm.Data{"value": 3})
	if err != nil {
		t.Fatal(err)
	}
	if want := `comm_open {"comm_id":"` + c.ID + `","target_name":"jupyter.widget","data":{"value":3}}`; s.last() != want {
		t.Errorf("got %s, want %s", s.last(), want)
	}
	if err := c.Send(comm.Data{"method": "update"}); err != nil || s.last() != `comm_msg {"comm_id":"`+c.ID+`","data":{"method":"update"}}` {
		t.Errorf("send: %v, %s", err, s.last())
	}
	if info := m.Info(comm.InfoRequest{}); len(info.Comms) != 1 || info.Comms[c.ID].TargetName != "jupyter.widget" || info.Status != "ok" {
		t.Errorf("info %+v", info)
	}
	if info := m.Info(comm.InfoRequest{TargetName: "other"}); len(info.Comms) != 0 {
		t.Errorf("info of another target %+v", info)
	}
	c.Close(nil)
	c.Close(nil)
	if len(s.types) != 3 || s.last() != `comm_close {"comm_id":"`+c.ID+`","data":{}}` || len(m.IDs()) != 0 {
		t.Errorf("close: %v, %s", s.types, s.last())
	}
	if err := c.Send(nil); err == nil {
		t.Error("a closed comm sent")
	}
}

func TestFrontEndMessages(t *testing.T) {
	var s sent
	m := comm.NewManager(s.publish)
	var got []string
	m.Register("echo", func(c *comm.Comm, data comm.Data) error {
		got = append(got, "open "+data["hello"].(string))
		c.OnMsg(func(d comm.Data) {
			got = append(got, "msg "+d["n"].(string))
			c.Send(d)
		})
		c.OnClose(func(d comm.Data) { got = append(got, "close") })
		return nil
	})
	m.Register("refuse", func(*comm.Comm, comm.Data) error { return errors.New("not now") })

	must := func(t2 wire.MsgType, content string) {
		t.Helper()
		if err := m.Handle(t2, json.RawMessage(content)); err != nil {
			t.Fatal(err)
		}
		run(m)
	}
	must(wire.CommOpen, `{"comm_id":"c1","target_name":"echo","data":{"hello":"there"}}`)
	must(wire.CommMsg, `{"comm_id":"c1","data":{"n":"1"}}`)
	if s.last() != `comm_msg {"comm_id":"c1","data":{"n":"1"}}` {
		t.Errorf("echo: %s", s.last())
	}
	must(wire.CommClose, `{"comm_id":"c1","data":{}}`)
	if strings.Join(got, ",") != "open there,msg 1,close" || len(m.IDs()) != 0 {
		t.Errorf("handlers saw %v; open %v", got, m.IDs())
	}
	// An unknown target is answered with comm_close; a refusal closes too.
	if err := m.Handle(wire.CommOpen, json.RawMessage(`{"comm_id":"c2","target_name":"nobody","data":{}}`)); err == nil || s.last() != `comm_close {"comm_id":"c2","data":{}}` {
		t.Errorf("unknown target: %v, %s", err, s.last())
	}
	must(wire.CommOpen, `{"comm_id":"c3","target_name":"refuse","data":{}}`)
	if !strings.HasPrefix(s.last(), `comm_close {"comm_id":"c3","data":{"error":"target \"refuse\" refused the comm: not now"}}`) || len(m.IDs()) != 0 {
		t.Errorf("refused: %s; open %v", s.last(), m.IDs())
	}
	// Messages for no comm, and malformed ones, are errors that change nothing.
	for _, c := range []struct {
		t       wire.MsgType
		content string
	}{{wire.CommMsg, `{"comm_id":"zz","data":{}}`}, {wire.CommClose, `{"comm_id":"zz"}`}, {wire.CommMsg, `{"comm_id":`}, {wire.ExecuteRequest, `{}`}} {
		if err := m.Handle(c.t, json.RawMessage(c.content)); err == nil {
			t.Errorf("%s %s: no error", c.t, c.content)
		}
	}
	if len(m.Take()) != 0 {
		t.Error("work queued for a bad message")
	}
}
