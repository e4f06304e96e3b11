package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/stratahq/strata/projects/warehouse"
)

// A backfill's versions that are not current yet, staged by an atomic
// backfill or kept aside by a conflict, are held from retention until the
// backfill promotes or resolves them (warehouse Output.Hold): with
// retention 1 the next plain run of the partition dropped them, the
// conflict vanished from the list and promote-anyway answered succeeded
// ("settled as their resolve had left them before a restart"), or an
// atomic backfill counted the partition succeeded with none of its work
// current.

func retainOne(files map[string]string) map[string]string {
	files["strata.yaml"] = "name: hold\nretention: 1\n"
	return files
}

// A conflict's version outlives another rewrite of its partition, and
// promote-anyway makes exactly it current.
func TestKeptAsideVersionOutlivesRetention(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, retainOne(dailyFiles("")))
	if st := e.backfill(spec("2024-01-01", "2024-01-05")); st.State != StateSucceeded {
		t.Fatalf("first pass: %s", st.Message)
	}
	st := e.launchPaused(BackfillSpec{Pipeline: "p", From: "2024-01-01", To: "2024-01-05", Concurrency: 1, Reprocess: ReprocessAll})
	e.mustSucceed(e.run("p", "2024-01-05")) // v2: newer work
	if done := e.resumeAndWait(st.ID); done.State != StateNeedsAttention {
		t.Fatalf("backfill over newer work: %s %q", done.State, done.Message)
	}
	e.mustSucceed(e.run("p", "2024-01-05")) // v4: retention 1 keeps it and what is held
	cs, err := e.eng.Conflicts(context.Background(), st.ID)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, c := range cs {
		if c.Product == "p__agg" && c.Partition == "2024-01-05" {
			found = c.Version == 3 && c.Current == 4
		}
	}
	if !found {
		t.Fatalf("day 5's kept-aside v3 is no longer listed after another run: %+v", cs)
	}
	if _, err := e.eng.Resolve(context.Background(), st.ID, false, nil); err != nil {
		t.Fatal(err)
	}
	if v := current(e, "p__agg", "2024-01-05"); v != 3 {
		t.Fatalf("after promote-anyway day 5 is v%d, want the backfill's v3", v)
	}
	if n := e.count(`SELECT count(*) FROM _strata.pins`); n != 0 {
		t.Fatalf("%d pins left after every conflict was resolved", n)
	}
	e.mustSucceed(e.run("p", "2024-01-05"))
	if n := e.count(`SELECT count(*) FROM _strata.versions WHERE product = 'p__agg' AND partition = '2024-01-05'`); n != 1 {
		t.Fatalf("day 5 keeps %d versions after a resolve and a run, want the 1 retention keeps", n)
	}
}

// An atomic backfill's staged version outlives a plain run of its
// partition before the promote: the promote finds the newer work and the
// partition is a conflict, not succeeded over work that is not there.
func TestAtomicStagedVersionOutlivesRetention(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, retainOne(dailyFiles("")))
	if st := e.backfill(spec("2024-01-01", "2024-01-05")); st.State != StateSucceeded {
		t.Fatalf("first pass: %s", st.Message)
	}
	e.rewrite(retainOne(dailyFiles("2024-01-03")))
	atomic := BackfillSpec{Pipeline: "p", From: "2024-01-01", To: "2024-01-05", Concurrency: 1, Reprocess: ReprocessAll, Publish: PublishAtomic}
	st := e.backfill(atomic)
	if st.State != StateFailed {
		t.Fatalf("atomic backfill with day 3 failing: %s %q", st.State, st.Message)
	}
	e.mustSucceed(e.run("p", "2024-01-02")) // v3 current, over the staged v2
	e.rewrite(retainOne(dailyFiles("")))
	if _, err := e.eng.Retry(context.Background(), st.ID, true); err != nil {
		t.Fatal(err)
	}
	done, err := e.eng.Wait(context.Background(), st.ID)
	if err != nil {
		t.Fatal(err)
	}
	// Day 2 and its week, both rewritten by the plain run.
	if done.State != StateNeedsAttention || done.Progress.Conflicts != 2 {
		t.Fatalf("retried atomic backfill over newer work on day 2: %s %q %+v", done.State, done.Message, done.Progress)
	}
	if v := current(e, "p__agg", "2024-01-02"); v != 3 {
		t.Fatalf("day 2 current v%d, want the plain run's v3", v)
	}
	// An atomic backfill settles its conflicts together (promote-anyway
	// takes them all), and only then makes its versions current.
	if v := current(e, "p__agg", "2024-01-01"); v != 1 {
		t.Fatalf("day 1 current v%d with conflicts unsettled, want v1", v)
	}
	if _, err := e.eng.Resolve(context.Background(), st.ID, false, nil); err != nil {
		t.Fatal(err)
	}
	if v := current(e, "p__agg", "2024-01-02"); v != 2 {
		t.Fatalf("after promote-anyway day 2 is v%d, want the backfill's staged v2", v)
	}
	// Everything it held is current now, and released.
	if n := e.count(`SELECT count(*) FROM _strata.pins`); n != 0 {
		t.Fatalf("%d pins left, want none", n)
	}
}

