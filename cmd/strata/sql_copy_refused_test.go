package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stratahq/strata/e2e/strataproc"
)

// A SQL block that writes files (COPY … TO, here to a folder and to an S3
// URL) fails its run with the route exports take instead (an Export block's
// ctx.ExportParquet under the export ledger), and writes nothing.
func TestSQLBlockCopyToIsRefusedWithTheExportRoute(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := strataproc.Binary(t)
	dir := filepath.Join(t.TempDir(), "proj")
	out := filepath.Join(t.TempDir(), "out.parquet")
	writeExtProject(t, dir, map[string]string{
		"strata.yaml":         "name: copy\n",
		"pipelines/copy.yaml": "partitions: {interval: day, timezone: UTC, start: \"2024-01-01\"}\nblocks:\n  - id: local\n  - id: lake\n",
		"blocks/local.sql":    "COPY (SELECT 1 AS x) TO '" + out + "' (FORMAT parquet)\n",
		"blocks/lake.sql":     "-- to the lake\nCOPY (SELECT 1 AS x) TO 's3://lake/x.parquet' (FORMAT parquet)\n",
	})
	o, code := strataproc.Run(t, bin, "run", dir, "copy", "--partition", "2024-01-01")
	if code == 0 {
		t.Fatalf("run succeeded:\n%s", o)
	}
	for _, want := range []string{"local", "lake", "a SQL block cannot COPY … TO or EXPORT", `ctx.ExportParquet("s3://bucket/prefix")`} {
		if !strings.Contains(o, want) {
			t.Errorf("run output lacks %q:\n%s", want, o)
		}
	}
	if strings.Contains(o, "panic") {
		t.Errorf("run output:\n%s", o)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("the refused COPY wrote its file")
	}
}
