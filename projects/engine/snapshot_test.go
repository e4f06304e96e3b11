package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A pipeline whose SQL block says which code computed it.
func versionedFiles(code string) map[string]string {
	files := dailyFiles("")
	files["blocks/agg.sql"] = `SELECT count(*) AS n, ` + code + ` AS code, $partition_key AS day FROM src`
	return files
}

// launchPaused starts a backfill and pauses it at once, so that a test can
// change the files while partitions are still to come.
func (e *env) launchPaused(s BackfillSpec) *BackfillStatus {
	e.t.Helper()
	st, err := e.eng.Launch(context.Background(), s)
	if err != nil {
		e.t.Fatalf("launch: %v", err)
	}
	if err := e.eng.Pause(context.Background(), st.ID); err != nil {
		e.t.Fatalf("pause: %v", err)
	}
	return st
}

func (e *env) resumeAndWait(id string) *BackfillStatus {
	e.t.Helper()
	if _, err := e.eng.Resume(context.Background(), id); err != nil {
		e.t.Fatalf("resume: %v", err)
	}
	st, err := e.eng.Wait(context.Background(), id)
	if err != nil {
		e.t.Fatal(err)
	}
	return st
}

// Editing a block mid-backfill does not reach the backfill: an atomic
// backfill promotes one code version, the one it launched with, and says
// so; the status says the files have changed since.
func TestBackfillRunsTheCodeItLaunchedWith(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, versionedFiles("1"))
	s := BackfillSpec{Pipeline: "p", From: "2024-01-01", To: "2024-01-20", Concurrency: 1, Publish: PublishAtomic}
	plan, err := e.eng.Plan(context.Background(), s, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	st := e.launchPaused(s)
	if st.Snapshot == "" || st.Snapshot != plan.Snapshot {
		t.Fatalf("launched pipeline version %q, the plan showed %q", st.Snapshot, plan.Snapshot)
	}
	writeFiles(t, e.dir, versionedFiles("2"))
	e.reload()
	mid, err := e.eng.Backfill(context.Background(), st.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !mid.FilesChanged || mid.Snapshot != st.Snapshot || mid.CurrentSnapshot == st.Snapshot {
		t.Fatalf("after an edit: version %s, current %s, files changed %v", mid.Snapshot, mid.CurrentSnapshot, mid.FilesChanged)
	}
	done := e.resumeAndWait(st.ID)
	if done.State != StateSucceeded {
		t.Fatalf("backfill: %s %q", done.State, done.Message)
	}
	if n := e.count(`SELECT count(*) FROM p__agg WHERE code <> 1`); n != 0 {
		t.Fatalf("%d of 20 partitions were computed by the code edited mid-backfill", n)
	}
	if n := e.count(`SELECT count(DISTINCT snapshot) FROM _strata.versions WHERE snapshot = ?`, st.Snapshot); n != 1 {
		t.Fatal("versions do not record the backfill's pipeline version")
	}
	if n := e.count(`SELECT count(*) FROM _strata.versions WHERE snapshot <> ?`, st.Snapshot); n != 0 {
		t.Fatalf("%d versions record another pipeline version than the backfill's", n)
	}
	// The next run takes the edit.
	res := e.run("p", "2024-01-21")
	e.mustSucceed(res)
	if res.Snapshot == st.Snapshot || e.count(`SELECT code FROM p__agg WHERE day = '2024-01-21'`) != 2 {
		t.Fatal("a run after the edit did not run the edited code")
	}
}

// Removing a block mid-backfill: the backfill still runs it (its version
// has it), and the accounting adds up.
func TestBackfillKeepsItsBlocksWhenThePipelineChanges(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles(""))
	st := e.launchPaused(BackfillSpec{Pipeline: "p", From: "2024-01-01", To: "2024-01-14", Concurrency: 1})
	noWeekly := strings.Replace(sprintf(dailyPipeline, ""), "  - id: weekly\n    upstream: [agg]\n    partitions: {interval: week}\n", "", 1)
	writeFiles(t, e.dir, map[string]string{"pipelines/p.yaml": noWeekly})
	e.reload()
	if pl, _ := e.eng.Pipeline("p"); pl == nil || pl.Block("weekly") != nil {
		t.Fatal("the edit did not remove the weekly block")
	}
	done := e.resumeAndWait(st.ID)
	p := done.Progress
	if done.State != StateSucceeded || done.Total != 16 || p.Done != 16 || p.Succeeded != 16 {
		t.Fatalf("backfill: %s total %d, progress %+v %q", done.State, done.Total, p, done.Message)
	}
	if n := e.count(`SELECT count(*) FROM _strata.current WHERE product = 'p__weekly'`); n != 2 {
		t.Fatalf("%d of 2 weeks rolled up", n)
	}
	ps, n, err := e.eng.BackfillPartitions(context.Background(), st.ID, "", 0, -1)
	if err != nil || n != 16 || len(ps) != 16 {
		t.Fatalf("grid: %d partitions (%v)", n, err)
	}
}

