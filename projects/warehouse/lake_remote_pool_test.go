package warehouse

import (
	"context"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/stratahq/strata/e2e/pgtest"
	"github.com/stratahq/strata/projects/extensions/exttest"
)

// remoteLakeFixture is a Postgres-catalog lake with two daily versions,
// as a worker reaches it.
func remoteLakeFixture(t testing.TB, db string) (*Warehouse, RemoteLake, string) {
	t.Helper()
	exttest.Require(t, "ducklake", "postgres")
	pg := pgtest.Start(t)
	pg.Psql(t, "CREATE DATABASE "+db)
	dir := t.TempDir()
	lake := &LakeOptions{
		Catalog:  "postgres:host=" + pg.Host + " port=" + strconv.Itoa(pg.Port) + " user=" + pg.User + " dbname=" + db + " sslmode=disable",
		Password: pg.Password, PasswordSecret: "pg_lake", DataPath: filepath.Join(dir, "lake"),
	}
	wh := openAt(t, filepath.Join(dir, "warehouse.duckdb"), Options{Lake: lake})
	t.Cleanup(func() { wh.Close() })
	remote, ok := wh.RemoteLake()
	if !ok {
		t.Fatal("a Postgres-catalog lake in a folder is not readable by workers")
	}
	return wh, remote, pg.Password
}

// A worker keeps one read-only DuckDB attached per lake between tasks,
// and each read still sees what was committed since (a new transaction
// is the lake's newest snapshot); a wrong password is not served by the
// DuckDB the right one attached, and a failed read leaves no DuckDB behind.
func TestReadLakeVersionsReusesOneAttachedLakePerCatalog(t *testing.T) {
	if testing.Short() {
		t.Skip("starts Postgres")
	}
	ctx := context.Background()
	wh, remote, password := remoteLakeFixture(t, "remote_pool")
	v1 := publish(t, wh, "daily", "2024-03-10", ids(t, 1, 2, 3))
	opens := func() int {
		remoteLakes.mu.Lock()
		defer remoteLakes.mu.Unlock()
		return remoteLakes.opens
	}
	before := opens()
	read := func(ref VersionRef, want int) {
		t.Helper()
		got, err := ReadLakeVersions(ctx, remote, password, [][]VersionRef{{ref}})
		if err != nil {
			t.Fatal(err)
		}
		if got[0].Len() != want {
			t.Fatalf("read %d rows of %s, want %d", got[0].Len(), ref, want)
		}
	}
	read(VersionRef{Product: "daily", Partition: "2024-03-10", Version: v1.Version}, 3)
	v2 := publish(t, wh, "daily", "2024-03-11", ids(t, 4, 5)) // committed after the worker attached
	read(VersionRef{Product: "daily", Partition: "2024-03-11", Version: v2.Version}, 2)
	read(VersionRef{Product: "daily", Partition: "2024-03-10", Version: v1.Version}, 3)
	if n := opens() - before; n != 1 {
		t.Fatalf("3 reads of one lake opened %d DuckDBs, want 1 kept between them", n)
	}
	if _, err := ReadLakeVersions(ctx, remote, "wrong", [][]VersionRef{{{Product: "daily", Partition: "2024-03-10", Version: v1.Version}}}); err == nil {
		t.Fatal("a wrong password read the lake through the DuckDB the right one attached")
	}
	remoteLakes.mu.Lock()
	n := len(remoteLakes.dbs)
	remoteLakes.mu.Unlock()
	if n != 1 {
		t.Fatalf("%d DuckDBs kept after a failed read, want only the good one", n)
	}
	read(VersionRef{Product: "daily", Partition: "2024-03-11", Version: v2.Version}, 2)
}

// BenchmarkReadLakeVersions is a worker's CPU for one lake read of a
// small pinned version: attached afresh (as every task did) or on the
// DuckDB kept attached.
func BenchmarkReadLakeVersions(b *testing.B) {
	ctx := context.Background()
	wh, remote, password := remoteLakeFixture(b, "remote_bench")
	v := publish(b, wh, "daily", "2024-03-10", ids(b, 1, 2, 3))
	refs := [][]VersionRef{{{Product: "daily", Partition: "2024-03-10", Version: v.Version}}}
	l := &lakeBackend{opts: LakeOptions{Catalog: remote.Catalog, DataPath: remote.DataPath, Password: password}, readOnly: true}
	for _, fresh := range []bool{true, false} {
		name := "kept"
		if fresh {
			name = "fresh"
		}
		b.Run(name, func(b *testing.B) {
			c0 := cpuTime()
			t0 := time.Now()
			for range b.N {
				if fresh {
					remoteLakes.drop(l)
				}
				if _, err := ReadLakeVersions(ctx, remote, password, refs); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64((cpuTime()-c0).Microseconds())/1000/float64(b.N), "cpu-ms/read")
			b.ReportMetric(float64(time.Since(t0).Microseconds())/1000/float64(b.N), "wall-ms/read")
		})
	}
}

// cpuTime is this process's CPU time so far, its DuckDB threads included.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
