package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
)

// TestPlanCountedEqualsEach: the plan counted in DuckDB equals the plan
// classified cell by cell, on a mixed state (cells missing, missing one of
// two products, stale by code, current, failed with and without data,
// cancelled, failed then succeeded; versions outside the box: an old 1-D
// key, a value no longer configured, a region not selected, one part
// too many), for every
// policy, pages and --where, and with a version that read an upstream its
// block no longer lists.
func TestPlanCountedEqualsEach(t *testing.T) {
	files := map[string]string{
		"pipelines/cells.yaml": `partitions:
  interval: day
  timezone: UTC
  start: "2024-01-01"
  dimensions:
    - name: region
      values: [eu, us, apac]
    - name: tier
      values: [gold, free]
blocks:
  - id: load
  - id: other
`,
		"pipelines/single.yaml": `partitions:
  interval: day
  timezone: UTC
  start: "2024-01-01"
  dimensions:
    - name: region
      values: [eu, us, apac]
    - name: tier
      values: [gold, free]
blocks:
  - id: load
`,
		"pipelines/days.yaml": `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
blocks:
  - id: load
  - id: other
`,
		"blocks/load.sql":  "SELECT $partition_key AS k",
		"blocks/other.sql": "SELECT 1 AS n",
	}
	e := newEnv(t, false, files)
	ctx := context.Background()
	db := e.wh.DB()
	seed := func(pipeline string, keyed string, extra []string) {
		pl, err := e.eng.Pipeline(pipeline)
		if err != nil {
			t.Fatal(err)
		}
		hashes, err := CodeHashes(e.dir, pl)
		if err != nil {
			t.Fatal(err)
		}
		var keys []string
		for d := 1; d <= 9; d++ {
			day := fmt.Sprintf("2024-01-%02d", d)
			if keyed == "" {
				keys = append(keys, day)
				continue
			}
			for _, r := range []string{"eu", "us", "apac"} {
				for _, tier := range []string{"gold", "free"} {
					keys = append(keys, day+"|"+r+"|"+tier)
				}
			}
		}
		keys = append(keys, extra...)
		seq := 0
		ins := func(block, key, hash string) {
			_, err := db.Exec(`INSERT INTO _strata.versions (product, partition, partition_start, partition_end, version, run_id, code_hash,
				upstream, row_count, schema, created_at, storage_table, is_current)
				VALUES (?, ?, TIMESTAMPTZ '2024-01-01 00:00:00+00', TIMESTAMPTZ '2024-01-02 00:00:00+00', 1, 'seed', ?, '{}', 1, '[]', now(), 'seed', true)`,
				pipeline+"__"+block, key, hash)
			if err != nil {
				t.Fatal(err)
			}
		}
		event := func(key, state string) {
			seq++
			if _, err := db.Exec(`INSERT INTO _strata.run_events (seq, event_at, run_id, pipeline, partition_key, block_id, state)
				VALUES (?, now(), 'r', ?, ?, '', ?)`, 1000000+seq, pipeline, key, state); err != nil {
				t.Fatal(err)
			}
		}
		for i, k := range keys {
			switch i % 9 {
			case 0: // missing
			case 1: // missing one product
				ins("load", k, hashes["load"])
			case 2: // stale by code
				ins("load", k, "old")
				ins("other", k, hashes["other"])
			case 3, 4: // current
				ins("load", k, hashes["load"])
				ins("other", k, hashes["other"])
			case 5: // failed with data (stale)
				ins("load", k, hashes["load"])
				ins("other", k, "old")
				event(k, "failed")
			case 6: // failed without data
				event(k, "failed")
			case 7: // cancelled with one product
				ins("other", k, hashes["other"])
				event(k, "cancelled")
			case 8: // failed, then succeeded
				ins("load", k, hashes["load"])
				ins("other", k, hashes["other"])
				event(k, "failed")
				event(k, "succeeded")
			}
		}
	}
	seed("cells", "yes", []string{"2024-01-03", "2024-01-03|mars|gold", "2024-01-03|eu|gold|x"})
	seed("days", "", []string{"2024-01-03|eu"})
	seed("single", "yes", []string{"2024-01-03", "2024-01-03|eu|gold|"})

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
		if each.ByState["failed"] == 0 || each.ByState["stale"] == 0 || each.ByState["current"] == 0 || each.ByState["missing"] == 0 {
			t.Fatalf("%+v: want every state in the box, got %v", spec, each.ByState)
		}
	}
	for _, policy := range []string{ReprocessMissing, ReprocessFailed, ReprocessStale, ReprocessAll} {
		for _, pg := range [][2]int{{0, 50}, {7, 5}, {0, -1}} {
			compare(BackfillSpec{Pipeline: "cells", From: "2024-01-01", To: "2024-01-09", Reprocess: policy}, pg[0], pg[1])
			compare(BackfillSpec{Pipeline: "cells", From: "2024-01-02", To: "2024-01-08", Reprocess: policy,
				Where: map[string][]string{"region": {"us", "eu"}}}, pg[0], pg[1])
			compare(BackfillSpec{Pipeline: "single", From: "2024-01-01", To: "2024-01-09", Reprocess: policy}, pg[0], pg[1])
			compare(BackfillSpec{Pipeline: "days", From: "2024-01-01", To: "2024-01-09", Reprocess: policy}, pg[0], pg[1])
		}
	}

	// A version that read an upstream its block does not list (rewired
	// since): decided from its JSON, the same as cell by cell.
	if res, err := db.Exec(`UPDATE _strata.versions SET upstream = '{"cells__load": {"2024-01-04|us|free": 1}}'
		WHERE product = 'cells__other' AND partition = '2024-01-04|us|free'`); err != nil {
		t.Fatal(err)
	} else if n, _ := res.RowsAffected(); n != 1 {
		t.Fatalf("updated %d versions, want 1", n)
	}
	for _, policy := range []string{ReprocessMissing, ReprocessStale} {
		compare(BackfillSpec{Pipeline: "cells", From: "2024-01-01", To: "2024-01-09", Reprocess: policy}, 0, -1)
	}
}
