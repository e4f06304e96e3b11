package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/e2e/strataproc"
)

// TestSQLReadByNameIsStaleInTheDryRun: a SQL block that reads a global
// product by its view's name, undeclared, recorded no lineage, so the dry
// run of --reprocess stale skipped it after that product was rewritten.
func TestSQLReadByNameIsStaleInTheDryRun(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := strataproc.Binary(t)
	dir := filepath.Join(t.TempDir(), "proj")
	for p, c := range map[string]string{
		"strata.yaml": "name: lineage\ntimezone: UTC\n",
		"pipelines/raw.yaml": `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
blocks:
  - id: raw
    product: raw_events
`,
		"blocks/raw.sql": "SELECT $partition_key AS day, random() AS r\n",
		"pipelines/readers.yaml": `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
blocks:
  - id: counter
`,
		"blocks/counter.sql": "SELECT $partition_key AS day, count(*) AS n FROM raw_events\n",
	} {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(args ...string) string {
		t.Helper()
		out, code := strataproc.Run(t, bin, args...)
		if code != 0 {
			t.Fatalf("strata %s: exit %d\n%s", strings.Join(args, " "), code, out)
		}
		return out
	}
	run("backfill", dir, "raw", "--from", "2024-01-05", "--to", "2024-01-05")
	run("backfill", dir, "readers", "--from", "2024-01-10", "--to", "2024-01-10")
	dry := []string{"backfill", dir, "readers", "--from", "2024-01-10", "--to", "2024-01-10", "--reprocess", "stale", "--dry-run"}
	if out := run(dry...); !strings.Contains(out, "0 to run, 1 to skip") {
		t.Fatalf("before the rewrite the reader is current:\n%s", out)
	}
	run("backfill", dir, "raw", "--from", "2024-01-05", "--to", "2024-01-05", "--reprocess", "all")
	if out := run(dry...); !strings.Contains(out, "1 to run") || !strings.Contains(out, "raw_events") {
		t.Fatalf("after raw_events was rewritten the reader must be stale, naming raw_events:\n%s", out)
	}
}
