package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/stratahq/strata/projects/warehouse"
)

// newerWork backfills days 1..5, then launches a reprocess-all backfill over
// them, paused, and publishes newer work on day 5 through a plain run.
func newerWork(t *testing.T, publish string) (*env, *BackfillStatus) {
	t.Helper()
	e := newEnv(t, false, dailyFiles(""))
	if st := e.backfill(spec("2024-01-01", "2024-01-05")); st.State != StateSucceeded {
		t.Fatalf("first pass: %s", st.Message)
	}
	s := BackfillSpec{Pipeline: "p", From: "2024-01-01", To: "2024-01-05", Concurrency: 1, Reprocess: ReprocessAll, Publish: publish}
	st := e.launchPaused(s)
	e.mustSucceed(e.run("p", "2024-01-05")) // v2 of day 5: newer than what the backfill planned against
	return e, st
}

func current(e *env, product, partition string) int {
	return e.count(`SELECT coalesce(max(version), 0) FROM _strata.current WHERE product = ? AND partition = ?`, product, partition)
}

// In partition mode, a partition whose current version changed since the
// backfill planned it is not overwritten: the backfill's version is kept
// aside, listed with both versions, and the backfill needs attention; the
// user promotes it anyway.
func TestPartitionPublishNeverOverwritesNewerWork(t *testing.T) {
	t.Parallel()
	e, st := newerWork(t, PublishPartition)
	done := e.resumeAndWait(st.ID)
	if done.State != StateNeedsAttention || !strings.Contains(done.Message, "promote-anyway") || !strings.Contains(done.Message, "keep-newer") {
		t.Fatalf("backfill over newer work: %s %q", done.State, done.Message)
	}
	if v := current(e, "p__agg", "2024-01-05"); v != 2 {
		t.Fatalf("day 5 current v%d, want the newer v2", v)
	}
	// The plain run published day 5 and its week: both are newer work.
	if done.Progress.Conflicts != 2 || done.Progress.Succeeded != 4 || len(done.Conflicts) != 3 {
		t.Fatalf("progress %+v, conflicts %+v", done.Progress, done.Conflicts)
	}
	c := done.Conflicts[0]
	if c.Partition != "2024-01-05" || c.Version != 3 || c.BasedOn != 1 || c.Current != 2 {
		t.Fatalf("conflict %+v: want version 3 planned against v1, v2 current", c)
	}
	if n, err := e.eng.Resolve(context.Background(), st.ID, false, nil); err != nil || n != 2 {
		t.Fatalf("promote anyway: %d %v", n, err)
	}
	if v := current(e, "p__agg", "2024-01-05"); v != 3 {
		t.Fatalf("after promote-anyway day 5 is v%d", v)
	}
	after, _ := e.eng.Backfill(context.Background(), st.ID)
	if after.State != StateSucceeded || after.Progress.Conflicts != 0 || after.Progress.Succeeded != 6 {
		t.Fatalf("after resolving: %s %+v", after.State, after.Progress)
	}
}

