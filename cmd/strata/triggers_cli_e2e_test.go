package main

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stratahq/strata/e2e/strataproc"
)

// TestCLIPublishesReachEventTriggers: event triggers run in strata start,
// so an upstream rewritten by `strata run` or `strata backfill` (the
// server stopped, as they need) never ran its downstream: the next start
// knew nothing of it. The CLI now notes its publishes for the triggers
// and the next start fires for them, once.
func TestCLIPublishesReachEventTriggers(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := strataproc.Binary(t)
	dir := filepath.Join(t.TempDir(), "proj")
	files := map[string]string{
		"strata.yaml": "name: e2e\ntimezone: UTC\n",
		"pipelines/raw.yaml": `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
blocks:
  - id: raw
    product: raw_events
`,
		"blocks/raw.sql": "SELECT $partition_key AS day, 1 AS n\n",
		"pipelines/weekly.yaml": `partitions: {interval: week, timezone: UTC, start: "2024-01-01"}
blocks:
  - id: weekly
    product: weekly_events
triggers:
  - id: on-raw
    when: {product: raw_events, changes: new-version}
`,
		"blocks/weekly.sql": "SELECT $partition_key AS week, count(*) AS n FROM raw_events\n",
	}
	for p, c := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if out, code := strataproc.Run(t, bin, "backfill", dir, "raw", "--from", "2024-01-01", "--to", "2024-01-10"); code != 0 {
		t.Fatalf("strata backfill: exit %d\n%s", code, out)
	}
	for i := 0; i < 2; i++ { // versions 1 and 2, for the rollback below
		if out, code := strataproc.Run(t, bin, "run", dir, "raw", "--partition", "2024-01-20"); code != 0 {
			t.Fatalf("strata run: exit %d\n%s", code, out)
		}
	}
	srv := strataproc.Start(t, bin, dir, "0123456789abcdef-test")
	type part struct {
		Key     string `json:"key"`
		Current int    `json:"current"`
	}
	weeks := func() map[string]int {
		var out struct{ Partitions []part }
		m := map[string]int{}
		code, body, err := srv.Request(http.MethodGet, "/products/weekly_events/partitions", "")
		if err != nil || code == http.StatusNotFound {
			return m // not written yet
		}
		if code != http.StatusOK || json.Unmarshal(body, &out) != nil {
			t.Fatalf("GET /products/weekly_events/partitions: %d %s", code, body)
		}
		for _, p := range out.Partitions {
			m[p.Key] = p.Current
		}
		return m
	}
	waitWeeks := func(want map[string]int) {
		t.Helper()
		deadline := time.Now().Add(60 * time.Second)
		for {
			got := weeks()
			same := len(got) == len(want)
			for k, v := range want {
				same = same && got[k] == v
			}
			if same {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("downstream weeks %v, want %v\n%s", got, want, srv.Stderr)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	waitWeeks(map[string]int{"2024-W01": 1, "2024-W02": 1, "2024-W03": 1})

	// `strata rollback` is a change too: it wrote to the warehouse directly,
	// with no notice, so the week that read version 2 kept it.
	srv.Stop(t)
	if out, code := strataproc.Run(t, bin, "rollback", dir, "raw", "raw", "--partition", "2024-01-20", "--to-version", "1"); code != 0 {
		t.Fatalf("strata rollback: exit %d\n%s", code, out)
	}
	srv = strataproc.Start(t, bin, dir, "0123456789abcdef-test")
	waitWeeks(map[string]int{"2024-W01": 1, "2024-W02": 1, "2024-W03": 2})
}
