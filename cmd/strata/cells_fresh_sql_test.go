package main

import (
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stratahq/strata/e2e/strataproc"
)

// TestSQLCellReadsFreshnessThroughBinary: through the CLI, a SQL block
// naming a day × region product with a max_age on it reads the cells of
// its day after refreshing those that are missing or older than max_age
// (one run each) and none of the fresh ones, in a plain run and in a batch
// window, as a Go block's ctx.Product does.
func TestSQLCellReadsFreshnessThroughBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := strataproc.Binary(t)
	dir := filepath.Join(t.TempDir(), "proj")
	run := func(want int, args ...string) string {
		t.Helper()
		return runWant(t, bin, want, args...)
	}
	run(0, "init", dir)
	reader := "partitions: {interval: day, timezone: UTC, start: \"2024-01-01\"}\nreads:\n  - product: orders\n    freshness: {max_age: 1h}\nblocks:\n  - id: %s\n"
	writeProject(t, dir, map[string]string{
		"pipelines/p.yaml": `partitions:
  interval: day
  timezone: UTC
  start: "2024-01-01"
  dimensions:
    - name: region
      values: [us, eu, apac]
blocks:
  - id: load
    product: orders
`,
		"blocks/load.sql":       "SELECT $partition_key AS k, left($partition_key, 10) AS day",
		"pipelines/daily.yaml":  fmt.Sprintf(reader, "total"),
		"blocks/total.sql":      "SELECT count(*) AS cells FROM orders",
		"pipelines/dailyb.yaml": fmt.Sprintf(reader, "btotal") + "    batch: {max: 2}\n",
		"blocks/btotal.sql": `SELECT strftime(d, '%Y-%m-%d') AS partition_key, count(o.k) AS cells
FROM generate_series($batch_start::TIMESTAMP, $batch_end::TIMESTAMP - INTERVAL 1 DAY, INTERVAL 1 DAY) t(d)
	LEFT JOIN orders o ON o.day = strftime(d, '%Y-%m-%d')
GROUP BY d`,
	})
	run(0, "backfill", dir, "p", "--from", "2024-01-02", "--to", "2024-01-03", "--where", "region=us,eu")
	// eu two hours old (the binary is not running: the file is ours).
	db, err := sql.Open("duckdb", filepath.Join(dir, ".strata", "warehouse.duckdb"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`UPDATE _strata.versions SET created_at = created_at - INTERVAL 2 HOUR WHERE product = 'orders' AND partition LIKE '%|eu'`); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	run(0, "run", dir, "daily", "--partition", "2024-01-02")
	run(0, "run", dir, "dailyb", "--partition", "2024-01-03")
	v := versionCounts(t, dir, "orders")
	for k, want := range map[string]int{"2024-01-02|us": 1, "2024-01-02|eu": 2, "2024-01-02|apac": 1, "2024-01-03|us": 1, "2024-01-03|eu": 2, "2024-01-03|apac": 1} {
		if v[k] != want {
			t.Errorf("orders %s: %d versions, want %d (all: %v): the old eu refreshed, the missing apac made, the fresh us kept", k, v[k], want, v)
		}
	}
	if got := rows(t, dir, `SELECT _partition || ':' || cells FROM daily__total UNION ALL SELECT _partition || ':' || cells FROM dailyb__btotal ORDER BY 1`); got != "2024-01-02:3 2024-01-03:3" {
		t.Errorf("totals %q: want the 3 cells of each day", got)
	}
}
