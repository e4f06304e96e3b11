package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/projects/snapshot"
)

// Snapshots nothing needs are collected; those a version's lineage, a
// backfill that can still run, or a recent use need are kept.
func TestUnusedSnapshotsAreCollected(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles("2024-01-02"))
	ctx := context.Background()
	edit := func(comment string) {
		files := dailyFiles("2024-01-02")
		files["blocks/agg.sql"] = "-- " + comment + "\n" + aggBlock
		writeFiles(t, e.dir, files)
		e.reload()
	}
	published := e.run("p", "2024-01-01") // its versions name it
	e.mustSucceed(published)
	edit("a failed run publishes nothing")
	failedRun := e.run("p", "2024-01-02")
	if failedRun.State != StateFailed || failedRun.Snapshot == published.Snapshot {
		t.Fatalf("failed run: %s, version %s", failedRun.State, failedRun.Snapshot)
	}
	edit("a failed backfill can be retried")
	bf := e.backfill(spec("2024-01-02", "2024-01-02"))
	if bf.State != StateFailed {
		t.Fatalf("backfill: %s", bf.State)
	}
	root := filepath.Join(e.dir, filepath.FromSlash(snapshot.Dir))
	// Leftovers of a crash: an interrupted save, an interrupted removal
	// (read-only files, as snapshots have), and a folder that is not ours.
	for _, d := range []string{".tmp-0123456789abcdef-1", ".trash-0123456789abcdef-2/blocks", "notes"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, ".trash-0123456789abcdef-2/blocks/a.sql"), []byte("x"), 0o444); err != nil {
		t.Fatal(err)
	}
	exists := func(name string) bool {
		_, err := os.Stat(filepath.Join(root, name))
		return err == nil
	}

	// Within the grace period nothing goes, needed or not.
	if removed, err := e.eng.CollectSnapshots(ctx); err != nil || len(removed) != 0 {
		t.Fatalf("collected recent snapshots: %v %v", removed, err)
	}
	e.eng.now = func() time.Time { return time.Now().Add(2 * SnapshotGrace) }
	removed, err := e.eng.CollectSnapshots(ctx)
	if err != nil || !slices.Equal(removed, []string{failedRun.Snapshot}) {
		t.Fatalf("collected %v (%v), want only the failed run's %s", removed, err, failedRun.Snapshot)
	}
	for _, h := range []string{published.Snapshot, bf.Snapshot, "notes"} {
		if !exists(h) {
			t.Fatalf("%s was collected", h)
		}
	}
	for _, d := range []string{".tmp-0123456789abcdef-1", ".trash-0123456789abcdef-2", failedRun.Snapshot} {
		if exists(d) {
			t.Fatalf("%s is left", d)
		}
	}
	if _, _, err := snapshot.Open(e.dir, failedRun.Snapshot, "p"); !errors.Is(err, snapshot.ErrMissing) {
		t.Fatalf("open a collected snapshot: %v", err)
	}

	// The retry moves the backfill to the current code; once it ends, the
	// version it ran before is needed by nothing and goes.
	writeFiles(t, e.dir, dailyFiles(""))
	e.reload()
	if _, err := e.eng.Retry(ctx, bf.ID, true); err != nil {
		t.Fatal(err)
	}
	done, _ := e.eng.Wait(ctx, bf.ID)
	if done.State != StateSucceeded {
		t.Fatalf("retry: %s %s", done.State, done.Message)
	}
	if exists(bf.Snapshot) || !exists(done.Snapshot) || !exists(published.Snapshot) {
		t.Fatalf("after the retry: old version %s kept %v, new %s kept %v", bf.Snapshot, exists(bf.Snapshot), done.Snapshot, exists(done.Snapshot))
	}
}

// A run in flight keeps its snapshot even when nothing recorded names it
// yet and the grace period is over.
func TestSnapshotInUseIsKept(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles(""))
	res := e.run("p", "2024-01-01")
	e.mustSucceed(res)
	if _, err := e.wh.DB().Exec(`DELETE FROM _strata.versions`); err != nil {
		t.Fatal(err)
	}
	e.eng.now = func() time.Time { return time.Now().Add(2 * SnapshotGrace) }
	release := e.eng.hold(res.Snapshot)
	if removed, err := e.eng.CollectSnapshots(context.Background()); err != nil || len(removed) != 0 {
		t.Fatalf("collected a snapshot in use: %v %v", removed, err)
	}
	release()
	if removed, err := e.eng.CollectSnapshots(context.Background()); err != nil || len(removed) != 1 {
		t.Fatalf("once released: %v %v", removed, err)
	}
}

// A backfill whose snapshot is gone (removed by hand while the process was
// stopped) cannot resume: the restart says so and records it failed, with
// what to do, instead of leaving it "running" with nothing running; the
// other interrupted backfills still resume; its status keeps its version
// and counts; a retry with the current code finishes it.
func TestMissingSnapshotIsToldNotLeftRunning(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false, dailyFiles(""))
	ctx := context.Background()
	lost := e.launchPaused(BackfillSpec{Pipeline: "p", From: "2024-01-01", To: "2024-01-05", Concurrency: 1})
	files := dailyFiles("")
	files["blocks/agg.sql"] = "-- another version\n" + aggBlock
	writeFiles(t, e.dir, files)
	e.reload()
	other := e.launchPaused(BackfillSpec{Pipeline: "p", From: "2024-01-08", To: "2024-01-10", Concurrency: 1})
	dir := e.dir
	e.close()
	if err := os.RemoveAll(snapshot.Path(dir, lost.Snapshot)); err != nil {
		t.Fatal(err)
	}
	e = openEnv(t, dir)
	// As a kill -9 leaves them (also if a loaded machine got further than
	// the pause before the shutdown).
	for _, id := range []string{lost.ID, other.ID} {
		if err := e.eng.backfillEvent(ctx, id, StateRunning, "interrupted"); err != nil {
			t.Fatal(err)
		}
	}
	ids, err := e.eng.RecoverBackfills(ctx)
	if err == nil || !slices.Contains(ids, other.ID) {
		t.Fatalf("recover: %v %v", ids, err)
	}
	if st, _ := e.eng.Wait(ctx, other.ID); st.State != StateSucceeded {
		t.Fatalf("the other backfill: %s %s", st.State, st.Message)
	}
	st, err := e.eng.Backfill(ctx, lost.ID)
	if err != nil || st.State != StateFailed || !strings.Contains(st.Message, "--use-current-code") || st.Snapshot != lost.Snapshot || st.Problem == "" {
		t.Fatalf("status of the backfill whose snapshot is gone: %+v %v", st, err)
	}
	if st.Progress.Succeeded+st.Progress.Cancelled+st.Progress.Running == 0 && e.count(`SELECT count(*) FROM _strata.run_events WHERE backfill_id = ? AND block_id = ''`, lost.ID) > 0 {
		t.Fatalf("status counts lost: %+v", st.Progress)
	}
	rp, err := e.eng.PlanRetry(ctx, lost.ID, false)
	if err != nil || rp.Problem == "" || !strings.Contains(rp.String(), "--use-current-code") {
		t.Fatalf("retry plan of the same version: %+v %v", rp, err)
	}
	if _, err := e.eng.Retry(ctx, lost.ID, true); err != nil {
		t.Fatal(err)
	}
	if st, _ := e.eng.Wait(ctx, lost.ID); st.State != StateSucceeded {
		t.Fatalf("retry with the current code: %s %s", st.State, st.Message)
	}
}
