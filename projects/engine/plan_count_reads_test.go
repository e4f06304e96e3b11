package engine

import (
	"context"
	"encoding/json"
	"testing"
)

// Pipelines whose blocks read: rd (day × region × tier) with load, agg
// reading load and both reading agg and load (two upstreams, listed in
// the other order than their names sort); daily, a day pipeline whose
// block reads every cell of its day of rd__load with ctx.Product.
var readPlanFiles = map[string]string{
	"pipelines/rd.yaml": `partitions:
  interval: day
  timezone: UTC
  start: "2024-01-01"
  dimensions:
    - name: region
      values: [eu, us, apac]
    - name: tier
      values: [gold, free]
concurrency: 3
blocks:
  - id: load
  - id: agg
    upstream: [load]
  - id: pair
    upstream: [load, agg]
`,
	"blocks/load.sql": "SELECT $partition_key AS k, 1 AS n",
	"blocks/agg.sql":  "SELECT k, n FROM load",
	"blocks/pair.sql": "SELECT a.k, a.n + l.n AS n FROM agg a, load l",
	"pipelines/daily.yaml": `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
blocks:
  - id: total
`,
	"blocks/total/total.go": `package total

import "github.com/stratahq/strata/blocks/sdk"

func Load(ctx *sdk.Context) (*sdk.Table, error) {
	in, err := ctx.Product("rd__load", sdk.One(ctx.Partition.Key))
	if err != nil {
		return nil, err
	}
	t := sdk.NewTable(sdk.String("key"), sdk.Int64("cells"))
	t.Append(ctx.Partition.Key, int64(in.Len()))
	return t, nil
}
`,
}

