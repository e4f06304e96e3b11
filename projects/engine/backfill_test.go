package engine

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"
)

func spec(from, to string) BackfillSpec {
	return BackfillSpec{Pipeline: "p", From: from, To: to, Concurrency: 3}
}

// One new current version per (block, partition), weekly rollups once per
// week, and a dry run that runs nothing.
func TestBackfillRunsRangeAndRollups(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles(""))
	plan, err := e.eng.Plan(context.Background(), spec("2024-01-01", "2024-01-14"), 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	if plan.Total != 14 || plan.ToRun != 14 || len(plan.Rollups) != 2 || plan.ByState["missing"] != 14 {
		t.Fatalf("plan: total %d run %d rollups %d states %v", plan.Total, plan.ToRun, len(plan.Rollups), plan.ByState)
	}
	if n := e.count(`SELECT count(*) FROM _strata.versions`); n != 0 {
		t.Fatal("dry run wrote versions")
	}
	st := e.backfill(spec("2024-01-01", "2024-01-14"))
	if st.State != StateSucceeded || st.Progress.Succeeded != 16 {
		t.Fatalf("backfill: %s %+v %s", st.State, st.Progress, st.Message)
	}
	if n := e.count(`SELECT count(*) FROM _strata.current WHERE product = 'p__agg'`); n != 14 {
		t.Fatalf("agg partitions = %d", n)
	}
	if n := e.count(`SELECT count(*) FROM _strata.versions WHERE product = 'p__weekly'`); n != 2 {
		t.Fatalf("weekly versions = %d, want one per week", n)
	}
	// The weekly rollup read all seven days of its week.
	if n := e.count(`SELECT days FROM p__weekly WHERE week = '2024-W02'`); n != 7 {
		t.Fatalf("2024-W02 rolled up %d days", n)
	}
	// Reprocess missing: nothing left to do.
	again := e.backfill(spec("2024-01-01", "2024-01-14"))
	if again.Progress.Succeeded != 0 || again.Progress.Skipped != 16 {
		t.Fatalf("second backfill should skip everything: %+v", again.Progress)
	}
}

// Each reprocess policy targets exactly its partitions.
func TestReprocessPolicies(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles("2024-01-03"))
	first := e.backfill(spec("2024-01-01", "2024-01-05"))
	if first.State != StateFailed || first.Progress.Failed != 1 {
		t.Fatalf("want one failed partition: %+v", first.Progress)
	}
	plans := map[string]int{}
	for _, policy := range []string{ReprocessMissing, ReprocessFailed, ReprocessStale, ReprocessAll} {
		s := spec("2024-01-01", "2024-01-06")
		s.Reprocess = policy
		p, err := e.eng.Plan(context.Background(), s, 0, -1)
		if err != nil {
			t.Fatal(err)
		}
		plans[policy] = p.ToRun
	}
	// 01-06 is missing; 01-03 failed (and missing).
	if plans[ReprocessMissing] != 2 || plans[ReprocessFailed] != 2 || plans[ReprocessStale] != 2 || plans[ReprocessAll] != 6 {
		t.Fatalf("to run by policy: %v", plans)
	}
	s := spec("2024-01-01", "2024-01-05")
	s.Reprocess = ReprocessStale
	// A comment or a line break is not a code change.
	writeFiles(t, e.dir, map[string]string{"blocks/agg.sql": "-- totals per day\n" + strings.Replace(aggBlock, " FROM", "\nFROM", 1)})
	e.reload()
	p, err := e.eng.Plan(context.Background(), s, 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	if p.ByState["stale"] != 0 {
		t.Fatalf("after a comment: states %v", p.ByState)
	}
	// Change agg's code: its partitions become stale.
	writeFiles(t, e.dir, map[string]string{"blocks/agg.sql": aggBlock + " WHERE x >= 0"})
	e.reload()
	p, err = e.eng.Plan(context.Background(), s, 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	if p.ByState["stale"] != 4 || p.ToRun != 5 {
		t.Fatalf("after a code change: states %v, to run %d", p.ByState, p.ToRun)
	}
	if !strings.Contains(p.Partitions[0].Reason, "code of agg changed") {
		t.Fatalf("reason: %q", p.Partitions[0].Reason)
	}
}

// A rewritten day makes its week stale (time-window lineage).
func TestRewrittenDayMakesWeekStale(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles(""))
	e.backfill(spec("2024-01-01", "2024-01-07"))
	e.mustSucceed(e.run("p", "2024-01-03")) // rewrites the day (and reruns its week)
	// Roll the week back to the version that read the old day.
	if err := e.wh.Rollback(context.Background(), "p__weekly", "2024-W01", 1); err != nil {
		t.Fatal(err)
	}
	s := spec("2024-01-01", "2024-01-07")
	s.Reprocess = ReprocessStale
	p, err := e.eng.Plan(context.Background(), s, 0, -1)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Rollups) != 1 || p.Rollups[0].State != "stale" || !strings.Contains(p.Rollups[0].Reason, "2024-01-03") {
		t.Fatalf("week should be stale because of 2024-01-03: %+v", p.Rollups)
	}
}

