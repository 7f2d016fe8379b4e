// Package native compiles a propnet.Flat's gate code into machine code
// with the Go toolchain and loads it into the running program, so that
// the Flat's Lanes evaluate their gates as straight-line native code
// rather than interpreting them: on breakthrough the lanes' gates cost a
// quarter of a step interpreted and a small fraction native
// (docs/performance.md).
//
// Load writes the code as Go source (propnet.Flat.WriteKernels), builds it
// as a plugin with `go build -buildmode=plugin`, caches the plugin by a
// hash of that source and the toolchain, and opens it. A plugin must be
// built by the toolchain that built the running program, with cgo, and
// with the same -trimpath and -race settings; Load checks the first two
// and copies the others from the program's build information, so that a
// machine with Go, a C compiler and the gdlab source tree needs nothing
// else. The kernel loads plugins into its running process, so a cell can
// call Load without restarting it. Plugins cannot be unloaded: each code
// loaded stays in memory until the process ends.
package native

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"plugin"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"gdlab/engine/propnet"
)

// Options configure Load.
type Options struct {
	// CacheDir holds the built plugins, one per kernels source and
	// toolchain; "" is gdlab/native under os.UserCacheDir.
	CacheDir string
	// Go is the go command; "" is go on PATH, or in GOROOT's bin.
	Go string
}

// Report says what Load did.
type Report struct {
	Path   string        // the plugin
	Cached bool          // the plugin was in the cache: nothing was built
	Build  time.Duration // writing and building the plugin (0 when cached)
	Open   time.Duration // opening the plugin
}

// Load returns a Flat on f's network whose lanes run f's gate code
// natively: from the cache when a plugin of the same code and toolchain
// is there, after building one otherwise. It fails, with the reason, when
// the plugin cannot be built or opened: no go command or one of another
// version, a program built without cgo, or a compiler error (whose output
// the error quotes).
func Load(ctx context.Context, f *propnet.Flat, opt Options) (*propnet.Flat, Report, error) {
	var rep Report
	b, err := newBuilder(opt)
	if err != nil {
		return nil, rep, err
	}
	var src bytes.Buffer
	if err := f.WriteKernels(&src, "main"); err != nil {
		return nil, rep, fmt.Errorf("native: %w", err)
	}
	key := b.key(src.Bytes())
	rep.Path = filepath.Join(b.cache, key+".so")
	loaded.Lock()
	defer loaded.Unlock()
	if k, ok := loaded.kernels[key]; ok {
		rep.Cached = true
		g, err := f.WithKernels(k)
		return g, rep, err
	}
	if _, err := os.Stat(rep.Path); err == nil {
		rep.Cached = true
	} else {
		start := time.Now()
		if err := b.build(ctx, src.Bytes(), rep.Path); err != nil {
			return nil, rep, err
		}
		rep.Build = time.Since(start)
	}
	start := time.Now()
	k, err := open(rep.Path)
	rep.Open = time.Since(start)
	if err != nil {
		return nil, rep, err
	}
	loaded.kernels[key] = k
	g, err := f.WithKernels(k)
	return g, rep, err
}

// loaded holds the kernels opened in this process, by key: a plugin opens
// once per process (a second copy of the same code, from another cache,
// would not open), and Load holds the lock while it builds so that
// concurrent loads of one code build it once.
var loaded = struct {
	sync.Mutex
	kernels map[string]propnet.Kernels
}{kernels: map[string]propnet.Kernels{}}

// builder is how plugins are built on this machine for this program.
type builder struct {
	goCmd string
	cache string
	flags []string // go build flags the running program was built with
	env   []string // settings of the build environment to copy, KEY=VALUE
}

func newBuilder(opt Options) (*builder, error) {
	if err := cgoBuilt(); err != nil {
		return nil, err
	}
	b := &builder{goCmd: opt.Go, cache: opt.CacheDir}
	if b.goCmd == "" {
		var err error
		if b.goCmd, err = findGo(); err != nil {
			return nil, err
		}
	}
	if b.cache == "" {
		dir, err := os.UserCacheDir()
		if err != nil {
			return nil, fmt.Errorf("native: no cache directory: %w", err)
		}
		b.cache = filepath.Join(dir, "gdlab", "native")
	}
	b.flags, b.env = buildSettings()
	return b, nil
}

// cgoBuilt fails when the running program was built without cgo, which
// opening a plugin needs.
func cgoBuilt() error {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			if s.Key == "CGO_ENABLED" && s.Value != "1" {
				return errors.New("native: this program was built without cgo (CGO_ENABLED=0), which loading a plugin needs: install a C compiler (gcc) and rebuild it")
			}
		}
	}
	return nil
}

// findGo returns the go command on PATH, or in the GOROOT the program was
// built with.
func findGo() (string, error) {
	if p, err := exec.LookPath("go"); err == nil {
		return p, nil
	}
	p := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(p); err == nil {
		return p, nil
	}
	return "", errors.New("native: no go command on PATH or in GOROOT: building native kernels needs the Go toolchain that built this program (" + runtime.Version() + ")")
}

