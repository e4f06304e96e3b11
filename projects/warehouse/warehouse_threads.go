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

func (w *Warehouse) setSharing(delta int) {
	w.tmu.Lock()
	defer w.tmu.Unlock()
	w.sharing += delta
	q := "RESET threads"
	if w.sharing > 0 {
		q = fmt.Sprintf("SET threads = %d", max(1, runtime.NumCPU()/w.sharing))
	}
	// A setting that does not take costs speed, never a result; a closed
	// warehouse has nothing left to run.
	_, _ = w.db.ExecContext(context.Background(), q)
}

// Threads is how many threads DuckDB gives a statement now.
func (w *Warehouse) Threads(ctx context.Context) (int, error) {
	var n int
	err := w.db.QueryRowContext(ctx, `SELECT current_setting('threads')`).Scan(&n)
	return n, err
}
