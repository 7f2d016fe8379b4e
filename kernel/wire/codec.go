package wire

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Delimiter separates the routing identities from the signed message.
const Delimiter = "<IDS|MSG>"

// Errors returned by Decode. A message with ErrSignature must never be acted
// upon: it was not sent by a holder of the connection key.
var (
	ErrNoDelimiter = errors.New("wire: no <IDS|MSG> delimiter")
	ErrShort       = errors.New("wire: fewer than five frames after the delimiter")
	ErrSignature   = errors.New("wire: bad signature")
)

// Decode parses the frames of one multipart message and verifies its
// signature before looking at any JSON.
func Decode(frames [][]byte, s Signer) (Message, error) {
	i := indexDelimiter(frames)
	if i < 0 {
		return Message{}, ErrNoDelimiter
	}
	rest := frames[i+1:]
	if len(rest) < 5 {
		return Message{}, ErrShort
	}
	sig, signed := rest[0], rest[1:5]
	if !s.Verify(sig, signed...) {
		return Message{}, ErrSignature
	}
	m := Message{
		Identities: frames[:i],
		Metadata:   json.RawMessage(signed[2]),
		Content:    json.RawMessage(signed[3]),
		Buffers:    rest[5:],
	}
	if err := json.Unmarshal(signed[0], &m.Header); err != nil {
		return Message{}, fmt.Errorf("wire: header: %w", err)
	}
	if err := json.Unmarshal(signed[1], &m.ParentHeader); err != nil {
		return Message{}, fmt.Errorf("wire: parent header: %w", err)
	}
	return m, nil
}

// Encode returns the frames of m, signed by s: identities, delimiter,
// signature, header, parent header, metadata, content, buffers.
func Encode(m Message, s Signer) ([][]byte, error) {
	header, err := json.Marshal(m.Header)
	if err != nil {
		return nil, err
	}
	parent, err := json.Marshal(m.ParentHeader)
	if err != nil {
		return nil, err
	}
	signed := [][]byte{header, parent, orEmpty(m.Metadata), orEmpty(m.Content)}
	frames := make([][]byte, 0, len(m.Identities)+6+len(m.Buffers))
	frames = append(frames, m.Identities...)
	frames = append(frames, []byte(Delimiter), []byte(s.Sign(signed...)))
	frames = append(frames, signed...)
	return append(frames, m.Buffers...), nil
}

func indexDelimiter(frames [][]byte) int {
	for i, f := range frames {
		if bytes.Equal(f, []byte(Delimiter)) {
			return i
		}
	}
	return -1
}

// orEmpty turns a missing JSON object into {}, which the protocol requires
// in place of an absent metadata or content frame.
func orEmpty(raw json.RawMessage) []byte {
	if len(raw) == 0 {
		return []byte("{}")
	}
	return raw
}