// TestPlanCountedReads: where versions read upstreams (a block of the
// same cell, two of them, every cell of a day of another pipeline), the
// counted plan equals the plan classified cell by cell on a mixed state:
// an upstream rewritten under its readers, a cell rewritten whole,
// missing, stale by code, failed, a rewired block, a version that read a
// product of another pipeline since rewritten; for every policy, pages,
// --where and a subset of blocks; and old keys in the upstream's range
// (which classify counts as partitions not read) make it plan cell by
// cell.
func TestPlanCountedReads(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, readPlanFiles)
	ctx := context.Background()
	if st := e.backfill(BackfillSpec{Pipeline: "rd", From: "2024-01-01", To: "2024-01-06", Concurrency: 3}); st.State != StateSucceeded {
		t.Fatalf("backfill rd: %s %s", st.State, st.Message)
	}
	if st := e.backfill(BackfillSpec{Pipeline: "daily", From: "2024-01-01", To: "2024-01-06"}); st.State != StateSucceeded {
		t.Fatalf("backfill daily: %s %s", st.State, st.Message)
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
	// An upstream rewritten under its readers (agg, both and daily's day).
	if st := e.backfill(BackfillSpec{Pipeline: "rd", From: "2024-01-02", To: "2024-01-02", Blocks: []string{"load"},
		Where: map[string][]string{"region": {"eu"}, "tier": {"gold"}}, Reprocess: ReprocessAll}); st.State != StateSucceeded {
		t.Fatalf("rewrite load: %s %s", st.State, st.Message)
	}
	// Readers rewritten alone read their upstream by version number: one
	// cell left so (current), one whose upstream is rewritten after.
	for _, c := range []struct {
		blocks []string
		region string
	}{{[]string{"agg", "pair"}, "apac"}, {[]string{"agg"}, "eu"}, {[]string{"load"}, "eu"}} {
		if st := e.backfill(BackfillSpec{Pipeline: "rd", From: "2024-01-01", To: "2024-01-01", Blocks: c.blocks,
			Where: map[string][]string{"region": {c.region}, "tier": {"free"}}, Reprocess: ReprocessAll}); st.State != StateSucceeded {
			t.Fatalf("rewrite %v: %s %s", c.blocks, st.State, st.Message)
		}
	}
	// A cell rewritten whole: current again.
	if st := e.backfill(BackfillSpec{Pipeline: "rd", From: "2024-01-03", To: "2024-01-03",
		Where: map[string][]string{"region": {"us"}, "tier": {"free"}}, Reprocess: ReprocessAll}); st.State != StateSucceeded {
		t.Fatalf("rewrite a cell: %s %s", st.State, st.Message)
	}
	exec(`UPDATE _strata.versions SET is_current = false WHERE product = 'rd__load' AND partition = '2024-01-04|apac|gold'`)
	exec(`UPDATE _strata.versions SET code_hash = 'old' WHERE is_current AND product = 'rd__agg' AND partition = '2024-01-05|eu|free'`)
	exec(`INSERT INTO _strata.run_events (seq, event_at, run_id, pipeline, partition_key, block_id, state)
		VALUES (9000000, now(), 'r', 'rd', '2024-01-05|us|gold', '', 'failed')`)
	exec(`UPDATE _strata.versions SET inputs = '["rd__agg","rd__load"]' WHERE is_current AND product = 'rd__pair' AND partition = '2024-01-06|eu|gold'`)
	// A version that read a product of another pipeline, rewritten since;
	// and one that read it as it is.
	var day2, day3 int
	if err := e.wh.DB().QueryRow(`SELECT max(version) FILTER (WHERE partition = '2024-01-02'), max(version) FILTER (WHERE partition = '2024-01-03')
		FROM _strata.versions WHERE is_current AND product = 'daily__total'`).Scan(&day2, &day3); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		key, day string
		v        int
	}{{"2024-01-06|us|gold", "2024-01-02", day2 + 1}, {"2024-01-06|us|free", "2024-01-03", day3}} {
		var up string
		if err := e.wh.DB().QueryRow(`SELECT CAST(upstream AS VARCHAR) FROM _strata.versions WHERE is_current AND product = 'rd__agg' AND partition = ?`, c.key).Scan(&up); err != nil {
			t.Fatal(err)
		}
		var m map[string]map[string]int
		if err := json.Unmarshal([]byte(up), &m); err != nil {
			t.Fatal(err)
		}
		m["daily__total"] = map[string]int{c.day: c.v}
		b, _ := json.Marshal(m)
		exec(`UPDATE _strata.versions SET upstream = ? WHERE is_current AND product = 'rd__agg' AND partition = ?`, string(b), c.key)
	}

	compare := func(spec BackfillSpec, offset, limit int, wantStale bool) {
		t.Helper()
		pl, err := e.eng.Pipeline(spec.Pipeline)
		if err != nil {
			t.Fatal(err)
		}
		tg, err := e.eng.target(ctx, spec, pl)
		if err != nil {
			t.Fatal(err)
		}
		counted, ok, err := e.eng.planCounted(ctx, tg, "v", offset, limit)
		if err != nil || !ok {
			t.Fatalf("%+v: counted plan: ok %v, %v", spec, ok, err)
		}
		each, err := e.eng.planEach(ctx, tg, "v", offset, limit)
		if err != nil {
			t.Fatal(err)
		}
		if offset == 0 && limit < 0 {
			// and the launch's plan, written by DuckDB, equals the one made cell by cell
			compareLaunchPlans(t, e, tg)
		}
		a, _ := json.Marshal(counted)
		b, _ := json.Marshal(each)
		if string(a) != string(b) {
			t.Fatalf("%+v page %d+%d:\ncounted %s\neach    %s", spec, offset, limit, a, b)
		}
		if wantStale && each.ByState["stale"] == 0 {
			t.Fatalf("%+v: want stale cells in the box, got %v", spec, each.ByState)
		}
	}
	for _, policy := range []string{ReprocessMissing, ReprocessFailed, ReprocessStale, ReprocessAll} {
		for _, pg := range [][2]int{{0, 50}, {5, 7}, {0, -1}} {
			compare(BackfillSpec{Pipeline: "rd", From: "2024-01-01", To: "2024-01-07", Reprocess: policy}, pg[0], pg[1], true)
			compare(BackfillSpec{Pipeline: "rd", From: "2024-01-02", To: "2024-01-06", Reprocess: policy,
				Where: map[string][]string{"region": {"us", "eu"}}}, pg[0], pg[1], true)
			compare(BackfillSpec{Pipeline: "rd", From: "2024-01-01", To: "2024-01-06", Reprocess: policy, Blocks: []string{"agg", "pair"}}, pg[0], pg[1], true)
			compare(BackfillSpec{Pipeline: "daily", From: "2024-01-01", To: "2024-01-07", Reprocess: policy}, pg[0], pg[1], true)
		}
	}
	plan, err := e.eng.Plan(ctx, BackfillSpec{Pipeline: "rd", From: "2024-01-01", To: "2024-01-06", Reprocess: ReprocessStale}, 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"2024-01-02|eu|gold": "stale", "2024-01-03|us|free": "current v2", "2024-01-04|apac|gold": "missing",
		"2024-01-05|eu|free": "stale", "2024-01-05|us|gold": "failed", "2024-01-06|eu|gold": "stale",
		"2024-01-06|us|gold": "stale", "2024-01-06|us|free": "current v1", "2024-01-02|us|gold": "current v1",
		"2024-01-01|apac|free": "current v2", "2024-01-01|eu|free": "stale",
	}
	for _, pp := range plan.Partitions {
		if w, ok := want[pp.Key]; ok && pp.State != w {
			t.Errorf("%s: %s (%s), want %s", pp.Key, pp.State, pp.Reason, w)
		}
	}
	if plan.ByState["stale"] != 5 {
		t.Errorf("by state %v, want 5 stale", plan.ByState)
	}

	// Into an environment: the versions it pinned (load rewritten there
	// for one cell) stand for the current ones.
	const owner = "env:dev"
	res, err := e.eng.Run(ctx, "rd", "2024-01-04|us|free", RunOptions{Stage: true, Pin: owner, PreferPinned: owner, Blocks: []string{"load"}})
	if err != nil {
		t.Fatal(err)
	}
	e.mustSucceed(res)
	for _, policy := range []string{ReprocessMissing, ReprocessStale} {
		compare(BackfillSpec{Pipeline: "rd", From: "2024-01-01", To: "2024-01-06", Reprocess: policy, Into: owner}, 0, -1, true)
	}

	// An old key of the upstream inside the range: classify takes it for
	// an upstream partition its readers did not read.
	exec(`INSERT INTO _strata.versions (product, partition, partition_start, partition_end, version, run_id, code_hash,
		upstream, row_count, schema, created_at, storage_table, is_current)
		VALUES ('rd__load', '2024-01-04', TIMESTAMPTZ '2024-01-04 00:00:00+00', TIMESTAMPTZ '2024-01-05 00:00:00+00', 1, 'old', 'x', '{}', 1, '[]', now(), 'seed', true)`)
	pl, _ := e.eng.Pipeline("rd")
	tg, err := e.eng.target(ctx, BackfillSpec{Pipeline: "rd", From: "2024-01-01", To: "2024-01-06", Reprocess: ReprocessStale}, pl)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := e.eng.planCounted(ctx, tg, "v", 0, 10); err != nil || ok {
		t.Fatalf("an old key among the upstream's: counted %v, %v; want cell by cell", ok, err)
	}
}