// Atomic publish: a failure leaves current data exactly as it was; retry
// after a fix makes everything current in one switch.
func TestAtomicPublishAndRetry(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles("2024-01-04"))
	e.mustSucceed(e.run("p", "2024-01-02")) // existing current data
	before := e.count(`SELECT count(*) FROM _strata.current`)
	s := spec("2024-01-01", "2024-01-05")
	s.Publish, s.Reprocess = PublishAtomic, ReprocessAll
	st := e.backfill(s)
	if st.State != StateFailed || !strings.Contains(st.Message, "nothing was made current") {
		t.Fatalf("atomic backfill with a failure: %s %q", st.State, st.Message)
	}
	if after := e.count(`SELECT count(*) FROM _strata.current`); after != before {
		t.Fatalf("current pointers changed from %d to %d", before, after)
	}
	if v := e.count(`SELECT version FROM _strata.current WHERE product = 'p__agg' AND partition = '2024-01-02'`); v != 1 {
		t.Fatalf("2024-01-02 current = v%d, want the pre-backfill v1", v)
	}
	// Fix and retry: only the failed partition and the week rerun.
	writeFiles(t, e.dir, map[string]string{"pipelines/p.yaml": sprintf(dailyPipeline, "")})
	e.reload()
	if _, err := e.eng.Retry(context.Background(), st.ID, true); err != nil {
		t.Fatal(err)
	}
	st, _ = e.eng.Wait(context.Background(), st.ID)
	if st.State != StateSucceeded {
		t.Fatalf("retry: %s %q %+v", st.State, st.Message, st.Progress)
	}
	if n := e.count(`SELECT count(*) FROM _strata.current WHERE product = 'p__agg'`); n != 5 {
		t.Fatalf("after atomic promote: %d current agg partitions", n)
	}
	if v := e.count(`SELECT version FROM _strata.current WHERE product = 'p__agg' AND partition = '2024-01-02'`); v != 2 {
		t.Fatalf("2024-01-02 should now be the backfill's v2, is v%d", v)
	}
	// 2024-01-04 ran twice (fail, retry); the others once.
	if n := e.count(`SELECT count(*) FROM _strata.run_events WHERE backfill_id = ? AND block_id = '' AND state = 'running' AND partition_key = '2024-01-01'`, st.ID); n != 1 {
		t.Fatalf("retry re-ran a partition that had succeeded (%d runs)", n)
	}
}

