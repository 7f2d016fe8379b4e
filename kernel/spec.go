package kernel

import (
	"encoding/json"
	"os"
	"path/filepath"
)

// Spec is a kernelspec, the kernel.json that tells Jupyter how to start a
// kernel.
type Spec struct {
	Argv          []string          `json:"argv"`
	DisplayName   string            `json:"display_name"`
	Language      string            `json:"language"`
	InterruptMode string            `json:"interrupt_mode"`
	Env           map[string]string `json:"env,omitempty"`
	Metadata      map[string]any    `json:"metadata,omitempty"`
}

// DefaultName is the kernelspec's directory name, what notebooks refer to.
const DefaultName = "gdlab"

// NewSpec returns the kernelspec for the gdlab binary at exe. Interrupts
// come as messages, so they work wherever the kernel runs.
func NewSpec(exe string) Spec {
	return Spec{
		Argv:          []string{exe, "kernel", "--connection-file", "{connection_file}"},
		DisplayName:   "Go (gdlab)",
		Language:      "go",
		InterruptMode: "message",
	}
}

// Install writes spec as dir/name/kernel.json, creating directories, and
// returns the file's path.
func Install(spec Spec, dir, name string) (string, error) {
	d := filepath.Join(dir, name)
	if err := os.MkdirAll(d, 0o755); err != nil {
		return "", err
	}
	raw, err := json.MarshalIndent(spec, "", "  ")
	if err != nil {
		return "", err
	}
	path := filepath.Join(d, "kernel.json")
	return path, os.WriteFile(path, append(raw, '\n'), 0o644)
}
