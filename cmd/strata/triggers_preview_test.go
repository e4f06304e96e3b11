package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/e2e/strataproc"
)

// TestTriggersPreviewSaysWhenTruncated: `strata triggers preview` over a
// span with more ticks than --limit (1000 by default: a year of an hourly
// schedule) printed the first ones and "1000 ticks", as if that were all.
func TestTriggersPreviewSaysWhenTruncated(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := strataproc.Binary(t)
	dir := filepath.Join(t.TempDir(), "proj")
	for p, c := range map[string]string{
		"strata.yaml": "name: prev\ntimezone: UTC\n",
		"pipelines/hourly.yaml": `partitions: {interval: hour, timezone: UTC, start: "2024-01-01"}
blocks:
  - id: h
triggers:
  - id: every-hour
    schedule: {cron: "0 * * * *", timezone: UTC}
`,
		"blocks/h.sql": "SELECT $partition_key AS hour\n",
	} {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, code := strataproc.Run(t, bin, "triggers", "preview", dir, "hourly", "every-hour", "--from", "2024-01-01", "--to", "2024-12-31")
	if code != 0 || !strings.Contains(out, "1000 ticks shown; the span has more (--limit 1000): the next page starts --from 2024-02-11T16:00:00Z") {
		t.Fatalf("exit %d, output tail:\n%s", code, lastLines(out, 3))
	}
	out, code = strataproc.Run(t, bin, "triggers", "preview", dir, "hourly", "every-hour", "--from", "2024-01-01", "--to", "2024-12-31", "--format", "json")
	if code != 0 || !strings.Contains(out, `"truncated": true`) || !strings.Contains(out, `"next_from": "2024-02-11T16:00:00Z"`) {
		t.Fatalf("json: exit %d, output tail:\n%s", code, lastLines(out, 5))
	}
	out, code = strataproc.Run(t, bin, "triggers", "preview", dir, "hourly", "every-hour", "--from", "2024-01-01", "--to", "2024-12-31", "--limit", "0")
	if code == 0 || !strings.Contains(out, "--limit 0: want at least 1") {
		t.Fatalf("--limit 0: exit %d\n%s", code, out)
	}
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
