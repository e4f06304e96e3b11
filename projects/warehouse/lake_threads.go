package warehouse

import "runtime"

// On a lake DuckDB's threads are set once, when the warehouse opens, and
// never changed: changing them while a lake table is scanned can hang the
// process (warehouse_threads.go), so the file's ShareCores, which gives
// each statement its share of the cores while backfills run, does nothing
// there. Left at DuckDB's default (one thread per core) they cost what
// ShareCores was made to save, and more: a lake's coordinator runs many
// small statements (every DuckLake commit is a few dozen catalog queries)
// and each one wakes every thread and waits for them. Measured on this
// 2-core machine (docs/performance.md): a Strata publish commit on a
// DuckLake took 23.6 ms of CPU with 2 threads and 13.9 ms with 1
// (BenchmarkLakeCommitFloor), and the coordinator's CPU per partition of
// a backfill on two workers fell from 30.4 to 17.6 ms
// (BenchmarkCoordinatorCPUPerPartition, lake-2-workers).
//
// DefaultLakeThreads is what ShareCores gives a statement while one
// backfill of the default concurrency (4) runs: NumCPU/4, at least 1. A
// lake whose coordinator also runs large SQL blocks or queries may want
// more (LakeOptions.Threads, $STRATA_LAKE_THREADS for `strata start`).

// DefaultLakeThreads is DuckDB's threads on a lake unless set.
func DefaultLakeThreads() int { return max(1, runtime.NumCPU()/4) }

// threads is the lake's thread count.
func (o *LakeOptions) threads() int {
	if o.Threads > 0 {
		return o.Threads
	}
	return DefaultLakeThreads()
}