// A backfill interrupted by a shutdown resumes in a new process with the
// code it launched with, though the files changed in between.
func TestBackfillResumesItsVersionAfterRestart(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, versionedFiles("1"))
	st, err := e.eng.Launch(context.Background(), BackfillSpec{Pipeline: "p", From: "2024-01-01", To: "2024-01-10", Concurrency: 1, RatePerMin: 600})
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if e.count(`SELECT count(*) FROM _strata.versions WHERE product = 'p__agg'`) > 0 {
			break
		}
	}
	dir := e.dir
	e.close()
	writeFiles(t, dir, versionedFiles("2"))
	e = openEnv(t, dir)
	if ids, err := e.eng.RecoverBackfills(context.Background()); err != nil || len(ids) != 1 {
		t.Fatalf("recover: %v %v", ids, err)
	}
	done, err := e.eng.Wait(context.Background(), st.ID)
	if err != nil || done.State != StateSucceeded {
		t.Fatalf("resumed backfill: %v %+v", err, done)
	}
	if n := e.count(`SELECT count(*) FROM p__agg WHERE code <> 1`); n != 0 {
		t.Fatalf("%d partitions were computed after the restart by the changed files", n)
	}
}

// A variable a block reads is part of what staleness compares: after
// fail_on changes, the Go block that reads it is stale; SQL blocks are not.
func TestVariableChangeMakesReadersStale(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles(""))
	if st := e.backfill(spec("2024-01-01", "2024-01-07")); st.State != StateSucceeded {
		t.Fatalf("backfill: %s", st.Message)
	}
	writeFiles(t, e.dir, map[string]string{"pipelines/p.yaml": sprintf(dailyPipeline, "2030-01-01")})
	e.reload()
	s := spec("2024-01-01", "2024-01-07")
	s.Reprocess = ReprocessStale
	plan, err := e.eng.Plan(context.Background(), s, 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	if plan.ByState["stale"] != 7 || plan.ToRun != 7 {
		t.Fatalf("after a variable change: %v, %d to run", plan.ByState, plan.ToRun)
	}
	// Only src reads the variable, so the reason is src's; agg is
	// rewritten because it reads src (plan.go's changes).
	p0 := plan.Partitions[0]
	if got := p0.Products; got["p__src"] != "stale v1" || got["p__agg"] != "stale v1" || !strings.Contains(p0.Reason, "fail_on") {
		t.Fatalf("products of %s: %v, reason %q", p0.Key, got, p0.Reason)
	}
}

// A retry reruns the backfill's own version unless told to take the
// current code; its dry run shows that change.
func TestRetryWithCurrentCode(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles("2024-01-03"))
	st := e.backfill(spec("2024-01-01", "2024-01-05"))
	if st.State != StateFailed {
		t.Fatalf("want a failure: %s", st.State)
	}
	writeFiles(t, e.dir, dailyFiles(""))
	e.reload()
	ctx := context.Background()
	// Day 3, and its week, skipped for it, which the retry decides again
	// and runs.
	same, err := e.eng.PlanRetry(ctx, st.ID, false)
	if err != nil || same.CodeChange || same.Snapshot != st.Snapshot || same.ToRun != 2 || same.ByState["skipped rollup"] != 1 {
		t.Fatalf("retry plan: %+v %v", same, err)
	}
	if _, err := e.eng.Retry(ctx, st.ID, false); err != nil {
		t.Fatal(err)
	}
	again, _ := e.eng.Wait(ctx, st.ID)
	if again.State != StateFailed {
		t.Fatalf("a retry of the same version fails the same way; got %s", again.State)
	}
	changed, err := e.eng.PlanRetry(ctx, st.ID, true)
	if err != nil || !changed.CodeChange || changed.Was != st.Snapshot || changed.Snapshot == st.Snapshot {
		t.Fatalf("retry plan with the current code: %+v %v", changed, err)
	}
	if !strings.Contains(changed.String(), "CHANGE") {
		t.Fatalf("the dry run does not show the change: %s", changed)
	}
	before := e.count(`SELECT max(seq) FROM _strata.run_events`)
	if _, err := e.eng.Retry(ctx, st.ID, true); err != nil {
		t.Fatal(err)
	}
	fixed, _ := e.eng.Wait(ctx, st.ID)
	if fixed.State != StateSucceeded || fixed.Snapshot != changed.Snapshot || fixed.FilesChanged {
		t.Fatalf("retry with the current code: %s %q version %s", fixed.State, fixed.Message, fixed.Snapshot)
	}
	if ran := e.count(`SELECT count(DISTINCT run_id) FROM _strata.run_events WHERE backfill_id = ? AND block_id = '' AND state = 'running' AND seq > ?`,
		st.ID, before); ran != changed.ToRun {
		t.Fatalf("the retry ran %d partitions, its dry run said %d", ran, changed.ToRun)
	}
}