// An atomic backfill's promote is a compare-and-set too: the partition that
// changed stays as it is, and nothing else is promoted until the conflicts
// are settled (the rest used to be, leaving days and weeks of two
// computations mixed, while the README promised nothing current until
// every partition succeeded); keep-newer discards the backfill's version,
// and settling the last conflict promotes the rest in one transaction.
func TestAtomicPromoteNeverOverwritesNewerWork(t *testing.T) {
	t.Parallel()
	e, st := newerWork(t, PublishAtomic)
	done := e.resumeAndWait(st.ID)
	if done.State != StateNeedsAttention || !strings.Contains(done.Message, "nothing was made current") {
		t.Fatalf("atomic backfill over newer work: %s %q", done.State, done.Message)
	}
	if v := current(e, "p__agg", "2024-01-05"); v != 2 {
		t.Fatalf("day 5 current v%d after the promote, want the newer v2", v)
	}
	if v := current(e, "p__agg", "2024-01-04"); v != 1 {
		t.Fatalf("day 4 current v%d while a conflict is unsettled, want v1: an atomic backfill makes nothing current until then", v)
	}
	if _, err := e.eng.Resolve(context.Background(), st.ID, false, []string{"2024-01-05"}); err == nil || !strings.Contains(err.Error(), "conflicts at once") {
		t.Fatalf("promote-anyway of a part of an atomic backfill's conflicts: %v", err)
	}
	if _, err := e.eng.Resolve(context.Background(), st.ID, true, []string{"2024-01-06"}); err == nil || !strings.Contains(err.Error(), "2024-01-05") {
		t.Fatalf("resolving a partition without conflict: %v", err)
	}
	if n, err := e.eng.Resolve(context.Background(), st.ID, true, []string{"2024-01-05"}); err != nil || n != 1 {
		t.Fatalf("keep newer: %d %v", n, err)
	}
	if v := current(e, "p__agg", "2024-01-05"); v != 2 {
		t.Fatalf("after keep-newer day 5 is v%d", v)
	}
	if n := e.count(`SELECT count(*) FROM _strata.versions WHERE product = 'p__agg' AND partition = '2024-01-05' AND version = 3`); n != 0 {
		t.Fatal("keep-newer left the backfill's version")
	}
	mid, _ := e.eng.Backfill(context.Background(), st.ID)
	if mid.State != StateNeedsAttention || mid.Progress.Conflicts != 1 {
		t.Fatalf("the week is still a conflict: %s %+v", mid.State, mid.Progress)
	}
	if v := current(e, "p__agg", "2024-01-04"); v != 1 {
		t.Fatalf("day 4 current v%d with the week's conflict unsettled, want v1", v)
	}
	if _, err := e.eng.Resolve(context.Background(), st.ID, true, nil); err != nil {
		t.Fatal(err)
	}
	if v := current(e, "p__agg", "2024-01-04"); v != 2 {
		t.Fatalf("day 4 current v%d once every conflict is settled, want the backfill's v2", v)
	}
	after, _ := e.eng.Backfill(context.Background(), st.ID)
	if after.State != StateSucceeded || after.Progress.Skipped != 2 || after.Progress.Succeeded != 4 {
		t.Fatalf("after keep-newer: %s %+v", after.State, after.Progress)
	}
}

// Newer work published while the backfill was stopped is a conflict too,
// though the backfill reads the state afresh when it resumes.
func TestNewerWorkWhileStoppedIsAConflict(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles(""))
	if st := e.backfill(spec("2024-01-01", "2024-01-05")); st.State != StateSucceeded {
		t.Fatal(st.Message)
	}
	st := e.launchPaused(BackfillSpec{Pipeline: "p", From: "2024-01-01", To: "2024-01-05", Concurrency: 1, Reprocess: ReprocessAll})
	dir := e.dir
	e.close()
	e = openEnv(t, dir)
	e.mustSucceed(e.run("p", "2024-01-05"))
	done := e.resumeAndWait(st.ID)
	if done.State != StateNeedsAttention || current(e, "p__agg", "2024-01-05") != 2 {
		t.Fatalf("resumed over newer work: %s %q, day 5 v%d", done.State, done.Message, current(e, "p__agg", "2024-01-05"))
	}
}

