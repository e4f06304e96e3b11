package engine

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
)

// TestLaunchPlanReadsPages: a re-backfill of cells that all have versions
// (reprocess all) reads no more than a page of per-cell values into Go at
// once, at launch and in its pass (before, the launch read every current
// version and the pass the whole plan: 100 at once here, 730,000 in
// BenchmarkLaunchCells), and still runs every cell based on the version
// it replaces: each ends v2, none in conflict.
func TestLaunchPlanReadsPages(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, planCellsFiles(5, 4))
	spec := BackfillSpec{Pipeline: "cells", From: "2024-01-01", To: "2024-01-05", Concurrency: 4, AllowOverlap: true}
	if st := e.backfill(spec); st.State != StateSucceeded {
		t.Fatalf("first backfill: %s %s", st.State, st.Message)
	}
	const page = 16
	var mu sync.Mutex
	largest := map[string]int{}
	var planned atomic.Int64
	e.eng.planPage = page
	e.eng.onLoad = func(what string, n int) {
		mu.Lock()
		defer mu.Unlock()
		largest[what] = max(largest[what], n)
		if what == "plan" {
			planned.Add(int64(n))
		}
	}
	spec.Reprocess = ReprocessAll
	st := e.backfill(spec)
	if st.State != StateSucceeded {
		t.Fatalf("re-backfill: %s %s", st.State, st.Message)
	}
	mu.Lock()
	defer mu.Unlock()
	for what, n := range largest {
		if n > page {
			t.Errorf("%s: %d per-cell values read into Go at once, want at most a page (%d) of the 100 cells", what, n, page)
		}
	}
	if planned.Load() != 100 {
		t.Errorf("the pass read the plan of %d cells, want all 100 (a page at a time)", planned.Load())
	}
	var v2, cur int
	if err := e.wh.DB().QueryRow(`SELECT count(*) FILTER (WHERE version = 2), count(*) FROM _strata.current WHERE product = 'cells__load'`).Scan(&v2, &cur); err != nil {
		t.Fatal(err)
	}
	if v2 != 100 || cur != 100 {
		t.Fatalf("%d of %d cells current at v2, want all 100", v2, cur)
	}
}

var planRowsSeq atomic.Int64

// compareLaunchPlans: the plan DuckDB writes as rows for tg at launch
// equals the plan made cell by cell (makeLaunchPlan), entry for entry.
func compareLaunchPlans(t *testing.T, e *env, tg *target) {
	t.Helper()
	ctx := context.Background()
	pd, err := tg.loadPlanData(ctx, e.eng, e.dir)
	if err != nil {
		t.Fatal(err)
	}
	want, err := makeLaunchPlan(tg, pd)
	if err != nil {
		t.Fatal(err)
	}
	// The JSON plan records every rollup; the rows leave out those with
	// nothing at launch, as they leave out cells (of answers unplanned).
	maps.DeleteFunc(want, func(k string, pr plannedRun) bool { return pr.unplanned() })
	id := fmt.Sprintf("compare-%d", planRowsSeq.Add(1))
	stmts, ok, err := e.eng.planRowsQuery(ctx, tg, e.dir, id)
	if err != nil || !ok {
		t.Fatalf("%+v: plan rows: ok %v, %v", tg.spec, ok, err)
	}
	for _, st := range stmts {
		if _, err := e.wh.DB().ExecContext(ctx, st.sql, st.args...); err != nil {
			t.Fatalf("%+v: write the plan rows: %v", tg.spec, err)
		}
	}
	rows, err := e.wh.DB().QueryContext(ctx, `SELECT key, run, state, based FROM _strata.backfill_plans WHERE backfill_id = ?`, id)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	got := launchPlan{}
	for rows.Next() {
		var k string
		var pr plannedRun
		var based sql.NullString
		if err := rows.Scan(&k, &pr.Run, &pr.State, &based); err != nil {
			t.Fatal(err)
		}
		if based.Valid {
			if err := json.Unmarshal([]byte(based.String), &pr.BasedOn); err != nil {
				t.Fatalf("%s: based %q: %v", k, based.String, err)
			}
		}
		got[k] = pr
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		for _, k := range slices.Sorted(maps.Keys(want)) {
			if !reflect.DeepEqual(got[k], want[k]) {
				t.Errorf("%+v %s: rows %+v, cell by cell %+v", tg.spec, k, got[k], want[k])
			}
		}
		for k := range got {
			if _, ok := want[k]; !ok {
				t.Errorf("%+v %s: rows %+v, cell by cell leaves it out", tg.spec, k, got[k])
			}
		}
		t.FailNow()
	}
	if len(want) == 0 {
		t.Fatalf("%+v: an empty plan compares nothing", tg.spec)
	}
}