// A failed atomic backfill's staged versions, held for its retry, can be
// discarded instead: then nothing of it is kept, and its partitions count
// cancelled (a retry runs them again).
func TestFailedAtomicBackfillCanBeDiscarded(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, retainOne(dailyFiles("2024-01-03")))
	ctx := context.Background()
	st := e.backfill(BackfillSpec{Pipeline: "p", From: "2024-01-01", To: "2024-01-05", Concurrency: 1, Publish: PublishAtomic})
	if st.State != StateFailed {
		t.Fatalf("atomic backfill with day 3 failing: %s %q", st.State, st.Message)
	}
	if n := e.count(`SELECT count(*) FROM _strata.pins WHERE owner = ?`, st.ID); n != 8 {
		t.Fatalf("%d versions held for the retry, want the 4 days' 2 products", n)
	}
	n, err := e.eng.DiscardBackfill(ctx, st.ID)
	if err != nil || n != 8 {
		t.Fatalf("discard of a failed atomic backfill: %d %v", n, err)
	}
	if left := e.count(`SELECT count(*) FROM _strata.versions WHERE starts_with(run_id, ?)`, st.ID+":") + e.count(`SELECT count(*) FROM _strata.pins`); left != 0 {
		t.Fatalf("%d versions or pins left after the discard", left)
	}
	after, err := e.eng.Backfill(ctx, st.ID)
	if err != nil || after.State != StateCancelled || after.Progress.Succeeded != 0 {
		t.Fatalf("after the discard: %+v %v", after, err)
	}
	if _, err := e.eng.DiscardBackfill(ctx, e.backfill(spec("2024-01-06", "2024-01-06")).ID); err == nil || !strings.Contains(err.Error(), "nothing staged") {
		t.Fatalf("discard of a backfill that published as it ran: %v", err)
	}
}

// A conflict settled outside a resolve (the backfill's kept-aside version
// made current another way) releases what the backfill held once its
// resolve finds nothing left: the pin would have kept that version from
// retention for good.
func TestSettledConflictReleasesItsHold(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, retainOne(dailyFiles("")))
	ctx := context.Background()
	if st := e.backfill(spec("2024-01-01", "2024-01-05")); st.State != StateSucceeded {
		t.Fatalf("first pass: %s", st.Message)
	}
	st := e.launchPaused(BackfillSpec{Pipeline: "p", From: "2024-01-01", To: "2024-01-05", Concurrency: 1, Reprocess: ReprocessAll})
	e.mustSucceed(e.run("p", "2024-01-05"))
	if done := e.resumeAndWait(st.ID); done.State != StateNeedsAttention {
		t.Fatalf("backfill over newer work: %s %q", done.State, done.Message)
	}
	cs, err := e.eng.Conflicts(ctx, st.ID)
	if err != nil || len(cs) == 0 {
		t.Fatalf("conflicts %v %v", cs, err)
	}
	// Made current by the warehouse's promote, which leaves the hold (a
	// rollback cannot: the version was never current).
	for _, c := range cs {
		if err := e.wh.Promote(ctx, []warehouse.VersionRef{{Product: c.Product, Partition: c.Partition, Version: c.Version}}, ""); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := e.eng.Resolve(ctx, st.ID, false, nil); err != nil {
		t.Fatal(err)
	}
	if after, _ := e.eng.Backfill(ctx, st.ID); after.State != StateSucceeded {
		t.Fatalf("after the rollbacks and the resolve: %s %q", after.State, after.Message)
	}
	if n := e.count(`SELECT count(*) FROM _strata.pins`); n != 0 {
		t.Fatalf("%d pins left after every conflict was settled", n)
	}
}
