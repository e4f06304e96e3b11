package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/e2e/strataproc"
	"github.com/stratahq/strata/kernel/remote"
)

// `strata workers` marks a worker whose heartbeats lapsed as stale and
// does not show its last busy count as if it were still working (it used
// to list a dead worker for up to an hour, busy as when it died).
func TestWorkersMarksStale(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := strataproc.Binary(t)
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".strata"), 0o755); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	f := remote.WorkersFile{Written: now, Workers: []remote.Heartbeat{
		{ID: "w-dead", Host: "h1", Slots: 4, Busy: 3, Version: "v", At: now.Add(-remote.StaleAfter - 30*time.Second)},
		{ID: "w-live", Host: "h2", Slots: 2, Busy: 1, Version: "v", At: now},
	}}
	b, _ := json.Marshal(f)
	if err := os.WriteFile(filepath.Join(dir, ".strata", "workers.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, code := strataproc.Run(t, bin, "workers", dir)
	if code != 0 {
		t.Fatalf("strata workers: exit %d\n%s", code, out)
	}
	rows := map[string][]string{}
	for _, line := range strings.Split(out, "\n") {
		if fields := strings.Fields(line); len(fields) > 0 {
			rows[fields[0]] = fields
		}
	}
	// WORKER STATE HOST SLOTS BUSY ...
	if r := rows["w-dead"]; len(r) < 5 || r[1] != "stale" || r[4] != "-" {
		t.Errorf("dead worker's row %q: want STATE stale and BUSY -\n%s", r, out)
	}
	if r := rows["w-live"]; len(r) < 5 || r[1] != "live" || r[4] != "1" {
		t.Errorf("live worker's row %q: want STATE live and BUSY 1\n%s", r, out)
	}
	out, code = strataproc.Run(t, bin, "workers", dir, "--format", "json")
	var js struct {
		Workers []struct {
			ID    string `json:"id"`
			Busy  int    `json:"busy"`
			State string `json:"state"`
		} `json:"workers"`
	}
	if code != 0 || json.Unmarshal([]byte(out), &js) != nil || len(js.Workers) != 2 ||
		js.Workers[0].ID != "w-dead" || js.Workers[0].State != "stale" || js.Workers[1].State != "live" || js.Workers[1].Busy != 1 {
		t.Errorf("strata workers --format json: want w-dead stale and w-live live, got exit %d\n%s", code, out)
	}
}
