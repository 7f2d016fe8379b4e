package wire

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"time"
)

// Header is a message header; the parent header of a message is the header
// of the request that caused it. A zero Header encodes as {}, which is what
// the protocol wants for a message without a parent.
type Header struct {
	MsgID    string  `json:"msg_id,omitempty"`
	Session  string  `json:"session,omitempty"`
	Username string  `json:"username,omitempty"`
	Date     string  `json:"date,omitempty"`
	MsgType  MsgType `json:"msg_type,omitempty"`
	Version  string  `json:"version,omitempty"`
}

// Message is one decoded Jupyter message. Content and Metadata stay raw JSON
// so that each handler decodes only the fields it owns.
type Message struct {
	// Identities are the ZeroMQ routing prefixes; replies must carry the
	// request's identities back for the ROUTER socket to route them.
	Identities   [][]byte
	Header       Header
	ParentHeader Header
	Metadata     json.RawMessage
	Content      json.RawMessage
	Buffers      [][]byte
}

// NewMessage returns a message of type t caused by parent (which may be the
// zero Message), with content encoded as JSON. It keeps the parent's session,
// username and identities so a reply routes back to its requester.
func NewMessage(parent Message, t MsgType, content any) (Message, error) {
	raw, err := json.Marshal(content)
	if err != nil {
		return Message{}, err
	}
	return Message{
		Identities: parent.Identities,
		Header: Header{
			MsgID:    NewID(),
			Session:  parent.Header.Session,
			Username: parent.Header.Username,
			Date:     time.Now().UTC().Format(time.RFC3339Nano),
			MsgType:  t,
			Version:  ProtocolVersion,
		},
		ParentHeader: parent.Header,
		Metadata:     json.RawMessage("{}"),
		Content:      raw,
	}, nil
}

// NewID returns a random identifier in UUID v4 form, for message ids and
// the kernel's session id.
func NewID() string {
	var b [16]byte
	rand.Read(b[:]) // crypto/rand.Read never returns an error since Go 1.24
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	h := hex.EncodeToString(b[:])
	return h[0:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}
