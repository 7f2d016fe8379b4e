package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"
)

// The expected signature was computed independently with Python's hmac
// module, the reference every Jupyter client uses.
func TestSignMatchesPython(t *testing.T) {
	s, err := NewSigner(SchemeSHA256, "secret")
	if err != nil {
		t.Fatal(err)
	}
	parts := [][]byte{[]byte(`{"msg_id":"1"}`), []byte(`{}`), []byte(`{}`), []byte(`{"code":"1+1"}`)}
	const want = "8b401df890f3e1a0a11fe0065dc9c527656a04e4c12230f675f0a5b83a2f600c"
	if got := s.Sign(parts...); got != want {
		t.Errorf("Sign = %s, want %s", got, want)
	}
	if !s.Verify([]byte(want), parts...) {
		t.Error("Verify rejected its own signature")
	}
	for _, bad := range []string{"", "zz", want[:len(want)-2] + "00"} {
		if s.Verify([]byte(bad), parts...) {
			t.Errorf("Verify accepted %q", bad)
		}
	}
}

func TestEmptyKeyAcceptsOnlyUnsigned(t *testing.T) {
	s, err := NewSigner("", "")
	if err != nil {
		t.Fatal(err)
	}
	if s.Sign([]byte("x")) != "" || !s.Verify(nil, []byte("x")) || s.Verify([]byte("ab"), []byte("x")) {
		t.Error("empty key must sign with \"\" and accept only unsigned messages")
	}
	if _, err := NewSigner("hmac-md5", "k"); err == nil {
		t.Error("NewSigner accepted an unsupported scheme")
	}
}

func TestRoundTrip(t *testing.T) {
	s, _ := NewSigner(SchemeSHA256, "key")
	parent := Message{Identities: [][]byte{[]byte("client-1")}, Header: Header{MsgID: "p", Session: "sess", Username: "u", MsgType: ExecuteRequest}}
	m, err := NewMessage(parent, ExecuteReply, map[string]any{"status": "ok", "execution_count": 3})
	if err != nil {
		t.Fatal(err)
	}
	m.Buffers = [][]byte{{1, 2, 3}}
	frames, err := Encode(m, s)
	if err != nil {
		t.Fatal(err)
	}
	if string(frames[0]) != "client-1" || string(frames[1]) != Delimiter {
		t.Fatalf("frames start %q %q, want identity then delimiter", frames[0], frames[1])
	}
	got, err := Decode(frames, s)
	if err != nil {
		t.Fatal(err)
	}
	if got.Header != m.Header || got.ParentHeader != parent.Header {
		t.Errorf("headers: got %+v / %+v", got.Header, got.ParentHeader)
	}
	if got.Header.Session != "sess" || got.Header.Version != ProtocolVersion {
		t.Errorf("reply header %+v must keep the session and carry version %s", got.Header, ProtocolVersion)
	}
	var c struct {
		Status string `json:"status"`
		Count  int    `json:"execution_count"`
	}
	if err := json.Unmarshal(got.Content, &c); err != nil || c.Status != "ok" || c.Count != 3 {
		t.Errorf("content %s (%v)", got.Content, err)
	}
	if len(got.Buffers) != 1 || !bytes.Equal(got.Buffers[0], []byte{1, 2, 3}) {
		t.Errorf("buffers %v", got.Buffers)
	}
}

func TestZeroParentEncodesAsEmptyObject(t *testing.T) {
	m, _ := NewMessage(Message{}, Status, map[string]string{"execution_state": "idle"})
	frames, _ := Encode(m, Signer{})
	if got := string(frames[4]); got != "{}" {
		t.Errorf("parent header frame = %s, want {}", got)
	}
}

func TestDecodeRejects(t *testing.T) {
	s, _ := NewSigner(SchemeSHA256, "key")
	m, _ := NewMessage(Message{}, KernelInfoRequest, struct{}{})
	good, _ := Encode(m, s)
	tampered := append([][]byte(nil), good...)
	tampered[len(tampered)-1] = []byte(`{"code":"evil"}`)
	other, _ := NewSigner(SchemeSHA256, "other")
	cases := []struct {
		name   string
		frames [][]byte
		signer Signer
		want   error
	}{
		{"tampered content", tampered, s, ErrSignature},
		{"wrong key", good, other, ErrSignature},
		{"unsigned", good, Signer{}, ErrSignature},
		{"no delimiter", good[1:], s, ErrNoDelimiter},
		{"short", good[:4], s, ErrShort},
	}
	for _, c := range cases {
		if _, err := Decode(c.frames, c.signer); !errors.Is(err, c.want) {
			t.Errorf("%s: err = %v, want %v", c.name, err, c.want)
		}
	}
}

func TestReplyType(t *testing.T) {
	if r, ok := ExecuteRequest.Reply(); !ok || r != ExecuteReply {
		t.Errorf("ExecuteRequest.Reply() = %q, %v", r, ok)
	}
	if _, ok := Status.Reply(); ok {
		t.Error("status is not a request")
	}
}

func TestNewIDIsUUID(t *testing.T) {
	id := NewID()
	if len(id) != 36 || id[14] != '4' || id == NewID() {
		t.Errorf("NewID() = %q", id)
	}
}
