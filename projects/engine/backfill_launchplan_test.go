package engine

import (
	"context"
	"slices"
	"testing"
)

// TestLaunchPlanLeavesOutNewCells: the plan a backfill records at launch
// holds no entry for a cell or rollup with nothing at launch (every cell
// of a first backfill: millions of entries written and read back by every
// pass); it holds the cells that had something (a current day here) and
// the rollups that had (its week), and a left-out cell still plans as
// missing, run, based on no version (TestNewerWorkOnAnUnstartedDayIsAConflict
// runs one to its conflict).
func TestLaunchPlanLeavesOutNewCells(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles(""))
	e.mustSucceed(e.run("p", "2024-01-03"))
	st := e.launchPaused(BackfillSpec{Pipeline: "p", From: "2024-01-01", To: "2024-01-05", Concurrency: 1})
	ctx := context.Background()
	var keys []string
	rows, err := e.wh.DB().QueryContext(ctx, `SELECT key FROM _strata.backfill_plans WHERE backfill_id = ? ORDER BY key`, st.ID)
	if err != nil {
		t.Fatal(err)
	}
	for rows.Next() {
		var k string
		if err := rows.Scan(&k); err != nil {
			t.Fatal(err)
		}
		keys = append(keys, k)
	}
	rows.Close()
	if !slices.Equal(keys, []string{"2024-01-03", "week:2024-W01"}) {
		t.Fatalf("recorded plan holds %v, want the current day and its week only", keys)
	}
	lp, err := e.eng.loadLaunchPlan(ctx, st.ID)
	if err != nil {
		t.Fatal(err)
	}
	if err := lp.load(ctx, []string{"2024-01-02", "2024-01-03"}, []string{"week:2024-W01"}); err != nil {
		t.Fatal(err)
	}
	if pr, ok := lp.of(st.ID, runIDFor(st.ID, "2024-01-02")); !ok || !pr.Run || pr.State != "missing" || pr.BasedOn != nil {
		t.Fatalf("a left-out day plans as %+v (%v), want missing, run, based on nothing", pr, ok)
	}
	if pr, ok := lp.of(st.ID, runIDFor(st.ID, "2024-01-03")); !ok || pr.Run || pr.State != "current v1" || pr.BasedOn["p__agg"] != 1 {
		t.Fatalf("the current day plans as %+v (%v), want current v1, skipped, based on v1", pr, ok)
	}
	if pr, ok := lp.of(st.ID, runIDFor(st.ID, "week:2024-W01")); !ok || pr.BasedOn["p__weekly"] != 1 {
		t.Fatalf("the week plans as %+v (%v), want based on its v1", pr, ok)
	}
}
