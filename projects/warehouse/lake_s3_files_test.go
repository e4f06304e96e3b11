package warehouse

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/e2e/s3test"
	"github.com/stratahq/strata/projects/extensions/exttest"
	"github.com/stratahq/strata/projects/secrets"
)

// s3Lake is a DuckLake (file catalog) whose data path is a prefix of
// bucket "lake" on srv, its key from the s3 secret lake_s3.
func s3Lake(t *testing.T, srv *s3test.Server, dir string) *LakeOptions {
	t.Helper()
	exttest.Require(t, "ducklake", "httpfs")
	off := false
	return &LakeOptions{
		Catalog:  filepath.Join(dir, "catalog.ducklake"),
		DataPath: "s3://lake/w/",
		S3: &secrets.S3Values{KeyID: srv.KeyID, Secret: srv.Secret, Endpoint: srv.Endpoint, Region: srv.Region,
			URLStyle: "path", UseSSL: &off},
		S3Secret:    "lake_s3",
		FileMinRows: 1,
	}
}

// On a lake whose data path is in a bucket, a worker writes an output's
// Parquet into the bucket itself, with the key it was given (the sink
// carries only the secret's name and settings), and the commit registers
// that object, not a copy. An object a worker wrote but never committed
// (a killed worker) is swept by the lake's maintenance once older than
// the orphan grace, and the committed one stays.
func TestLakeWorkerFileOnS3IsRegisteredAndOrphansSwept(t *testing.T) {
	ctx := context.Background()
	srv := s3test.Start(t)
	srv.CreateBucket(t, "lake")
	dir := t.TempDir()
	lake := s3Lake(t, srv, dir)
	wh := openAt(t, filepath.Join(dir, "w.duckdb"), Options{Lake: lake})

	sink, ok := wh.FileSink("orders", "2024-03-10", 0)
	if !ok || sink.S3 == nil || sink.S3.Secret != "lake_s3" || sink.DataPath != lake.DataPath {
		t.Fatalf("sink %+v, %v: want one on the bucket naming the secret lake_s3", sink, ok)
	}
	if sink.Key != nil || strings.Contains(sink.S3.Endpoint+sink.S3.Region, srv.Secret) {
		t.Fatalf("the sink carries the key: %+v", sink)
	}
	if _, err := WriteLakeFile(ctx, sink, bigTable(10, 1, false)); err == nil || !strings.Contains(err.Error(), "no key") {
		t.Fatalf("a write to the bucket without a key: %v, want refused", err)
	}
	sink.Key = sink.S3.WithKey(srv.KeyID, srv.Secret)
	f, err := WriteLakeFile(ctx, sink, bigTable(5000, 1, false))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(f.Path, "s3://lake/w/_strata/") || f.Bytes == 0 {
		t.Fatalf("wrote %s (%d bytes), want an object under s3://lake/w/_strata/", f.Path, f.Bytes)
	}
	if _, err := wh.Publish(ctx, []Output{writtenOut("orders", "2024-03-10", f)}); err != nil {
		t.Fatal(err)
	}
	if added, copied := wh.FileCommits(); added != 1 || copied != 0 {
		t.Fatalf("files added %d, copied %d: want the object registered", added, copied)
	}
	if got := read(t, wh, "orders", Selection{Partitions: []string{"2024-03-10"}}); got.Len() != 5000 {
		t.Fatalf("read %d rows, want 5000", got.Len())
	}
	// The coordinator reads a worker's object with the lake's own key
	// (for an executor that could not).
	back, err := wh.ReadWrittenFile(ctx, InputFile{Path: f.Path, Partition: f.Partition, Version: f.Version, Rows: f.Rows, Hash: f.Hash})
	if err != nil || back.Len() != 5000 {
		t.Fatalf("read the worker's object back: %v", err)
	}
	// Two workers guessed the same next version: the second commit copies
	// its object's rows under the version it gets.
	sa, _ := wh.FileSink("orders", "2024-03-10", 0)
	sa.Key = sa.S3.WithKey(srv.KeyID, srv.Secret)
	var late []*WrittenFile
	for _, n := range []int{10, 20} {
		f, err := WriteLakeFile(ctx, sa, bigTable(n, int64(n), false))
		if err != nil {
			t.Fatal(err)
		}
		late = append(late, f)
	}
	for _, f := range late {
		if _, err := wh.Publish(ctx, []Output{writtenOut("orders", "2024-03-10", f)}); err != nil {
			t.Fatal(err)
		}
	}
	if added, copied := wh.FileCommits(); added != 2 || copied != 1 {
		t.Fatalf("files added %d, copied %d: want the second guess copied from the bucket", added, copied)
	}
	if got := read(t, wh, "orders", Selection{Partitions: []string{"2024-03-10"}, Version: 3}); got.Len() != 20 {
		t.Fatalf("version 3 has %d rows, want the copied 20", got.Len())
	}
	// A killed worker's object: written, never committed.
	s2, _ := wh.FileSink("orders", "2024-03-11", 0)
	s2.Key = s2.S3.WithKey(srv.KeyID, srv.Secret)
	orphan, err := WriteLakeFile(ctx, s2, bigTable(100, 2, false))
	if err != nil {
		t.Fatal(err)
	}
	wh.Close()
	objects := func() map[string]bool {
		m := map[string]bool{}
		for _, k := range srv.List(t, "lake", "w/") {
			m["s3://lake/"+k] = true
		}
		return m
	}
	if o := objects(); !o[orphan.Path] || !o[f.Path] {
		t.Fatalf("objects %v: want both worker files", o)
	}
	// Within the grace (a write may be under way) it stays; past it, the
	// next maintenance pass (at Open) deletes it.
	wh = openAt(t, filepath.Join(dir, "w.duckdb"), Options{Lake: lake})
	wh.Close()
	if o := objects(); !o[orphan.Path] {
		t.Fatalf("the uncommitted object %s went within the orphan grace", orphan.Path)
	}
	time.Sleep(1100 * time.Millisecond) // S3 timestamps are whole seconds
	short := *lake
	short.OrphanGrace = time.Second
	wh = openAt(t, filepath.Join(dir, "w.duckdb"), Options{Lake: &short})
	defer wh.Close()
	o := objects()
	if o[orphan.Path] {
		t.Fatalf("the uncommitted object %s is still in the bucket after the sweep: %v", orphan.Path, o)
	}
	if !o[f.Path] {
		t.Fatalf("the sweep deleted the committed object %s", f.Path)
	}
	if got := read(t, wh, "orders", Selection{Partitions: []string{"2024-03-10"}, Version: 1}); got.Len() != 5000 {
		t.Fatalf("read %d rows of version 1 after the sweep, want the 5000 committed", got.Len())
	}
}
