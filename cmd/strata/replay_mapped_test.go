package main

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stratahq/strata/e2e/strataproc"
)

// mappedReaders: p is day × region, one row per cell with n; daily totals
// the cells of its day by naming p__load in its query, and all of d1 (a
// day product: read whole); dailyb totals them batched in windows of 3
// days of one query each.
func mappedReaders(n, v string) map[string]string {
	return map[string]string{
		"pipelines/p.yaml": `partitions:
  interval: day
  timezone: UTC
  start: "2024-01-01"
  dimensions:
    - name: region
      values: [us, eu, apac]
blocks:
  - id: load
`,
		"blocks/load.sql": "SELECT $partition_key AS k, left($partition_key, 10) AS day, " + n + " AS n",
		"pipelines/daily.yaml": `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
blocks:
  - id: total
`,
		"pipelines/d1.yaml": "partitions: {interval: day, timezone: UTC, start: \"2024-01-01\"}\nblocks:\n  - id: plain\n",
		"blocks/plain.sql":  "SELECT $partition_key AS k, " + v + " AS v",
		"blocks/total.sql":  "SELECT count(*) AS cells, sum(n) AS total, (SELECT sum(v) FROM d1__plain) AS d1 FROM p__load",
		"pipelines/dailyb.yaml": `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
blocks:
  - id: btotal
    batch: {max: 3}
`,
		"blocks/btotal.sql": `SELECT strftime(d, '%Y-%m-%d') AS partition_key, count(l.k) AS cells, sum(l.n) AS total
FROM generate_series($batch_start::TIMESTAMP, $batch_end::TIMESTAMP - INTERVAL 1 DAY, INTERVAL 1 DAY) t(d)
	LEFT JOIN p__load l ON l.day = strftime(d, '%Y-%m-%d')
GROUP BY d`,
	}
}

// TestMappedSQLReadsStaleAndReplayThroughBinary: through the CLI, SQL
// blocks reading the cells of their day of a day × region product, one a
// run per day and one batched 3 days a query. A rewrite of one cell makes
// only its day stale in both (the batched days record their own cells,
// not their window's); a replay of unchanged code runs each day on the
// cell versions it read, not the rewritten one, and reports unchanged.
func TestMappedSQLReadsStaleAndReplayThroughBinary(t *testing.T) {
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
	writeProject(t, dir, mappedReaders("1", "10"))
	run(0, "backfill", dir, "p", "--from", "2024-01-01", "--to", "2024-01-04")
	run(0, "backfill", dir, "d1", "--from", "2024-01-01", "--to", "2024-01-02")
	run(0, "backfill", dir, "daily", "--from", "2024-01-01", "--to", "2024-01-03")
	run(0, "backfill", dir, "dailyb", "--from", "2024-01-01", "--to", "2024-01-03")
	for _, product := range []string{"daily__total", "dailyb__btotal"} {
		if got := rows(t, dir, `SELECT _partition || ':' || cells || '/' || total FROM `+product+` ORDER BY _partition`); got != "2024-01-01:3/3 2024-01-02:3/3 2024-01-03:3/3" {
			t.Fatalf("%s: %s; want the 3 cells of each day", product, got)
		}
	}

	// One cell rewritten with other rows: its day is stale, no other.
	writeProject(t, dir, mappedReaders("2", "10"))
	run(0, "backfill", dir, "p", "--from", "2024-01-02", "--to", "2024-01-02", "--where", "region=eu", "--reprocess", "all")
	for _, pipeline := range []string{"daily", "dailyb"} {
		var plan struct {
			Partitions []struct {
				Key    string `json:"key"`
				State  string `json:"state"`
				Reason string `json:"reason"`
			} `json:"partitions"`
		}
		out := run(0, "backfill", dir, pipeline, "--from", "2024-01-01", "--to", "2024-01-03", "--reprocess", "stale", "--dry-run", "--all", "--format", "json")
		if err := json.Unmarshal([]byte(out), &plan); err != nil {
			t.Fatalf("plan of %s: %v\n%s", pipeline, err, out)
		}
		for _, pp := range plan.Partitions {
			if stale := pp.State == "stale"; stale != (pp.Key == "2024-01-02") {
				t.Errorf("%s %s: %s (%s); want 2024-01-02 stale and no other day", pipeline, pp.Key, pp.State, pp.Reason)
			}
		}
	}

	// The replay reads what each day read: unchanged, though 2024-01-02|eu
	// holds other rows now, and so does d1 2024-01-01, which daily read
	// whole.
	writeProject(t, dir, mappedReaders("2", "20"))
	run(0, "run", dir, "d1", "--partition", "2024-01-01")
	mustContain(t, run(0, "test", dir, "--replay", "daily", "--from", "2024-01-01", "--to", "2024-01-03", "--expect-unchanged", "daily__total"),
		"3 partitions: 3 unchanged, 0 changed, 0 failed", "expect unchanged daily__total: passed")
	mustContain(t, run(0, "test", dir, "--replay", "dailyb", "--from", "2024-01-01", "--to", "2024-01-03", "--expect-unchanged", "dailyb__btotal"),
		"3 partitions: 3 unchanged, 0 changed, 0 failed", "expect unchanged dailyb__btotal: passed")
}