// A crash between a partition's publish and its succeeded event: the resume
// counts the partition succeeded (its own output), not "skipped: current".
func TestResumeAfterPublishCountsSucceeded(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles(""))
	st := e.backfill(spec("2024-01-01", "2024-01-03"))
	if st.State != StateSucceeded {
		t.Fatal(st.Message)
	}
	run := runIDFor(st.ID, "2024-01-02")
	// What a kill -9 right after the publish leaves: the version, no final event.
	if _, err := e.wh.DB().Exec(`DELETE FROM _strata.run_events WHERE run_id = ? AND block_id = '' AND state = 'succeeded'`, run); err != nil {
		t.Fatal(err)
	}
	if err := e.eng.backfillEvent(context.Background(), st.ID, StateRunning, "interrupted"); err != nil {
		t.Fatal(err)
	}
	versions := e.count(`SELECT count(*) FROM _strata.versions`)
	done := e.resumeAndWait(st.ID)
	if done.State != StateSucceeded || done.Progress.Succeeded != 4 || done.Progress.Skipped != 0 {
		t.Fatalf("resume: %s %+v", done.State, done.Progress)
	}
	if n := e.count(`SELECT count(*) FROM _strata.versions`); n != versions {
		t.Fatalf("the resume published again: %d versions, had %d", n, versions)
	}
}

// A user cancel counts the partitions it kept from starting as cancelled;
// resume then finishes the backfill.
func TestCancelCountsNeverStartedAsCancelled(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles(""))
	st := e.launchPaused(BackfillSpec{Pipeline: "p", From: "2024-01-01", To: "2024-01-14", Concurrency: 1})
	if err := e.eng.Cancel(context.Background(), st.ID); err != nil {
		t.Fatal(err)
	}
	got, _ := e.eng.Backfill(context.Background(), st.ID)
	p := got.Progress
	if got.State != StateCancelled || p.Succeeded+p.Skipped+p.Failed+p.Cancelled != got.Total || p.Cancelled == 0 {
		t.Fatalf("cancelled: %s total %d %+v %q", got.State, got.Total, p, got.Message)
	}
	_, queued, _ := e.eng.BackfillPartitions(context.Background(), st.ID, "queued", 0, -1)
	_, cancelled, _ := e.eng.BackfillPartitions(context.Background(), st.ID, "cancelled", 0, -1)
	if queued != 0 || cancelled != p.Cancelled {
		t.Fatalf("grid: %d queued, %d cancelled; status says %d cancelled", queued, cancelled, p.Cancelled)
	}
	done := e.resumeAndWait(st.ID)
	if done.State != StateSucceeded || done.Progress.Succeeded != 16 {
		t.Fatalf("resume after cancel: %s %+v", done.State, done.Progress)
	}
}

// A day that was missing when the backfill was launched and that another run
// published while the backfill was stopped, before it had reached the day:
// the backfill planned to write it over no version, so on resume it is a
// conflict listed with both versions, as a compare-and-set at publish time
// would make it, not "skipped: current v1".
func TestNewerWorkOnAnUnstartedDayIsAConflict(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles(""))
	st := e.launchPaused(BackfillSpec{Pipeline: "p", From: "2024-01-01", To: "2024-01-05", Concurrency: 1})
	dir := e.dir
	e.close()
	e = openEnv(t, dir)
	e.mustSucceed(e.run("p", "2024-01-05")) // v1 of day 5 and of its week, by another run
	done := e.resumeAndWait(st.ID)
	if done.State != StateNeedsAttention || !strings.Contains(done.Message, "keep-newer") {
		t.Fatalf("resumed over newer work on a day it had not started: %s %q %+v", done.State, done.Message, done.Progress)
	}
	if v := current(e, "p__agg", "2024-01-05"); v != 1 {
		t.Fatalf("day 5 current v%d, want the other run's v1", v)
	}
	if done.Progress.Conflicts != 2 || done.Progress.Succeeded != 4 || done.Progress.Skipped != 0 {
		t.Fatalf("progress %+v, want day 5 and its week in conflict, 4 days succeeded", done.Progress)
	}
	var day *BackfillConflict
	for i, c := range done.Conflicts {
		if c.Partition == "2024-01-05" && c.Product == "p__agg" {
			day = &done.Conflicts[i]
		}
	}
	if day == nil || day.Version != 2 || day.BasedOn != 0 || day.Current != 1 {
		t.Fatalf("conflicts %+v: want p__agg 2024-01-05 v2 planned against no version, v1 current", done.Conflicts)
	}
	if n, err := e.eng.Resolve(context.Background(), st.ID, true, nil); err != nil || n != 2 {
		t.Fatalf("keep newer: %d %v", n, err)
	}
	if after, _ := e.eng.Backfill(context.Background(), st.ID); after.State != StateSucceeded {
		t.Fatalf("after keep-newer: %s %+v", after.State, after.Progress)
	}
}

