package engine

import (
	"context"
	"testing"
)

// TestSQLReadsMappedCells: a SQL block of a day pipeline naming a day ×
// region product of another pipeline reads the three regions of its day,
// not the whole product; the version records those cells, so rewriting
// one of them makes the day stale and rewriting another day's does not. A
// week × region reader reads its region's days. A day pipeline naming a
// day product reads all of it, as before.
func TestSQLReadsMappedCells(t *testing.T) {
	t.Parallel()
	files := map[string]string{
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
		"blocks/load.sql":      "SELECT $partition_key AS k, 1 AS n",
		"pipelines/d1.yaml":    "partitions: {interval: day, timezone: UTC, start: \"2024-01-01\"}\nblocks:\n  - id: plain\n",
		"blocks/plain.sql":     "SELECT $partition_key AS k",
		"pipelines/daily.yaml": "partitions: {interval: day, timezone: UTC, start: \"2024-01-01\"}\nblocks:\n  - id: total\n",
		"blocks/total.sql":     "SELECT count(*) AS cells, string_agg(k, ',' ORDER BY k) AS ks, (SELECT count(*) FROM d1__plain) AS days FROM p__load",
		"pipelines/wr.yaml": `partitions:
  interval: week
  timezone: UTC
  start: "2024-01-01"
  dimensions:
    - name: region
      values: [us, eu, apac]
blocks:
  - id: wtotal
`,
		"blocks/wtotal.sql": "SELECT count(*) AS cells FROM p__load",
	}
	e := newEnv(t, false, files)
	ctx := context.Background()
	if st := e.backfill(BackfillSpec{Pipeline: "p", From: "2024-01-01", To: "2024-01-07", Concurrency: 3}); st.State != StateSucceeded {
		t.Fatalf("backfill p: %s %s", st.State, st.Message)
	}
	if st := e.backfill(BackfillSpec{Pipeline: "d1", From: "2024-01-01", To: "2024-01-04"}); st.State != StateSucceeded {
		t.Fatalf("backfill d1: %s %s", st.State, st.Message)
	}
	e.mustSucceed(e.run("daily", "2024-01-02"))
	e.mustSucceed(e.run("daily", "2024-01-03"))
	if n := e.count(`SELECT count(*) FROM daily__total WHERE cells = 3 AND ks = '2024-01-02|apac,2024-01-02|eu,2024-01-02|us' AND days = 4`); n != 1 {
		var got string
		_ = e.wh.DB().QueryRow(`SELECT string_agg(cells || ' ' || ks || ' ' || days, '; ') FROM daily__total`).Scan(&got)
		t.Fatalf("daily 2024-01-02 read %q; want the 3 regions of its day (and all 4 days of the one-dimensional d1)", got)
	}
	e.mustSucceed(e.run("wr", "2024-W01|eu"))
	if n := e.count(`SELECT count(*) FROM wr__wtotal WHERE cells = 7`); n != 1 {
		t.Fatal("the week × region reader did not read its region's 7 days")
	}
	// Rewriting 2024-01-02|eu makes that day stale, not 2024-01-03.
	if st := e.backfill(BackfillSpec{Pipeline: "p", From: "2024-01-02", To: "2024-01-02", Where: map[string][]string{"region": {"eu"}}, Reprocess: ReprocessAll}); st.State != StateSucceeded {
		t.Fatalf("rewrite: %s %s", st.State, st.Message)
	}
	plan, err := e.eng.Plan(ctx, BackfillSpec{Pipeline: "daily", From: "2024-01-02", To: "2024-01-03", Reprocess: ReprocessStale}, 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	for _, pp := range plan.Partitions {
		if stale := pp.State == "stale"; stale != (pp.Key == "2024-01-02") {
			t.Errorf("daily %s: %s (%s); want only 2024-01-02 stale", pp.Key, pp.State, pp.Reason)
		}
	}
}
