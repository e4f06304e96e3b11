package server

import (
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// A pipeline file changed by another program is noticed: the engine runs
// the new file and open pages hear which file changed.
func TestFilesChangedOnDiskReload(t *testing.T) {
	e := newEnv(t)
	c := e.connect()
	c.send(ClientMessage{Type: MsgPing, ID: "p"})
	c.await("pong", 5*time.Second, func(m Message) bool { return m.Type == MsgPong })
	file := filepath.Join(e.dir, "pipelines/clv.yaml")
	text, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(text), "description: ", "description: Edited on disk. ", 1)
	if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	m, _ := c.await("project", 10*time.Second, func(m Message) bool { return m.Type == MsgProject })
	if !slices.Contains(m.Files, "pipelines/clv.yaml") {
		t.Fatalf("project message names %v", m.Files)
	}
	var pl pipelineView
	e.call("GET", "/api/v1/pipelines/clv", nil, http.StatusOK, &pl)
	if !strings.HasPrefix(pl.Description, "Edited on disk.") {
		t.Fatalf("the engine still has the old pipeline: %q", pl.Description)
	}
}
