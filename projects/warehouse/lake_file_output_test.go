package warehouse

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// writtenOut is the Output of a file a worker wrote.
func writtenOut(product, partition string, f *WrittenFile) Output {
	o := out(product, partition, nil)
	o.Table, o.File = nil, f
	return o
}

// A worker's file becomes a version by registration, not by a copy: the
// file the worker wrote is the one the catalog lists, its rows read back
// whole under the version the commit gave, with the hash of the same rows
// published as a table. A guess the commit cannot honour (another write of
// the partition came first) copies the rows under the right number.
func TestLakeWorkerFileIsRegisteredNotCopied(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	lake := fileLake(t, dir)
	lake.FileMinRows = 1
	wh := openAt(t, filepath.Join(dir, "w.duckdb"), Options{Lake: lake})
	defer wh.Close()

	tbl := bigTable(5000, 1, false)
	sink, ok := wh.FileSink("orders", "2024-03-10", 0)
	if !ok || sink.Version != 1 {
		t.Fatalf("sink %+v, %v: want version 1 on a lake", sink, ok)
	}
	f, err := WriteLakeFile(ctx, sink, tbl)
	if err != nil {
		t.Fatal(err)
	}
	vs, err := wh.Publish(ctx, []Output{writtenOut("orders", "2024-03-10", f)})
	if err != nil {
		t.Fatal(err)
	}
	if vs[0].Version != 1 || vs[0].Rows != 5000 {
		t.Fatalf("published %+v, want version 1 of 5000 rows", vs[0])
	}
	if added, copied := wh.FileCommits(); added != 1 || copied != 0 {
		t.Fatalf("files added %d, copied %d: want the file registered", added, copied)
	}
	var n int
	if err := wh.DB().QueryRowContext(ctx, `SELECT count(*) FROM __ducklake_metadata_`+LakeName+`.ducklake_data_file WHERE path LIKE '%'||?`, filepath.Base(f.Path)).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Fatalf("the catalog lists the worker's file %d times, want once", n)
	}
	got := read(t, wh, "orders", Selection{Partitions: []string{"2024-03-10"}})
	if got.Len() != 5000 {
		t.Fatalf("read %d rows, want 5000", got.Len())
	}
	ref := publish(t, wh, "orders_ref", "2024-03-10", tbl)
	var h1, h2 string
	if err := wh.DB().QueryRowContext(ctx, `SELECT max(content_hash) FILTER (product = 'orders'), max(content_hash) FILTER (product = 'orders_ref') FROM _strata.versions`).Scan(&h1, &h2); err != nil {
		t.Fatal(err)
	}
	if h1 != h2 || ref.Rows != 5000 {
		t.Fatalf("hash of the file %s, of the same rows published %s", h1, h2)
	}

	// Two workers guessed version 2; the second commit is version 3.
	s2, _ := wh.FileSink("orders", "2024-03-10", 0)
	fa, err := WriteLakeFile(ctx, s2, bigTable(10, 2, false))
	if err != nil {
		t.Fatal(err)
	}
	fb, err := WriteLakeFile(ctx, s2, bigTable(20, 3, false))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []*WrittenFile{fa, fb} {
		if _, err := wh.Publish(ctx, []Output{writtenOut("orders", "2024-03-10", f)}); err != nil {
			t.Fatal(err)
		}
	}
	if added, copied := wh.FileCommits(); added != 2 || copied != 1 {
		t.Fatalf("files added %d, copied %d: want the second guess copied", added, copied)
	}
	for v, want := range map[int]int{2: 10, 3: 20} {
		if got := read(t, wh, "orders", Selection{Partitions: []string{"2024-03-10"}, Version: v}); got.Len() != want {
			t.Fatalf("version %d has %d rows, want %d", v, got.Len(), want)
		}
	}
}

// A file written by a worker whose commit never came is an orphan: the
// catalog does not list it and the next Open deletes it.
func TestLakeUncommittedWorkerFileIsSwept(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	dir := t.TempDir()
	lake := fileLake(t, dir)
	lake.FileMinRows = 1
	wh := openAt(t, filepath.Join(dir, "w.duckdb"), Options{Lake: lake})
	publish(t, wh, "orders", "2024-03-09", bigTable(10, 1, false))
	sink, _ := wh.FileSink("orders", "2024-03-10", 0)
	f, err := WriteLakeFile(ctx, sink, bigTable(100, 2, false))
	if err != nil {
		t.Fatal(err)
	}
	wh.Close()
	// A younger file could be a worker's write still under way: it is
	// swept once older than the grace (lake_maintenance.go).
	ageFiles(t, lake.DataPath, 2*DefaultOrphanGrace)
	wh = openAt(t, filepath.Join(dir, "w.duckdb"), Options{Lake: lake})
	defer wh.Close()
	if _, err := os.Stat(f.Path); !os.IsNotExist(err) {
		t.Fatalf("the uncommitted file %s is still there after the reopen (%v)", f.Path, err)
	}
	if got := read(t, wh, "orders", Selection{}); got.Len() != 10 {
		t.Fatalf("read %d rows, want the 10 committed", got.Len())
	}
}

// An output below the sink's MinRows is not written: it comes back as a
// table, whose rows cost the commit less than a file's registration.
func TestLakeSmallOutputIsNotWritten(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	wh := openAt(t, filepath.Join(dir, "w.duckdb"), Options{Lake: fileLake(t, dir)})
	defer wh.Close()
	s, ok := wh.FileSink("orders", "2024-03-10", 0)
	if !ok || s.MinRows != DefaultFileMinRows {
		t.Fatalf("sink %+v: want MinRows %d", s, DefaultFileMinRows)
	}
	f, err := WriteLakeFile(context.Background(), s, bigTable(DefaultFileMinRows-1, 1, false))
	if err != nil || f != nil {
		t.Fatalf("wrote %+v (%v), want nothing below %d rows", f, err, DefaultFileMinRows)
	}
}

// The embedded file takes no worker files.
func TestFileSinkOnlyOnALake(t *testing.T) {
	t.Parallel()
	wh := openAt(t, filepath.Join(t.TempDir(), "w.duckdb"), Options{})
	defer wh.Close()
	if wh.backend.kind() != "duckdb" {
		t.Skip("the package runs on a lake")
	}
	if _, ok := wh.FileSink("orders", "2024-03-10", 0); ok {
		t.Fatal("the embedded DuckDB file offered a file sink")
	}
}