// A week skipped because one of its days failed is rolled up by the retry
// that makes the day succeed, not left skipped.
func TestRetryRollsUpWeeksSkippedForFailedDays(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles("2024-01-03"))
	st := e.backfill(spec("2024-01-01", "2024-01-14"))
	if st.State != StateFailed {
		t.Fatalf("want a failed backfill, got %s %q", st.State, st.Message)
	}
	if n := e.count(`SELECT count(*) FROM _strata.current WHERE product = 'p__weekly'`); n != 1 {
		t.Fatalf("%d weeks current before the retry; want only 2024-W02", n)
	}
	writeFiles(t, e.dir, dailyFiles(""))
	e.reload()
	if _, err := e.eng.Retry(context.Background(), st.ID, true); err != nil {
		t.Fatal(err)
	}
	done, err := e.eng.Wait(context.Background(), st.ID)
	if err != nil || done.State != StateSucceeded {
		t.Fatalf("retry: %v %s %q", err, done.State, done.Message)
	}
	if n := e.count(`SELECT count(*) FROM _strata.current WHERE product = 'p__weekly'`); n != 2 {
		t.Fatalf("%d of 2 weeks current after the retry", n)
	}
	if n := e.count(`SELECT days FROM p__weekly WHERE week = '2024-W01'`); n != 7 {
		t.Fatalf("2024-W01 rolled up %d days, want 7", n)
	}
}

// Cancelling an atomic backfill discards what it staged and leaves current
// data as it was; a retry then runs those partitions again (their work is
// gone) and promotes everything at once.
func TestAtomicCancelThenRetry(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles(""))
	ctx := context.Background()
	s := spec("2024-01-01", "2024-01-21")
	s.Publish = PublishAtomic
	s.RatePerMin = 600
	st, err := e.eng.Launch(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		b, _ := e.eng.Backfill(ctx, st.ID)
		if b.Progress.Succeeded >= 5 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no progress: %+v", b.Progress)
		}
	}
	if err := e.eng.Cancel(ctx, st.ID); err != nil {
		t.Fatal(err)
	}
	if n := e.count(`SELECT count(*) FROM _strata.versions WHERE run_id LIKE ? || ':%'`, st.ID); n != 0 {
		t.Fatalf("%d staged versions left after the cancel", n)
	}
	if _, err := e.eng.Retry(ctx, st.ID, false); err != nil {
		t.Fatal(err)
	}
	done, err := e.eng.Wait(ctx, st.ID)
	if err != nil || done.State != StateSucceeded {
		t.Fatalf("retry after an atomic cancel: %v %s %q", err, done.State, done.Message)
	}
	if n := e.count(`SELECT count(*) FROM _strata.current WHERE product = 'p__agg'`); n != 21 {
		t.Fatalf("%d of 21 days current", n)
	}
	if n := e.count(`SELECT count(*) FROM _strata.current WHERE product = 'p__weekly'`); n != 3 {
		t.Fatalf("%d of 3 weeks current", n)
	}
}

