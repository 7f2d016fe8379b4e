package kernel

import (
	"bytes"
	"os"
	"sync"
	"time"
	"unicode/utf8"
)

// Native code writes to file descriptors 1 and 2 directly, so the kernel
// replaces them with pipes (see redirect in stdio_linux.go) and a pump per
// pipe forwards what arrives as stream messages on iopub.
//
// A pump cannot know when a cell's output has all arrived: the writer may
// be any goroutine. flush writes a sentinel into each pipe and waits until
// each pump has seen it; everything written before the sentinel has then
// been forwarded. Pipe writes of up to 4096 bytes are atomic, so the
// sentinel never interleaves with other output.
var sentinel = []byte("\x00gdlab:flush:" + randomToken() + "\x00")

// flushTimeout bounds a flush, in case a pipe is wedged.
const flushTimeout = 2 * time.Second

// pump forwards one captured stream.
type pump struct {
	name  string   // "stdout" or "stderr", the stream message's name
	r     *os.File // read end of the pipe
	w     *os.File // what writers write to: the redirected descriptor
	emit  func(name, text string)
	marks chan struct{} // one value per sentinel seen
}

// run forwards until the pipe closes. It holds back a trailing partial
// sentinel or partial UTF-8 sequence until the rest arrives.
func (p *pump) run() {
	buf := make([]byte, 32<<10)
	var pending []byte
	for {
		n, err := p.r.Read(buf)
		pending = append(pending, buf[:n]...)
		pending = p.forward(pending)
		if err != nil {
			if len(pending) > 0 {
				p.emit(p.name, string(pending))
			}
			return
		}
	}
}

// forward emits data up to each sentinel, signals the sentinel, and
// returns the bytes it must keep for later.
func (p *pump) forward(data []byte) []byte {
	for {
		i := bytes.Index(data, sentinel)
		if i < 0 {
			break
		}
		if i > 0 {
			p.emit(p.name, string(data[:i]))
		}
		p.marks <- struct{}{}
		data = data[i+len(sentinel):]
	}
	keep := max(partialSentinel(data), partialRune(data))
	if cut := len(data) - keep; cut > 0 {
		p.emit(p.name, string(data[:cut]))
		data = append([]byte(nil), data[cut:]...)
	}
	return data
}

// partialSentinel returns the length of the longest suffix of data that is
// a proper prefix of the sentinel.
func partialSentinel(data []byte) int {
	for k := min(len(sentinel)-1, len(data)); k > 0; k-- {
		if bytes.HasSuffix(data, sentinel[:k]) {
			return k
		}
	}
	return 0
}

// partialRune returns how many trailing bytes of data begin a UTF-8
// sequence that is not complete yet.
func partialRune(data []byte) int {
	for k := 1; k <= min(utf8.UTFMax-1, len(data)); k++ {
		tail := data[len(data)-k:]
		if utf8.RuneStart(tail[0]) {
			if utf8.FullRune(tail) {
				return 0
			}
			return k
		}
	}
	return 0
}

// flusher serialises flushes over all pumps.
type flusher struct {
	mu    sync.Mutex
	pumps []*pump
}

// flush returns once everything written to the captured descriptors before
// the call has been emitted, or after flushTimeout.
func (f *flusher) flush() {
	f.mu.Lock()
	defer f.mu.Unlock()
	deadline := time.NewTimer(flushTimeout)
	defer deadline.Stop()
	for _, p := range f.pumps {
		drain(p.marks) // marks left by a flush that timed out
		if _, err := p.w.Write(sentinel); err != nil {
			continue
		}
		select {
		case <-p.marks:
		case <-deadline.C:
			return
		}
	}
}

func drain(c chan struct{}) {
	for {
		select {
		case <-c:
		default:
			return
		}
	}
}
