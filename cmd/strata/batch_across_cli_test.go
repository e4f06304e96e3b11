package main

import (
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	"github.com/stratahq/strata/e2e/strataproc"
)

// TestBatchAcrossThroughBinary: a SQL block batched across the region
// dimension, through the real binary. A batch naming no dimension of the
// pipeline is refused with the field and the dimensions there are; the
// backfill then computes each day's regions in one query and publishes
// every cell as its own version, a --where subset only its cells.
func TestBatchAcrossThroughBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := strataproc.Binary(t)
	dir := filepath.Join(t.TempDir(), "across")
	runWant(t, bin, 0, "init", dir)
	write := func(across string) {
		t.Helper()
		files := map[string]string{
			"pipelines/sales.yaml": `partitions:
  interval: day
  timezone: UTC
  start: "2024-01-01"
  dimensions:
    - name: region
      values: [eu, us, apac]
concurrency: 16
blocks:
  - id: calc
    batch: {max: 1, across: [` + across + `]}
`,
			"blocks/calc.sql": `SELECT strftime(d, '%Y-%m-%d') || '|' || r AS partition_key, r AS region, (SELECT random()) AS token
FROM generate_series($batch_start::TIMESTAMP, $batch_end::TIMESTAMP - INTERVAL 1 DAY, INTERVAL 1 DAY) t(d),
	(VALUES ('eu'), ('us'), ('apac')) v(r)`,
		}
		for p, c := range files {
			full := filepath.Join(dir, p)
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	write("country")
	mustContain(t, runWant(t, bin, 1, "backfill", dir, "sales", "--from", "2024-01-01", "--to", "2024-01-02"),
		"blocks[0].batch.across", `"country" is not a value dimension of its partitions: want one of region`)
	write("region")
	mustContain(t, runWant(t, bin, 0, "backfill", dir, "sales", "--from", "2024-01-01", "--to", "2024-01-02"), "6 succeeded")
	mustContain(t, runWant(t, bin, 0, "backfill", dir, "sales", "--from", "2024-01-03", "--to", "2024-01-03", "--where", "region=eu,us"), "2 succeeded")
	got := currentCells(t, dir, "sales__calc")
	if len(got) != 8 {
		t.Fatalf("current cells %v, want the 6 of 01..02 and eu, us of 03", got)
	}
	if _, ok := got["2024-01-03|apac"]; ok {
		t.Fatalf("2024-01-03|apac published by a backfill of eu and us: %v", got)
	}
	for k, v := range got {
		if v != 1 {
			t.Fatalf("%s at version %d, want 1", k, v)
		}
	}
	db, err := sql.Open("duckdb", filepath.Join(dir, ".strata", "warehouse.duckdb")+"?access_mode=read_only")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var own, queries int
	if err := db.QueryRow(`SELECT count(*) FILTER (WHERE partition_key = _partition), count(DISTINCT (_partition[1:10], token)) FROM sales__calc`).Scan(&own, &queries); err != nil {
		t.Fatal(err)
	}
	if own != 8 || queries != 3 {
		t.Fatalf("%d rows in their own cell, %d (day, query) pairs: want 8 (one per cell) and 3 (one query per day)", own, queries)
	}
}
