// Package kernel is gdlab's Jupyter kernel server: it reads the connection
// file, serves the five ZeroMQ sockets, verifies and routes every message,
// runs cells in a session and publishes their output. The wire format lives
// in kernel/wire, evaluation in kernel/session, rich output in
// kernel/display.
package kernel

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
)

// Connection is the connection file Jupyter writes before starting a
// kernel: where to listen and how to sign.
type Connection struct {
	Transport       string `json:"transport"`
	IP              string `json:"ip"`
	ShellPort       int    `json:"shell_port"`
	ControlPort     int    `json:"control_port"`
	IOPubPort       int    `json:"iopub_port"`
	StdinPort       int    `json:"stdin_port"`
	HBPort          int    `json:"hb_port"`
	Key             string `json:"key"`
	SignatureScheme string `json:"signature_scheme"`
}

// ReadConnection reads a connection file.
func ReadConnection(path string) (Connection, error) {
	raw, err := os.ReadFile(path)
	if err != nil {
		return Connection{}, err
	}
	var c Connection
	if err := json.Unmarshal(raw, &c); err != nil {
		return Connection{}, fmt.Errorf("connection file %s: %w", path, err)
	}
	if c.Transport == "" {
		c.Transport = "tcp"
	}
	return c, nil
}

// endpoint returns the ZeroMQ address of one port.
func (c Connection) endpoint(port int) string {
	if c.Transport == "ipc" {
		return fmt.Sprintf("ipc://%s-%d", c.IP, port)
	}
	return fmt.Sprintf("%s://%s:%d", c.Transport, c.IP, port)
}

func randomToken() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