// A retry with the current code and nothing to rerun is refused rather
// than relabelling the backfill with a pipeline version that computed none
// of its versions. Conflicts are not retried (they are
// resolved), so the dry run does not count them to run.
func TestRetryWithNothingToRunKeepsTheVersion(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles(""))
	ctx := context.Background()
	st := e.backfill(spec("2024-01-01", "2024-01-03"))
	if st.State != StateSucceeded {
		t.Fatal(st.Message)
	}
	files := dailyFiles("")
	files["blocks/agg.sql"] = "-- changed\n" + aggBlock
	writeFiles(t, e.dir, files)
	e.reload()
	if rp, err := e.eng.PlanRetry(ctx, st.ID, true); err != nil || rp.ToRun != 0 {
		t.Fatalf("retry plan of a succeeded backfill: %+v %v", rp, err)
	}
	if _, err := e.eng.Retry(ctx, st.ID, true); err == nil || !strings.Contains(err.Error(), "nothing to retry") {
		t.Fatalf("retry of a succeeded backfill with the current code: %v", err)
	}
	after, _ := e.eng.Backfill(ctx, st.ID)
	if after.Snapshot != st.Snapshot || after.State != StateSucceeded {
		t.Fatalf("the retry relabelled the backfill: version %s (was %s), %s", after.Snapshot, st.Snapshot, after.State)
	}
	if n := e.count(`SELECT count(*) FROM _strata.versions WHERE starts_with(run_id, ?) AND snapshot <> ?`, st.ID+":", after.Snapshot); n != 0 {
		t.Fatalf("%d versions of the backfill do not record the version it says it ran", n)
	}
}

func TestRetryPlanDoesNotCountConflicts(t *testing.T) {
	t.Parallel()
	e, st := newerWork(t, PublishPartition)
	done := e.resumeAndWait(st.ID)
	if done.State != StateNeedsAttention {
		t.Fatalf("%s %s", done.State, done.Message)
	}
	rp, err := e.eng.PlanRetry(context.Background(), st.ID, false)
	if err != nil || rp.ToRun != 0 || rp.ByState["conflict"] != 0 {
		t.Fatalf("retry plan of a backfill with only conflicts left: %+v %v", rp, err)
	}
}

// Renaming (or deleting) the pipeline file while a backfill runs its
// version is a change of the files too: the status says so.
func TestStatusSaysFilesChangedWhenThePipelineIsGone(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles(""))
	st := e.launchPaused(BackfillSpec{Pipeline: "p", From: "2024-01-01", To: "2024-01-05", Concurrency: 1})
	if err := os.Rename(filepath.Join(e.dir, "pipelines", "p.yaml"), filepath.Join(e.dir, "pipelines", "q.yaml")); err != nil {
		t.Fatal(err)
	}
	e.reload()
	got, err := e.eng.Backfill(context.Background(), st.ID)
	if err != nil || !got.FilesChanged || got.Snapshot != st.Snapshot {
		t.Fatalf("status after the pipeline file was renamed: files changed %v, version %s (%v)", got.FilesChanged, got.Snapshot, err)
	}
	if done := e.resumeAndWait(st.ID); done.State != StateSucceeded {
		t.Fatalf("the backfill runs its own version to the end: %s %s", done.State, done.Message)
	}
}