// A day that was current when the backfill was launched (reprocess missing
// plans to skip it) stays skipped when another run publishes a newer
// version while the backfill is stopped: the backfill never meant to write
// it. Its week, which the backfill planned to roll up again over v1, is a
// conflict with the other run's v2.
func TestNewerWorkOnAPlannedSkipStaysSkipped(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles(""))
	e.mustSucceed(e.run("p", "2024-01-05"))
	st := e.launchPaused(BackfillSpec{Pipeline: "p", From: "2024-01-01", To: "2024-01-05", Concurrency: 1})
	dir := e.dir
	e.close()
	e = openEnv(t, dir)
	e.mustSucceed(e.run("p", "2024-01-05")) // v2 by another run, while stopped
	done := e.resumeAndWait(st.ID)
	if done.State != StateNeedsAttention || done.Progress.Skipped != 1 || done.Progress.Conflicts != 1 || done.Progress.Succeeded != 4 {
		t.Fatalf("a planned skip: %s %q %+v", done.State, done.Message, done.Progress)
	}
	if v := current(e, "p__agg", "2024-01-05"); v != 2 {
		t.Fatalf("day 5 current v%d, want v2", v)
	}
	if len(done.Conflicts) != 1 || done.Conflicts[0].Product != "p__weekly" || done.Conflicts[0].BasedOn != 1 || done.Conflicts[0].Current != 2 {
		t.Fatalf("conflicts %+v: want only the week, planned against v1, v2 current", done.Conflicts)
	}
}

// A kill -9 between a partition's publish and its succeeded event, then
// another run publishes the same day while the backfill is stopped: the
// backfill's own publish had committed and was current, so the partition
// counts succeeded; the newer work came after it, as it would have if the
// event had been written.
func TestOwnPublishSupersededWhileStoppedCountsSucceeded(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles(""))
	st := e.backfill(spec("2024-01-01", "2024-01-03"))
	if st.State != StateSucceeded {
		t.Fatal(st.Message)
	}
	run := runIDFor(st.ID, "2024-01-02")
	if _, err := e.wh.DB().Exec(`DELETE FROM _strata.run_events WHERE run_id = ? AND block_id = '' AND state = 'succeeded'`, run); err != nil {
		t.Fatal(err)
	}
	if err := e.eng.backfillEvent(context.Background(), st.ID, StateRunning, "interrupted"); err != nil {
		t.Fatal(err)
	}
	e.mustSucceed(e.run("p", "2024-01-02")) // newer work over the backfill's own v1
	done := e.resumeAndWait(st.ID)
	if done.State != StateSucceeded || done.Progress.Succeeded != 4 || done.Progress.Conflicts != 0 {
		t.Fatalf("resume: %s %q %+v", done.State, done.Message, done.Progress)
	}
	if v := current(e, "p__agg", "2024-01-02"); v != 2 {
		t.Fatalf("day 2 current v%d, want the newer v2", v)
	}
}

