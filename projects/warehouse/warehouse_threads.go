package warehouse

import (
	"context"
	"fmt"
	"runtime"
)

// DuckDB runs every statement on all its threads, one per core by default.
// A backfill runs many small statements at once, a few per partition and
// several partitions at a time, and for those the threads only cost: each
// statement wakes them and waits for them (measured on the demo backfill:
// about a fifth of the engine's CPU, and more on a republish). So while
// backfills run, each statement gets its share of the cores instead:
// NumCPU divided by how many partitions run at once, at least one thread.
// Statements of a different kind run meanwhile (a large SQL block, an
// interactive query) get that share too; once no backfill runs, DuckDB is
// back to its default.
//
// For the same span DuckDB checkpoints less often: at backfillCheckpoint
// of WAL instead of its default 16 MiB. A checkpoint's cost grows with the
// history already in the file, not only with what it writes (measured on
// the 5-year demo backfill, thread CPU: the first automatic checkpoint
// 0.13 s, the late ones 0.3-0.5 s whatever the WAL held; all five years
// in one checkpoint 0.7-0.9 s), so a backfill's 15 checkpoints cost 5 s of
// its 22 s of engine CPU, and 3 of them at 64 MiB cost 1.5 s. The price is
// a longer WAL replay at the next open after a crash in the middle of a
// backfill (at most 64 MiB, against 16); once no backfill runs, the next
// commit past 16 MiB checkpoints as before.
//
// Not on a DuckLake: there a change of threads can hang the process.
// Seen in DuckDB 1.5.5 (a backfill's coordinator stuck at 0% CPU, gdb):
// a scan of a lake table holds its file lock while the ducklake extension
// runs a nested catalog query (TryCreateInlinedDataReader), whose cleanup
// waits for the scheduler's lock (RelaunchThreads, the threads setting
// having changed); another statement's cleanup holds that lock while it
// joins a worker thread, and that thread waits for the scan's file lock.
// The lake keeps DuckDB's threads; the checkpoint threshold (a setting of
// the embedded file, not of the lake's catalog) is left alone there too.

// ShareCores tells the warehouse that n partitions will run their
// statements concurrently until release is called. Calls add up: two
// backfills of concurrency 4 share the cores eight ways.
func (w *Warehouse) ShareCores(n int) (release func()) {
	if n < 1 {
		n = 1
	}
	w.setSharing(n)
	done := false
	return func() {
		if !done {
			done = true
			w.setSharing(-n)
		}
	}
}

// backfillCheckpoint is DuckDB's checkpoint_threshold while backfills run.
const backfillCheckpoint = "64MiB"

func (w *Warehouse) setSharing(delta int) {
	if w.CostlyCommits() { // a lake: see above
		return
	}
	w.tmu.Lock()
	defer w.tmu.Unlock()
	before := w.sharing
	w.sharing += delta
	qs := []string{"RESET threads"}
	if w.sharing > 0 {
		qs[0] = fmt.Sprintf("SET threads = %d", max(1, runtime.NumCPU()/w.sharing))
	}
	switch {
	case before == 0 && w.sharing > 0:
		qs = append(qs, "SET GLOBAL checkpoint_threshold = '"+backfillCheckpoint+"'")
	case before > 0 && w.sharing == 0:
		qs = append(qs, "RESET GLOBAL checkpoint_threshold")
	}
	// A setting that does not take costs speed, never a result; a closed
	// warehouse has nothing left to run.
	for _, q := range qs {
		_, _ = w.db.ExecContext(context.Background(), q)
	}
}

// CheckpointThreshold is DuckDB's checkpoint_threshold now, as it prints
// it (e.g. "16.0 MiB").
func (w *Warehouse) CheckpointThreshold(ctx context.Context) (string, error) {
	var s string
	err := w.db.QueryRowContext(ctx, `SELECT current_setting('checkpoint_threshold')`).Scan(&s)
	return s, err
}

// Threads is how many threads DuckDB gives a statement now.
func (w *Warehouse) Threads(ctx context.Context) (int, error) {
	var n int
	err := w.db.QueryRowContext(ctx, `SELECT current_setting('threads')`).Scan(&n)
	return n, err
}
