package engine

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/kernel/supervisor"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/warehouse"
)

// A backfill a kill -9 stopped is "running" in the log. Read with no
// process holding the project (strata backfill status/list), nothing runs
// it: the status says it was interrupted and how to continue it, rather
// than "running" with nothing running.
func TestStatusSaysAKilledBackfillIsInterrupted(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles(""))
	ctx := context.Background()
	st := e.backfill(spec("2024-01-01", "2024-01-03"))
	if st.State != StateSucceeded {
		t.Fatal(st.Message)
	}
	// What a kill -9 in a later pass leaves: its last state, running.
	if err := e.eng.backfillEvent(ctx, st.ID, StateRunning, "retrying"); err != nil {
		t.Fatal(err)
	}
	if live, err := e.eng.Backfill(ctx, st.ID); err != nil || live.Interrupted {
		t.Fatalf("the holder reads its own log: %+v %v", live, err)
	}
	dir := e.dir
	e.close()

	proj, err := project.Load(dir)
	if proj == nil {
		t.Fatal(err)
	}
	wh, err := warehouse.Open(ctx, filepath.Join(dir, ".strata", "warehouse.duckdb"), warehouse.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer wh.Close()
	pool := supervisor.NewPool(kernelConfig(), 1)
	defer pool.Close()
	ro, err := New(ctx, proj, wh, pool, Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	got, err := ro.Backfill(ctx, st.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !got.Interrupted || !strings.Contains(got.Message, "interrupted") || !strings.Contains(got.Message, "strata backfill resume") {
		t.Fatalf("read-only status of a killed backfill: %s %q interrupted=%v", got.State, got.Message, got.Interrupted)
	}
}

// A promote of a review backfill a kill stopped before it was fully staged
// says so and how to finish it, not "is running" (nothing runs it: this
// process holds the project).
func TestPromoteOfAnInterruptedReviewSaysResume(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, reviewFiles("1", "", ""))
	ctx := context.Background()
	st := e.backfill(reviewSpec("2024-01-01", "2024-01-02"))
	if st.State != StateReview {
		t.Fatalf("%s %s", st.State, st.Message)
	}
	if err := e.eng.backfillEvent(ctx, st.ID, StateRunning, "retrying"); err != nil { // what a kill mid-retry leaves
		t.Fatal(err)
	}
	_, err := e.eng.PromoteBackfill(ctx, st.ID, PromoteOptions{})
	if err == nil || !strings.Contains(err.Error(), "interrupted") || !strings.Contains(err.Error(), "strata backfill resume") {
		t.Fatalf("promote of an interrupted review backfill: %v", err)
	}
}

// A backfill resumed after a kill applies retention at its end to the
// partitions it published before the kill too: their publishes had left
// it to the end, and the kill lost that list, so they kept a version more
// than retention allows after the resumed backfill said it had ended.
func TestResumedRewriteEndsAtRetention(t *testing.T) {
	t.Parallel()
	files := dailyFiles("")
	files["strata.yaml"] = "name: late\nretention: 2\n"
	e := newEnv(t, false, files)
	ctx := context.Background()
	for pass := range 2 {
		s := spec("2024-01-01", "2024-01-03")
		if pass > 0 {
			s.Reprocess = ReprocessAll
		}
		if st := e.backfill(s); st.State != StateSucceeded {
			t.Fatalf("pass %d: %s", pass, st.Message)
		}
	}
	st := e.launchPaused(BackfillSpec{Pipeline: "p", From: "2024-01-01", To: "2024-01-03", Concurrency: 1, Reprocess: ReprocessAll})
	// Its last day, run as the backfill runs it: published, succeeded,
	// retention left to the backfill's end.
	res, err := e.eng.Run(ctx, "p", "2024-01-03", RunOptions{RunID: runIDFor(st.ID, "2024-01-03"), BackfillID: st.ID, FineOnly: true, Snapshot: st.Snapshot})
	if err != nil || res.State != StateSucceeded {
		t.Fatalf("day 3 as the backfill: %v %+v", err, res)
	}
	// A kill now: the files as they are, without the process's memory
	// (once no partition the pause let start is still writing).
	for {
		live, err := e.eng.Backfill(ctx, st.ID)
		if err != nil {
			t.Fatal(err)
		}
		if live.Progress.Running == 0 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	killed := filepath.Join(t.TempDir(), "proj")
	if err := os.CopyFS(killed, os.DirFS(e.dir)); err != nil {
		t.Fatal(err)
	}
	_ = os.Remove(filepath.Join(killed, ".strata", "warehouse.duckdb.lock"))
	e.close()
	k := openEnv(t, killed)
	if done := k.resumeAndWait(st.ID); done.State != StateSucceeded {
		t.Fatalf("resume: %s %s", done.State, done.Message)
	}
	if n := k.count(`SELECT count(*) FROM (SELECT product, partition FROM _strata.versions GROUP BY ALL HAVING count(*) > 2)`); n != 0 {
		t.Fatalf("%d partitions keep more than the 2 versions retention keeps after the resumed backfill ended", n)
	}
}
