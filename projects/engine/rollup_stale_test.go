package engine

import (
	"context"
	"strings"
	"testing"
)

// A week rolled up before some of its days existed did not read them; when
// those days become current later (here: an atomic backfill's promote after
// keep-newer kept the week a plain run of one day had made), the week is
// stale, and `--reprocess stale` rolls it up again. Before, the plan called
// it current, so the week kept one day's data beside six current days, and
// every stale pass skipped it.
func TestRollupMissingDaysThatAreCurrentIsStale(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles(""))
	ctx := context.Background()
	st := e.launchPaused(BackfillSpec{Pipeline: "p", From: "2024-01-01", To: "2024-01-07", Concurrency: 1, Publish: PublishAtomic})
	e.mustSucceed(e.run("p", "2024-01-05")) // day 5 and its week W01, from that one day
	done := e.resumeAndWait(st.ID)
	if done.State != StateNeedsAttention {
		t.Fatalf("promote over the plain run: %s %q", done.State, done.Message)
	}
	if _, err := e.eng.Resolve(ctx, st.ID, true, nil); err != nil { // keep the newer day 5 and week
		t.Fatal(err)
	}
	if n := e.count(`SELECT count(*) FROM _strata.current WHERE product = 'p__agg'`); n != 7 {
		t.Fatalf("%d days current, want 7", n)
	}
	if n := e.count(`SELECT days FROM p__weekly WHERE week = '2024-W01'`); n != 1 {
		t.Fatalf("the kept week read %d days; the setup wants the plain run's week of 1 day", n)
	}
	s := spec("2024-01-01", "2024-01-07")
	s.Reprocess = ReprocessStale
	plan, err := e.eng.Plan(ctx, s, 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Rollups) != 1 || plan.Rollups[0].State != "stale" || plan.Rollups[0].Action != "run" ||
		!strings.Contains(plan.Rollups[0].Reason, "2024-01-01") {
		t.Fatalf("the week that read 1 of its 7 current days: %+v", plan.Rollups)
	}
	again := e.backfill(s)
	if again.State != StateSucceeded {
		t.Fatalf("stale pass: %s %q", again.State, again.Message)
	}
	if n := e.count(`SELECT days FROM p__weekly WHERE week = '2024-W01'`); n != 7 {
		t.Fatalf("after --reprocess stale the week reads %d days, want 7", n)
	}
	plan, err = e.eng.Plan(ctx, s, 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	if plan.ToRun != 0 || plan.Rollups[0].State == "stale" {
		t.Fatalf("after the stale pass: %d to run, week %+v", plan.ToRun, plan.Rollups[0])
	}
}

// keep-newer keeps work that can be stale once the backfill's other
// partitions are current (the week above); the resolve says so, and how to
// catch it up, rather than a bare "succeeded".
func TestKeepNewerSaysWhatIsStaleNow(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles(""))
	ctx := context.Background()
	st := e.launchPaused(BackfillSpec{Pipeline: "p", From: "2024-01-01", To: "2024-01-07", Concurrency: 1, Publish: PublishAtomic})
	e.mustSucceed(e.run("p", "2024-01-05"))
	if done := e.resumeAndWait(st.ID); done.State != StateNeedsAttention {
		t.Fatalf("promote over the plain run: %s %q", done.State, done.Message)
	}
	if _, err := e.eng.Resolve(ctx, st.ID, true, nil); err != nil {
		t.Fatal(err)
	}
	got, err := e.eng.Backfill(ctx, st.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.State != StateSucceeded || !strings.Contains(got.Message, "stale") || !strings.Contains(got.Message, "2024-W01") ||
		!strings.Contains(got.Message, "--reprocess stale") {
		t.Fatalf("after keep-newer: %s %q; want it to name the stale week and the command", got.State, got.Message)
	}
}