// Cancel stops the backfill and its running kernels; pause holds new
// partitions back until resume.
func TestPauseResumeCancel(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles(""))
	s := spec("2024-01-01", "2024-03-31")
	s.RatePerMin = 600 // one partition every 100 ms
	st, err := e.eng.Launch(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	time.Sleep(300 * time.Millisecond)
	if err := e.eng.Pause(ctx, st.ID); err != nil {
		t.Fatal(err)
	}
	// Running partitions finish; after that nothing starts.
	var a *BackfillStatus
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if a, _ = e.eng.Backfill(ctx, st.ID); a.Progress.Running == 0 || time.Now().After(deadline) {
			break
		}
	}
	time.Sleep(500 * time.Millisecond)
	b, _ := e.eng.Backfill(ctx, st.ID)
	if a.State != StatePaused || b.Progress.Succeeded != a.Progress.Succeeded || b.Progress.Running != 0 {
		t.Fatalf("paused backfill kept going: %s %d -> %d (running %d)", a.State, a.Progress.Succeeded, b.Progress.Succeeded, b.Progress.Running)
	}
	if _, err := e.eng.Resume(ctx, st.ID); err != nil {
		t.Fatal(err)
	}
	var c *BackfillStatus
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if c, _ = e.eng.Backfill(ctx, st.ID); c.Progress.Succeeded > b.Progress.Succeeded || time.Now().After(deadline) {
			break
		}
	}
	if c.Progress.Succeeded <= b.Progress.Succeeded {
		t.Fatalf("resume did not continue: %d -> %d", b.Progress.Succeeded, c.Progress.Succeeded)
	}
	if err := e.eng.Cancel(ctx, st.ID); err != nil {
		t.Fatal(err)
	}
	d, _ := e.eng.Backfill(ctx, st.ID)
	if d.State != StateCancelled || d.Progress.Succeeded >= 91 {
		t.Fatalf("cancel: %s %+v", d.State, d.Progress)
	}
	// Retry after a cancel also runs the partitions the cancel stopped
	// before they started, and only then calls the backfill succeeded.
	if _, err := e.eng.Retry(ctx, st.ID, false); err != nil {
		t.Fatal(err)
	}
	f, err := e.eng.Wait(ctx, st.ID)
	if err != nil || f.State != StateSucceeded {
		t.Fatalf("retry after cancel: %v %s %q %+v", err, f.State, f.Message, f.Progress)
	}
	if n := e.count(`SELECT count(*) FROM _strata.current WHERE product = 'p__agg'`); n != 91 {
		t.Fatalf("%d of 91 days current after the retry", n)
	}
	// Weeks the cancel left skipped (some of their days were cancelled)
	// are rolled up once their days succeed: all 13 weeks of the quarter.
	if n := e.count(`SELECT count(*) FROM _strata.current WHERE product = 'p__weekly'`); n != 13 {
		t.Fatalf("%d of 13 weeks current after the retry", n)
	}
}

// Fan-out: one child per row, a failed child is isolated, the reduce is
// skipped with the reason, and siblings still ran.
func TestDynamicFanOutAndReduce(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, fanFiles(5, ""))
	res := e.run("fan", "2024-01-01")
	e.mustSucceed(res)
	total := res.Output("total")
	if total.Column("children").Int64s()[0] != 5 || total.Column("sum").Int64s()[0] != 2*(0+1+2+3+4) {
		t.Fatalf("reduce: %v", total.Row(0))
	}
	kids := 0
	for _, b := range res.Blocks {
		if b.Block == "work" && b.Child != "" {
			kids++
		}
	}
	if kids != 5 {
		t.Fatalf("children = %d", kids)
	}
	writeFiles(t, e.dir, fanFiles(5, "k2"))
	e.reload()
	res = e.run("fan", "2024-01-02")
	if res.State != StateFailed {
		t.Fatal("a failed child should fail the run")
	}
	states := map[string]State{}
	for _, b := range res.Blocks {
		states[b.Block+"["+b.Child+"]"] = b.State
	}
	if states["work[k2]"] != StateFailed || states["work[k1]"] != StateSucceeded || states["work[k4]"] != StateSucceeded {
		t.Fatalf("children states: %v", states)
	}
	if states["total[]"] != StateSkipped {
		t.Fatalf("reduce should be skipped: %v", states)
	}
}

