package wire

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
)

// SchemeSHA256 is the only signature scheme the kernel implements, and the
// one every Jupyter client uses by default.
const SchemeSHA256 = "hmac-sha256"

// Signer signs and verifies messages with the connection file's key. A
// Signer with an empty key signs with the empty string and accepts only
// unsigned messages, which is what the protocol says an empty key means.
type Signer struct {
	key []byte
}

// NewSigner returns a signer for the connection file's scheme and key; only
// hmac-sha256 (or an empty scheme with an empty key) is accepted.
func NewSigner(scheme, key string) (Signer, error) {
	if scheme != SchemeSHA256 && !(scheme == "" && key == "") {
		return Signer{}, fmt.Errorf("unsupported signature scheme %q", scheme)
	}
	return Signer{key: []byte(key)}, nil
}

// Sign returns the hex HMAC of the four signed parts: header, parent header,
// metadata and content, in that order.
func (s Signer) Sign(parts ...[]byte) string {
	if len(s.key) == 0 {
		return ""
	}
	return hex.EncodeToString(s.mac(parts))
}

// Verify reports whether sig is the signature of parts, in constant time.
func (s Signer) Verify(sig []byte, parts ...[]byte) bool {
	if len(s.key) == 0 {
		return len(sig) == 0
	}
	got := make([]byte, hex.DecodedLen(len(sig)))
	if _, err := hex.Decode(got, sig); err != nil {
		return false
	}
	return hmac.Equal(got, s.mac(parts))
}

func (s Signer) mac(parts [][]byte) []byte {
	var m hash.Hash = hmac.New(sha256.New, s.key)
	for _, p := range parts {
		m.Write(p)
	}
	return m.Sum(nil)
}