// A kill -9 between a resolve's transaction and its events leaves runs in
// conflict whose versions were already promoted (or discarded): the next
// resolve settles them as what the transaction did, rather than answering
// "no conflicts to resolve" to a backfill that needs attention forever.
func TestResolveInterruptedByACrashIsSettled(t *testing.T) {
	t.Parallel()
	for _, keepNewer := range []bool{false, true} {
		e, st := newerWork(t, PublishPartition)
		ctx := context.Background()
		done := e.resumeAndWait(st.ID)
		if done.State != StateNeedsAttention {
			t.Fatalf("%s %s", done.State, done.Message)
		}
		cs, err := e.eng.Conflicts(ctx, st.ID)
		if err != nil || len(cs) == 0 {
			t.Fatalf("conflicts %v %v", cs, err)
		}
		refs := make([]warehouse.VersionRef, len(cs))
		for i, c := range cs {
			refs[i] = warehouse.VersionRef{Product: c.Product, Partition: c.Partition, Version: c.Version}
		}
		// What the crash left: the transaction, not the events.
		if keepNewer {
			err = e.wh.Discard(ctx, refs)
		} else {
			err = e.wh.Promote(ctx, refs, st.ID)
		}
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.eng.Resolve(ctx, st.ID, keepNewer, nil); err != nil {
			t.Fatalf("resolve after the crash (keep newer %v): %v", keepNewer, err)
		}
		after, _ := e.eng.Backfill(ctx, st.ID)
		want := Progress{Succeeded: 6}
		if keepNewer {
			want = Progress{Succeeded: 4, Skipped: 2}
		}
		if after.State != StateSucceeded || after.Progress.Succeeded != want.Succeeded || after.Progress.Skipped != want.Skipped || after.Progress.Conflicts != 0 {
			t.Fatalf("keep newer %v: %s %+v", keepNewer, after.State, after.Progress)
		}
	}
}

// The other side of the rule above: a version the compare-and-set kept
// aside (newer work was current when it published), then a kill -9 before
// its conflict event, then yet another run publishing while the backfill is
// stopped. The backfill's version was never current: a conflict still, not
// "superseded".
func TestKeptAsideThenSupersededStaysAConflict(t *testing.T) {
	t.Parallel()
	e, st := newerWork(t, PublishPartition)
	ctx := context.Background()
	if done := e.resumeAndWait(st.ID); done.State != StateNeedsAttention {
		t.Fatalf("%s %s", done.State, done.Message)
	}
	run := runIDFor(st.ID, "2024-01-05")
	if _, err := e.wh.DB().Exec(`DELETE FROM _strata.run_events WHERE run_id = ? AND block_id = '' AND state = 'conflict'`, run); err != nil {
		t.Fatal(err)
	}
	if err := e.eng.backfillEvent(ctx, st.ID, StateRunning, "interrupted"); err != nil {
		t.Fatal(err)
	}
	e.mustSucceed(e.run("p", "2024-01-05")) // v4, over the other run's v2; the backfill's v3 stays aside
	done := e.resumeAndWait(st.ID)
	if done.State != StateNeedsAttention || done.Progress.Conflicts != 2 {
		t.Fatalf("resume: %s %q %+v", done.State, done.Message, done.Progress)
	}
}

// A resolve of some conflicts says how many are left: the message the
// backfill ended with still said "2 partitions were not made current"
// once one was settled.
func TestPartialResolveSaysWhatIsLeft(t *testing.T) {
	t.Parallel()
	e, st := newerWork(t, PublishPartition)
	if done := e.resumeAndWait(st.ID); done.State != StateNeedsAttention || !strings.Contains(done.Message, "2 partitions were not made current") {
		t.Fatalf("backfill over newer work: %s %q", done.State, done.Message)
	}
	if _, err := e.eng.Resolve(context.Background(), st.ID, true, []string{"2024-01-05"}); err != nil {
		t.Fatal(err)
	}
	mid, err := e.eng.Backfill(context.Background(), st.ID)
	if err != nil {
		t.Fatal(err)
	}
	if mid.State != StateNeedsAttention || mid.Progress.Conflicts != 1 || !strings.Contains(mid.Message, "1 partitions were not made current") ||
		!strings.Contains(mid.Message, "promote-anyway") {
		t.Fatalf("after keeping day 5's newer work: %s %q %+v", mid.State, mid.Message, mid.Progress)
	}
}
