package engine

import (
	"context"
	"testing"
)

// mappedBatchFiles: p is day × region (its load cells one row each); daily
// computes windows of 3 days in one query (batch) and wc windows of 2 days
// of every customer (batch across), both over p__load.
var mappedBatchFiles = map[string]string{
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
	"blocks/load.sql": "SELECT $partition_key AS k, left($partition_key, 10) AS day, 1 AS n",
	"pipelines/daily.yaml": `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
blocks:
  - id: total
    batch: {max: 3}
`,
	"blocks/total.sql": `SELECT strftime(d, '%Y-%m-%d') AS partition_key, count(l.k) AS cells, (SELECT count(*) FROM p__load) AS window_cells
FROM generate_series($batch_start::TIMESTAMP, $batch_end::TIMESTAMP - INTERVAL 1 DAY, INTERVAL 1 DAY) t(d)
	LEFT JOIN p__load l ON l.day = strftime(d, '%Y-%m-%d')
GROUP BY d`,
	"pipelines/wc.yaml": `partitions:
  interval: day
  timezone: UTC
  start: "2024-01-01"
  dimensions:
    - name: customer
      values: [c1, c2]
blocks:
  - id: ctotal
    batch: {max: 2, across: [customer]}
`,
	"blocks/ctotal.sql": `SELECT strftime(d, '%Y-%m-%d') || '|' || c AS partition_key, count(l.k) AS cells, (SELECT count(*) FROM p__load) AS window_cells
FROM generate_series($batch_start::TIMESTAMP, $batch_end::TIMESTAMP - INTERVAL 1 DAY, INTERVAL 1 DAY) t(d)
	CROSS JOIN (VALUES ('c1'), ('c2')) cs(c)
	LEFT JOIN p__load l ON l.day = strftime(d, '%Y-%m-%d')
GROUP BY d, c`,
}

// TestSQLBatchReadsMappedCells: a batch window reading another pipeline's
// dimensional product reads exactly the cells mapped onto the cells of
// its window (9 for 3 days, 6 for 2 days of every customer, not the 21 of
// the product), and each cell records only its own, so a rewrite of one
// cell makes only the partitions of its day stale.
func TestSQLBatchReadsMappedCells(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, mappedBatchFiles)
	ctx := context.Background()
	if st := e.backfill(BackfillSpec{Pipeline: "p", From: "2024-01-01", To: "2024-01-07", Concurrency: 3}); st.State != StateSucceeded {
		t.Fatalf("backfill p: %s %s", st.State, st.Message)
	}
	if st := e.backfill(BackfillSpec{Pipeline: "daily", From: "2024-01-01", To: "2024-01-06"}); st.State != StateSucceeded {
		t.Fatalf("backfill daily: %s %s", st.State, st.Message)
	}
	if st := e.backfill(BackfillSpec{Pipeline: "wc", From: "2024-01-01", To: "2024-01-04"}); st.State != StateSucceeded {
		t.Fatalf("backfill wc: %s %s", st.State, st.Message)
	}
	if n := e.count(`SELECT count(*) FROM daily__total WHERE cells = 3 AND window_cells = 9`); n != 6 {
		var got string
		_ = e.wh.DB().QueryRow(`SELECT string_agg(partition_key || ':' || cells || '/' || window_cells, ' ' ORDER BY partition_key) FROM daily__total`).Scan(&got)
		t.Fatalf("daily (day: cells of its day/cells its window read) %s; want 3/9 for each of 6 days", got)
	}
	if n := e.count(`SELECT count(*) FROM wc__ctotal WHERE cells = 3 AND window_cells = 6`); n != 8 {
		var got string
		_ = e.wh.DB().QueryRow(`SELECT string_agg(partition_key || ':' || cells || '/' || window_cells, ' ' ORDER BY partition_key) FROM wc__ctotal`).Scan(&got)
		t.Fatalf("wc (cell: cells of its day/cells its window read) %s; want 3/6 for each of 8 cells", got)
	}
	// Rewriting 2024-01-02|eu makes 2024-01-02 stale, not the other days
	// of its windows.
	if st := e.backfill(BackfillSpec{Pipeline: "p", From: "2024-01-02", To: "2024-01-02", Where: map[string][]string{"region": {"eu"}}, Reprocess: ReprocessAll}); st.State != StateSucceeded {
		t.Fatalf("rewrite: %s %s", st.State, st.Message)
	}
	for _, c := range []struct{ pipeline, from, to string }{{"daily", "2024-01-01", "2024-01-06"}, {"wc", "2024-01-01", "2024-01-04"}} {
		plan, err := e.eng.Plan(ctx, BackfillSpec{Pipeline: c.pipeline, From: c.from, To: c.to, Reprocess: ReprocessStale}, 0, -1)
		if err != nil {
			t.Fatal(err)
		}
		stale := 0
		for _, pp := range plan.Partitions {
			isStale := pp.State == "stale"
			if isStale {
				stale++
			}
			if isStale != (pp.Key[:10] == "2024-01-02") {
				t.Errorf("%s %s: %s (%s); want only the cells of 2024-01-02 stale", c.pipeline, pp.Key, pp.State, pp.Reason)
			}
		}
		if stale == 0 {
			t.Errorf("%s: nothing stale after 2024-01-02|eu was rewritten", c.pipeline)
		}
	}
}