// A retried partition re-runs only the dynamic children that failed; the
// siblings' outputs of the first attempt feed the reduce. That holds while
// the retry runs the same pipeline version: with the current code
// (--use-current-code, after the block changed) every child runs again,
// and the dry run says how many of them the change reruns.
func TestRetryRerunsOnlyFailedChildren(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, fanFiles(5, "k2"))
	ctx := context.Background()
	st := e.backfill(BackfillSpec{Pipeline: "fan", From: "2024-01-01", To: "2024-01-01"})
	if st.State != StateFailed {
		t.Fatalf("want a failed backfill, got %s", st.State)
	}
	runs := func(child string) int {
		return e.count(`SELECT count(*) FROM _strata.run_events WHERE backfill_id = ? AND block_id = 'work' AND child_key = ? AND state = 'running'`, st.ID, child)
	}
	same, err := e.eng.PlanRetry(ctx, st.ID, false)
	if err != nil || same.RerunChildren != 0 {
		t.Fatalf("retry plan of the same version: %+v %v", same, err)
	}
	if _, err := e.eng.Retry(ctx, st.ID, false); err != nil {
		t.Fatal(err)
	}
	if st, _ = e.eng.Wait(ctx, st.ID); st.State != StateFailed {
		t.Fatalf("the same version fails the same way: %s %s", st.State, st.Message)
	}
	if runs("k0") != 1 || runs("k4") != 1 || runs("k2") != 2 {
		t.Fatalf("same version: runs of k0, k4, k2 = %d, %d, %d; want 1, 1, 2", runs("k0"), runs("k4"), runs("k2"))
	}
	// The fix changes what every child computes: triple, not double.
	files := fanFiles(5, "")
	files["blocks/work/work.go"] = strings.Replace(workBlock, "*2)", "*3)", 1)
	writeFiles(t, e.dir, files)
	e.reload()
	plan, err := e.eng.PlanRetry(ctx, st.ID, true)
	if err != nil || !plan.CodeChange || plan.RerunChildren != 4 || !strings.Contains(plan.String(), "4 dynamic children") {
		t.Fatalf("retry plan with the current code: %+v %v: %s", plan, err, plan)
	}
	if _, err := e.eng.Retry(ctx, st.ID, true); err != nil {
		t.Fatal(err)
	}
	if st, _ = e.eng.Wait(ctx, st.ID); st.State != StateSucceeded {
		t.Fatalf("retry: %s %s", st.State, st.Message)
	}
	if runs("k0") != 2 || runs("k4") != 2 || runs("k2") != 3 {
		t.Fatalf("current code: runs of k0, k4, k2 = %d, %d, %d; want 2, 2, 3", runs("k0"), runs("k4"), runs("k2"))
	}
	if n := e.count(`SELECT sum FROM fan__total`); n != 3*(0+1+2+3+4) {
		t.Fatalf("reduce after retry = %d, want %d (every child by the new code)", n, 3*(0+1+2+3+4))
	}
}

// A graceful shutdown leaves a running backfill to be recovered by the next
// process, which finishes it. The first process is a real one: a warehouse is
// opened once per process, and DuckDB ties the file to the process.
func TestShutdownThenRecover(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	t.Parallel()
	e := newEnv(t, false, dailyFiles(""))
	dir := e.dir
	e.close() // the child process holds the warehouse until it shuts down
	s := spec("2024-01-01", "2024-01-20")
	s.RatePerMin = 600
	raw, _ := json.Marshal(s)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "STRATA_ENGINE_CHILD="+string(raw), "STRATA_ENGINE_DIR="+dir, "STRATA_ENGINE_SHUTDOWN_AFTER=300ms")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, stderr.String())
	}
	if stderr.Len() > 0 {
		t.Logf("child said: %s", stderr.String())
	}
	id := strings.TrimSpace(string(out))
	e = openEnv(t, dir)
	ids, err := e.eng.RecoverBackfills(context.Background())
	if err != nil || len(ids) != 1 || ids[0] != id {
		t.Fatalf("recovered %v, %v; want [%s]", ids, err, id)
	}
	done, err := e.eng.Wait(context.Background(), id)
	if err != nil || done.State != StateSucceeded {
		t.Fatalf("recovered backfill: %v %s %q", err, done.State, done.Message)
	}
	if n := e.count(`SELECT count(*) FROM _strata.current WHERE product = 'p__agg'`); n != 20 {
		t.Fatalf("%d of 20 partitions current", n)
	}
	// Only the partitions in flight at the stop (at most the concurrency)
	// were started twice; finished ones were not run again.
	if n := e.count(`SELECT count(*) FROM (SELECT run_id FROM _strata.run_events WHERE backfill_id = ? AND block_id = ''
		AND state = 'running' GROUP BY run_id HAVING count(*) > 1)`, id); n > s.Concurrency {
		t.Fatalf("%d partitions started twice; at most %d were in flight", n, s.Concurrency)
	}
}

