package engine

import (
	"context"
	"encoding/json"
	"testing"
)

// Pipelines with rollups: wr (day × region) with a week × region and a
// month × region rollup of its days; wk (days) with a week rollup.
var rollupPlanFiles = map[string]string{
	"pipelines/wr.yaml": `partitions:
  interval: day
  timezone: UTC
  start: "2024-01-01"
  dimensions:
    - name: region
      values: [eu, us, apac]
concurrency: 3
retries: {attempts: 0}
blocks:
  - id: load
  - id: agg
    upstream: [load]
  - id: weekly
    upstream: [agg]
    partitions: {interval: week}
  - id: monthly
    upstream: [agg]
    partitions: {interval: month}
`,
	"pipelines/wk.yaml": `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
concurrency: 3
retries: {attempts: 0}
blocks:
  - id: load
  - id: agg
    upstream: [load]
  - id: weekly
    upstream: [agg]
    partitions: {interval: week}
`,
	"blocks/load.sql":    "SELECT $partition_key AS k, 1 AS n",
	"blocks/agg.sql":     "SELECT k, n FROM load",
	"blocks/weekly.sql":  "SELECT count(*) AS days, sum(n) AS n FROM agg",
	"blocks/monthly.sql": "SELECT count(*) AS days, sum(n) AS n FROM agg",
}

// TestPlanCountedRollups: with rollups, the plan counted in DuckDB equals
// the plan made cell by cell, and the launch's plan rows the JSON plan,
// on a mixed state of weeks and months: current; stale because a day they
// read was rewritten, because a day was published after them and not read
// (the unread check), or by code; failed; missing; days missing in the
// range; for every policy, pages, --where and a subset of blocks.
func TestPlanCountedRollups(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, rollupPlanFiles)
	ctx := context.Background()
	mustBackfill := func(s BackfillSpec) {
		t.Helper()
		if st := e.backfill(s); st.State != StateSucceeded {
			t.Fatalf("backfill %+v: %s %s", s, st.State, st.Message)
		}
	}
	exec := func(q string, args ...any) {
		t.Helper()
		res, err := e.wh.DB().Exec(q, args...)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		if n, _ := res.RowsAffected(); n < 1 {
			t.Fatalf("%s: no row changed", q)
		}
	}
	for _, pl := range []string{"wr", "wk"} {
		mustBackfill(BackfillSpec{Pipeline: pl, From: "2024-01-01", To: "2024-01-20", Concurrency: 3})
		// A day rewritten under its week and month (which read it).
		mustBackfill(BackfillSpec{Pipeline: pl, From: "2024-01-03", To: "2024-01-03", Blocks: []string{"load", "agg"}, Reprocess: ReprocessAll,
			Where: whereIf(pl == "wr", "region", "eu")})
		// A day published after its week, which did not read it.
		mustBackfill(BackfillSpec{Pipeline: pl, From: "2024-01-21", To: "2024-01-21", Blocks: []string{"load", "agg"},
			Where: whereIf(pl == "wr", "region", "us")})
	}
	exec(`UPDATE _strata.versions SET code_hash = 'old' WHERE is_current AND product = 'wr__weekly' AND partition = '2024-W02|apac'`)
	exec(`UPDATE _strata.versions SET is_current = false WHERE is_current AND product = 'wr__weekly' AND partition = '2024-W01|apac'`)
	exec(`UPDATE _strata.versions SET is_current = false WHERE is_current AND product = 'wr__agg' AND partition = '2024-01-09|apac'`)
	exec(`UPDATE _strata.versions SET code_hash = 'old' WHERE is_current AND product = 'wk__weekly' AND partition = '2024-W02'`)
	exec(`INSERT INTO _strata.run_events (seq, event_at, run_id, pipeline, partition_key, block_id, state)
		VALUES (9000001, now(), 'r', 'wr', '2024-W02|eu', '', 'failed'), (9000002, now(), 'r', 'wk', '2024-W03', '', 'failed'),
		(9000003, now(), 'r', 'wr', '2024-01-10|us', '', 'failed')`)

	compare := func(spec BackfillSpec, offset, limit int) {
		t.Helper()
		pl, err := e.eng.Pipeline(spec.Pipeline)
		if err != nil {
			t.Fatal(err)
		}
		tg, err := e.eng.target(ctx, spec, pl)
		if err != nil {
			t.Fatal(err)
		}
		if offset == 0 && limit < 0 {
			compareLaunchPlans(t, e, tg)
		}
		counted, ok, err := e.eng.planCounted(ctx, tg, "v", offset, limit)
		if err != nil || !ok {
			t.Fatalf("%+v: counted plan: ok %v, %v", spec, ok, err)
		}
		each, err := e.eng.planEach(ctx, tg, "v", offset, limit)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := json.Marshal(counted)
		b, _ := json.Marshal(each)
		if string(a) != string(b) {
			t.Fatalf("%+v page %d+%d:\ncounted %s\neach    %s", spec, offset, limit, a, b)
		}
	}
	for _, policy := range []string{ReprocessMissing, ReprocessFailed, ReprocessStale, ReprocessAll} {
		for _, pg := range [][2]int{{0, -1}, {0, 10}, {7, 5}, {40, 30}} {
			compare(BackfillSpec{Pipeline: "wr", From: "2024-01-01", To: "2024-01-24", Reprocess: policy}, pg[0], pg[1])
			compare(BackfillSpec{Pipeline: "wr", From: "2024-01-02", To: "2024-01-21", Reprocess: policy,
				Where: map[string][]string{"region": {"us", "apac"}}}, pg[0], pg[1])
			compare(BackfillSpec{Pipeline: "wr", From: "2024-01-01", To: "2024-01-21", Reprocess: policy, Blocks: []string{"agg", "weekly"}}, pg[0], pg[1])
			compare(BackfillSpec{Pipeline: "wk", From: "2024-01-01", To: "2024-01-24", Reprocess: policy}, pg[0], pg[1])
		}
	}
	plan, err := e.eng.Plan(ctx, BackfillSpec{Pipeline: "wr", From: "2024-01-01", To: "2024-01-21", Reprocess: ReprocessMissing}, 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"2024-W01|eu": "stale", "2024-W01|us": "current v1", "2024-W01|apac": "missing", "2024-W02|apac": "stale",
		"2024-W02|eu": "failed", "2024-W03|us": "stale", "2024-W03|eu": "stale v1", "2024-01|eu": "stale",
	}
	seen := 0
	for _, pp := range plan.Rollups {
		if w, ok := want[pp.Key]; ok {
			seen++
			if pp.State != w {
				t.Errorf("%s: %s (%s), want %s", pp.Key, pp.State, pp.Reason, w)
			}
		}
	}
	if seen != len(want) {
		t.Errorf("plan lists %d of the %d rollups checked: %+v", seen, len(want), plan.Rollups)
	}
}

func whereIf(ok bool, dim, value string) map[string][]string {
	if !ok {
		return nil
	}
	return map[string][]string{dim: {value}}
}