// buildSettings returns the go build flags and environment settings of
// the running program's build that a plugin must share.
func buildSettings() (flags, env []string) {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return nil, nil
	}
	for _, s := range info.Settings {
		switch {
		case (s.Key == "-trimpath" || s.Key == "-race" || s.Key == "-msan" || s.Key == "-asan") && s.Value == "true":
			flags = append(flags, s.Key)
		case strings.HasPrefix(s.Key, "GO") && s.Key != "GOOS" && s.Key != "GOARCH":
			env = append(env, s.Key+"="+s.Value) // GOAMD64, GOEXPERIMENT, ...
		}
	}
	return flags, env
}

// key names the plugin of the kernels' source src: a hash of the source
// (not only of the gate code's fingerprint: two codes with the same gates
// whose outputs read different negations write different sources), the
// toolchain and the build settings.
func (b *builder) key(src []byte) string {
	h := sha256.New()
	h.Write(src)
	fmt.Fprintf(h, "\n%s\n%s/%s\n%q\n%q\n", runtime.Version(), runtime.GOOS, runtime.GOARCH, b.flags, b.env)
	return "k-" + hex.EncodeToString(h.Sum(nil))[:24]
}

// build writes the kernels' source src as a Go module in a fresh directory
// of the cache, builds the plugin there and renames it to path, so that a
// failed or interrupted build leaves no plugin behind.
func (b *builder) build(ctx context.Context, src []byte, path string) error {
	if err := b.checkVersion(ctx); err != nil {
		return err
	}
	if err := os.MkdirAll(b.cache, 0o755); err != nil {
		return fmt.Errorf("native: %w", err)
	}
	dir, err := os.MkdirTemp(b.cache, "build-")
	if err != nil {
		return fmt.Errorf("native: %w", err)
	}
	defer os.RemoveAll(dir)
	mod := fmt.Sprintf("module gdlab.native/%s\n\ngo %s\n", filepath.Base(path[:len(path)-3]), langVersion())
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte(mod), 0o644); err != nil {
		return fmt.Errorf("native: %w", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "kernels.go"), src, 0o644); err != nil {
		return fmt.Errorf("native: %w", err)
	}
	args := append([]string{"build", "-buildmode=plugin"}, b.flags...)
	args = append(args, "-o", "kernels.so", ".")
	cmd := exec.CommandContext(ctx, b.goCmd, args...)
	cmd.Dir = dir
	cmd.Env = b.environ()
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("native: go %s: %w\n%s", strings.Join(args, " "), err, tail(out, 2000))
	}
	if err := os.Rename(filepath.Join(dir, "kernels.so"), path); err != nil {
		return fmt.Errorf("native: %w", err)
	}
	return nil
}

// environ is the go command's environment: the caller's, with modules on,
// no workspace or GOFLAGS of the caller's, no toolchain switch, cgo on
// and the program's build settings.
func (b *builder) environ() []string {
	env := append(os.Environ(), "GO111MODULE=on", "GOWORK=off", "GOFLAGS=", "GOTOOLCHAIN=local", "CGO_ENABLED=1")
	return append(env, b.env...)
}

// checkVersion fails when the go command is not the toolchain that built
// the running program: the plugin would not open.
func (b *builder) checkVersion(ctx context.Context) error {
	cmd := exec.CommandContext(ctx, b.goCmd, "env", "GOVERSION")
	cmd.Env = b.environ()
	out, err := cmd.Output()
	if err != nil {
		return fmt.Errorf("native: %s env GOVERSION: %w", b.goCmd, err)
	}
	if v := strings.TrimSpace(string(out)); v != runtime.Version() {
		return fmt.Errorf("native: %s is %s, but this program was built with %s: a plugin must be built by the same toolchain", b.goCmd, v, runtime.Version())
	}
	return nil
}

// langVersion is the go.mod language version of the running toolchain,
// go1.26.8 giving 1.26.
func langVersion() string {
	v := strings.TrimPrefix(runtime.Version(), "go")
	parts := strings.SplitN(v, ".", 3)
	if len(parts) < 2 {
		return "1.21" // a development toolchain: any version the code needs
	}
	return parts[0] + "." + strings.TrimFunc(parts[1], func(r rune) bool { return r < '0' || r > '9' })
}

// open opens the plugin at path and returns its kernels.
func open(path string) (propnet.Kernels, error) {
	var k propnet.Kernels
	p, err := plugin.Open(path)
	if err != nil {
		return k, fmt.Errorf("native: opening %s: %w", path, err)
	}
	fp, err := p.Lookup("Fingerprint")
	if err != nil {
		return k, fmt.Errorf("native: %s: %w", path, err)
	}
	s, ok := fp.(*string)
	if !ok {
		return k, fmt.Errorf("native: %s: Fingerprint is a %T, not a string", path, fp)
	}
	k.Fingerprint = *s
	for _, fn := range []struct {
		name string
		dst  *func([]uint64)
	}{{"State", &k.State}, {"Move", &k.Move}, {"Goal", &k.Goal}} {
		sym, err := p.Lookup(fn.name)
		if err != nil {
			return k, fmt.Errorf("native: %s: %w", path, err)
		}
		f, ok := sym.(func([]uint64))
		if !ok {
			return k, fmt.Errorf("native: %s: %s is a %T, not a kernel", path, fn.name, sym)
		}
		*fn.dst = f
	}
	return k, nil
}

// tail returns the last n bytes of out, marked when cut.
func tail(out []byte, n int) string {
	if len(out) <= n {
		return string(out)
	}
	return "..." + string(out[len(out)-n:])
}