// A backfill never targets partitions that have not started.
func TestBackfillRefusesFuturePartitions(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles(""))
	_, err := e.eng.Plan(context.Background(), spec("2024-01-01", "2099-01-02"), 0, 10)
	if err == nil || !strings.Contains(err.Error(), "to: partition 2099-01-02 has not started yet (the current partition is ") {
		t.Fatalf("plan into the future: %v", err)
	}
	if _, err := e.eng.Launch(context.Background(), spec("2099-01-01", "2099-01-02")); err == nil {
		t.Fatal("launched a backfill into the future")
	}
}

// A rewrite pass drops a version of every partition it replaces; when the
// backfill has ended, their rows are gone from the storage tables too, not
// only from the catalog (the warehouse deletes them in batches).
func TestRewriteBackfillLeavesNoDroppedRows(t *testing.T) {
	t.Parallel()
	files := dailyFiles("")
	files["strata.yaml"] = "name: rewrite\nretention: 1\n"
	e := newEnv(t, false, files)
	s := BackfillSpec{Pipeline: "p", From: "2024-01-01", To: "2024-01-10", Concurrency: 2}
	for _, reprocess := range []string{ReprocessMissing, ReprocessAll, ReprocessAll} {
		s.Reprocess = reprocess
		if st := e.backfill(s); st.State != StateSucceeded {
			t.Fatalf("%s pass: %s %q", reprocess, st.State, st.Message)
		}
		if n := e.wh.Orphans(); n != 0 {
			t.Fatalf("%s pass ended with the rows of %d dropped versions still stored", reprocess, n)
		}
	}
}

// While a backfill runs, DuckDB gives each statement the cores divided by
// the backfill's concurrency (many small statements at once gain nothing
// from parallelism inside each); after it ends, DuckDB's default again.
func TestBackfillSharesTheCores(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	e := newEnv(t, false, dailyFiles(""))
	def, err := e.wh.Threads(ctx)
	if err != nil {
		t.Fatal(err)
	}
	s := spec("2024-01-01", "2024-03-31")
	s.Concurrency, s.RatePerMin = 2, 600
	st, err := e.eng.Launch(ctx, s)
	if err != nil {
		t.Fatal(err)
	}
	if err := e.eng.Pause(ctx, st.ID); err != nil {
		t.Fatal(err)
	}
	if got, want := mustThreads(t, e), max(1, runtime.NumCPU()/2); got != want {
		t.Fatalf("during a backfill of concurrency 2: %d threads, want %d", got, want)
	}
	if err := e.eng.Cancel(ctx, st.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := e.eng.Wait(ctx, st.ID); err != nil {
		t.Fatal(err)
	}
	if got := mustThreads(t, e); got != def {
		t.Fatalf("after the backfill: %d threads, want DuckDB's default %d", got, def)
	}
}

func mustThreads(t *testing.T, e *env) int {
	t.Helper()
	n, err := e.wh.Threads(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// A rewrite backfill leaves each partition's retention to its end
// (warehouse/retention_late.go); when it reports its end, the catalog
// holds what retention keeps, nothing waits, and no dropped row is left.
func TestRewriteBackfillEndsAtRetention(t *testing.T) {
	t.Parallel()
	files := dailyFiles("")
	files["strata.yaml"] = "name: late\nretention: 2\n"
	e := newEnv(t, false, files)
	s := spec("2024-01-01", "2024-01-10")
	for pass := range 3 {
		if pass > 0 {
			s.Reprocess = ReprocessAll
		}
		if st := e.backfill(s); st.State != StateSucceeded {
			t.Fatalf("pass %d: %s %s", pass, st.State, st.Message)
		}
	}
	if n := e.count(`SELECT count(*) FROM (SELECT product, partition FROM _strata.versions GROUP BY ALL HAVING count(*) <> 2)`); n != 0 {
		t.Fatalf("%d partitions hold other than the 2 versions retention keeps after three passes", n)
	}
	if n := e.wh.LateRetentions() + e.wh.Orphans(); n != 0 {
		t.Fatalf("%d retentions or orphaned versions still wait after the backfill ended", n)
	}
}
