package warehouse

import (
	"context"
	"path/filepath"
	"runtime"
	"testing"
)

// While partitions run concurrently, a statement gets its share of the
// cores; the shares add up across callers, a release counts once, and
// DuckDB is back to its default when the last one releases.
func TestShareCoresSplitsTheThreads(t *testing.T) {
	t.Parallel()
	wh := openTemp(t)
	if wh.CostlyCommits() {
		t.Skip("a lake keeps DuckDB's settings (TestShareCoresLeavesALakesThreads)")
	}
	threads := func() int {
		t.Helper()
		n, err := wh.Threads(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	def := threads()
	if def != runtime.NumCPU() {
		t.Logf("DuckDB's default is %d threads on %d CPUs", def, runtime.NumCPU())
	}
	a := wh.ShareCores(4)
	if got, want := threads(), max(1, runtime.NumCPU()/4); got != want {
		t.Fatalf("sharing 4 ways: %d threads, want %d", got, want)
	}
	b := wh.ShareCores(1)
	if got, want := threads(), max(1, runtime.NumCPU()/5); got != want {
		t.Fatalf("sharing 5 ways: %d threads, want %d", got, want)
	}
	a()
	a() // counts once
	if got, want := threads(), runtime.NumCPU(); got != want {
		t.Fatalf("sharing 1 way: %d threads, want %d", got, want)
	}
	b()
	if got := threads(); got != def {
		t.Fatalf("after the last release: %d threads, want the default %d", got, def)
	}
}

// While backfills run DuckDB checkpoints at 64 MiB of WAL instead of 16
// (warehouse_threads.go): set by the first ShareCores, kept while any
// caller shares, back to DuckDB's default after the last release.
func TestShareCoresCheckpointsLessOften(t *testing.T) {
	t.Parallel()
	wh := openTemp(t)
	if wh.CostlyCommits() {
		t.Skip("a lake keeps DuckDB's settings (TestShareCoresLeavesALakesThreads)")
	}
	threshold := func() string {
		t.Helper()
		s, err := wh.CheckpointThreshold(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	def := threshold()
	if def == "64.0 MiB" {
		t.Fatalf("DuckDB's default threshold is already %s: the test says nothing", def)
	}
	a := wh.ShareCores(4)
	if got := threshold(); got != "64.0 MiB" {
		t.Fatalf("while a backfill runs: checkpoint_threshold %s, want 64.0 MiB", got)
	}
	b := wh.ShareCores(1)
	a()
	if got := threshold(); got != "64.0 MiB" {
		t.Fatalf("while a second backfill still runs: checkpoint_threshold %s, want 64.0 MiB", got)
	}
	b()
	if got := threshold(); got != def {
		t.Fatalf("after the last release: checkpoint_threshold %s, want the default %s", got, def)
	}
}

// On a lake, sharing the cores changes no DuckDB setting: a change of
// threads while a lake table is scanned can deadlock DuckDB 1.5.5
// (warehouse_threads.go).
func TestShareCoresLeavesALakesThreads(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	wh := openAt(t, filepath.Join(dir, "w.duckdb"), Options{Lake: fileLake(t, dir)})
	defer wh.Close()
	def, err := wh.Threads(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	release := wh.ShareCores(64)
	defer release()
	if got, err := wh.Threads(context.Background()); err != nil || got != def {
		t.Fatalf("sharing on a lake: %d threads (%v), want DuckDB's %d unchanged", got, err, def)
	}
}

// TestLakeThreadsFixedAtOpen: on a lake DuckDB's threads are set when the
// warehouse opens (lake_threads.go), since they cannot be shared while
// backfills run there; left at DuckDB's one per core each small catalog
// statement of a commit woke them all (on 2 cores, 2 threads against the
// 1 that NumCPU/4 gives).
func TestLakeThreadsFixedAtOpen(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		set, want int
	}{{0, DefaultLakeThreads()}, {3, 3}} {
		dir := t.TempDir()
		lake := fileLake(t, dir)
		lake.Threads = c.set
		wh := openAt(t, filepath.Join(dir, "w.duckdb"), Options{Lake: lake})
		got, err := wh.Threads(context.Background())
		wh.Close()
		if err != nil || got != c.want {
			t.Fatalf("lake opened with Threads %d: DuckDB has %d threads (%v), want %d", c.set, got, err, c.want)
		}
	}
	if runtime.NumCPU() < 4 && DefaultLakeThreads() != 1 {
		t.Fatalf("DefaultLakeThreads on %d cores = %d, want 1", runtime.NumCPU(), DefaultLakeThreads())
	}
}
