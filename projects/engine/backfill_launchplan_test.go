package engine

import (
	"context"
	"maps"
	"slices"
	"testing"
)

// TestLaunchPlanLeavesOutNewCells: the plan a backfill records at launch
// holds no entry for a cell with nothing at launch (every cell of a first
// backfill: millions of entries written and read back by every pass); it
// holds the cells that had something (a current day here) and every
// rollup, and a left-out cell still plans as missing, run, based on no
// version (TestNewerWorkOnAnUnstartedDayIsAConflict runs one to its
// conflict).
func TestLaunchPlanLeavesOutNewCells(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles(""))
	e.mustSucceed(e.run("p", "2024-01-03"))
	st := e.launchPaused(BackfillSpec{Pipeline: "p", From: "2024-01-01", To: "2024-01-05", Concurrency: 1})
	src, err := e.eng.loadLaunchPlan(context.Background(), st.ID)
	if err != nil {
		t.Fatal(err)
	}
	lp, ok := src.(launchPlan) // a pipeline with rollups: planned cell by cell
	if !ok {
		t.Fatalf("plan is %T, want the JSON plan", src)
	}
	keys := slices.Sorted(maps.Keys(lp))
	if !slices.Equal(keys, []string{"2024-01-03", "week:2024-W01"}) {
		t.Fatalf("recorded plan holds %v, want the current day and the week only", keys)
	}
	if pr, ok := lp.of(st.ID, runIDFor(st.ID, "2024-01-02")); !ok || !pr.Run || pr.State != "missing" || pr.BasedOn != nil {
		t.Fatalf("a left-out day plans as %+v (%v), want missing, run, based on nothing", pr, ok)
	}
	if _, ok := lp.of(st.ID, runIDFor(st.ID, "month:2024-01")); ok {
		t.Fatal("a rollup the plan does not hold is known to it")
	}
}
