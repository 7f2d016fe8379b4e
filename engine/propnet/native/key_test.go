package native

import "testing"

// TestKeyIsTheSource: plugins are keyed by the kernels' whole source, so
// two sources that differ only in a negation written (the same gates and
// fingerprint, outputs reading other slots) get two plugins.
func TestKeyIsTheSource(t *testing.T) {
	b := &builder{flags: []string{"-trimpath"}}
	a := []byte("var Fingerprint = \"f\"\n\tv[4] = v[2] & v[3]\n")
	c := []byte("var Fingerprint = \"f\"\n\tv[4] = v[2] & v[3]\n\tv[5] = ^v[4]\n")
	if b.key(a) == b.key(c) {
		t.Error("two sources of one fingerprint share a plugin")
	}
	if b.key(a) != b.key(append([]byte(nil), a...)) {
		t.Error("one source has two keys")
	}
	if other := (&builder{}); other.key(a) == b.key(a) {
		t.Error("two build settings share a plugin")
	}
}
