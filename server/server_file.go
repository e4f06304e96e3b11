package server

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// Local is where a running `strata start` listens and how a CLI on the same
// machine authenticates to it. DuckDB lets one process open the warehouse
// file, so a command that finds it held (warehouse.LockedError) asks the
// holder through its API instead: `strata test --read` does. The file holds
// the token, so it is written with mode 0600 like TokenFile, and removed
// when the server stops.
type Local struct {
	URL   string `json:"url"` // http://HOST:PORT, no trailing slash
	PID   int    `json:"pid"`
	Token string `json:"token,omitempty"` // empty with --no-auth
}

// LocalFile is the path of the project's Local file.
func LocalFile(projectDir string) string {
	return filepath.Join(projectDir, ".strata", "server.json")
}

// WriteLocal writes l to LocalFile with mode 0600.
func WriteLocal(projectDir string, l Local) error {
	b, err := json.Marshal(l)
	if err != nil {
		return err
	}
	p := LocalFile(projectDir)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	// Remove first: WriteFile keeps the mode of an existing file, and a
	// new one is created 0600 before the token is in it.
	_ = os.Remove(p)
	return os.WriteFile(p, b, 0o600)
}

// RemoveLocal removes LocalFile when it names this process (a second
// server on the project may have written its own since).
func RemoveLocal(projectDir string) {
	if l, err := ReadLocal(projectDir); err == nil && l.PID == os.Getpid() {
		_ = os.Remove(LocalFile(projectDir))
	}
}

// ReadLocal reads LocalFile.
func ReadLocal(projectDir string) (Local, error) {
	var l Local
	b, err := os.ReadFile(LocalFile(projectDir))
	if err != nil {
		return l, err
	}
	if err := json.Unmarshal(b, &l); err != nil {
		return l, fmt.Errorf("%s: %w", LocalFile(projectDir), err)
	}
	return l, nil
}
