package warehouse

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/e2e/pgtest"
	"github.com/stratahq/strata/projects/extensions/exttest"
)

// BenchmarkLakeCommitFloor measures the least a DuckLake commit costs the
// committing process, per publish, as the publishes a transaction carries
// grow (1, 4, 16, 64): the floor under the coordinator's CPU per partition
// on a lake, whatever Strata does around it.
//
//   - raw: DuckDB 1.5.5's ducklake alone: BEGIN, one one-row INSERT per
//     publish into one table, COMMIT (the smallest write a publish could
//     be; the row is inlined in the catalog).
//   - strata: Warehouse.Publish of that many 10-row outputs in one
//     transaction (the rows, the catalog's version rows, the current
//     flags, the snapshot's tag): what one partition of a backfill
//     publishes, without run events.
//
// Both run on the lake's threads (DefaultLakeThreads; STRATA_LAKE_THREADS
// sets them). The catalog is a DuckDB file; STRATA_BENCH_LAKE_POSTGRES=1
// adds the same on a Postgres catalog (the Postgres server's CPU is not
// counted).
// Reported: cpu-ms/publish (user+system of this process).
func BenchmarkLakeCommitFloor(b *testing.B) {
	exttest.Require(b, "ducklake")
	catalogs := []string{"file"}
	if os.Getenv("STRATA_BENCH_LAKE_POSTGRES") == "1" {
		exttest.Require(b, "postgres")
		catalogs = append(catalogs, "postgres")
	}
	var pgLake lakeFactory
	if len(catalogs) > 1 {
		pgLake = postgresLake(pgtest.Start(b)) // here: every Postgres setup uses it
	}
	for _, cat := range catalogs {
		for _, how := range []string{"raw", "strata"} {
			for _, n := range []int{1, 4, 16, 64} {
				b.Run(fmt.Sprintf("%s/%s/publishes-%d", cat, how, n), func(b *testing.B) {
					dir := b.TempDir()
					lake := fileLake(b, dir)
					lake.Threads, _ = strconv.Atoi(os.Getenv("STRATA_LAKE_THREADS"))
					if cat == "postgres" {
						lake = pgLake(b, dir)
						lake.Threads, _ = strconv.Atoi(os.Getenv("STRATA_LAKE_THREADS"))
					}
					var commit func(int)
					if how == "raw" {
						commit = floorRaw(b, lake, n)
					} else {
						commit = floorStrata(b, dir, lake, n)
					}
					var cpu time.Duration
					b.ResetTimer()
					for i := range b.N {
						c0 := processCPU()
						commit(i)
						cpu += processCPU() - c0
					}
					b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N*n), "cpu-ms/publish")
				})
			}
		}
	}
}

// floorRaw attaches the lake to a plain DuckDB and returns a commit of n
// one-row inserts.
func floorRaw(b *testing.B, lake *LakeOptions, n int) func(int) {
	ctx := context.Background()
	db, err := sql.Open("duckdb", "?threads="+strconv.Itoa(lake.threads()))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	db.SetMaxOpenConns(1)
	if err := os.MkdirAll(lake.DataPath, 0o755); err != nil {
		b.Fatal(err)
	}
	l := &lakeBackend{opts: *lake}
	conn, err := db.Conn(ctx)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { conn.Close() })
	stmts := []string{"LOAD ducklake"}
	if l.postgres() {
		stmts = append(stmts, "LOAD postgres")
	}
	stmts = append(stmts, l.attachSQL(), "USE "+LakeName, "CREATE TABLE t (k BIGINT, v VARCHAR)")
	for _, q := range stmts {
		if _, err := conn.ExecContext(ctx, q); err != nil {
			b.Fatalf("%s: %v", l.mask(q), l.mask(err.Error()))
		}
	}
	ins, err := conn.PrepareContext(ctx, "INSERT INTO t VALUES (?, ?)")
	if err != nil {
		b.Fatal(err)
	}
	return func(i int) {
		for _, q := range []string{"BEGIN TRANSACTION", "", "COMMIT"} {
			if q == "" {
				for j := range n {
					if _, err := ins.ExecContext(ctx, int64(i*n+j), "x"); err != nil {
						b.Fatal(err)
					}
				}
				continue
			}
			if _, err := conn.ExecContext(ctx, q); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// floorStrata opens a warehouse on the lake and returns a Publish of n
// 10-row partitions in one transaction.
func floorStrata(b *testing.B, dir string, lake *LakeOptions, n int) func(int) {
	ctx := context.Background()
	wh, err := Open(ctx, filepath.Join(dir, "w.duckdb"), Options{Lake: lake})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { wh.Close() })
	tbl := sdk.NewTable(sdk.Int64("id"), sdk.String("label"))
	for k := range 10 {
		tbl.Append(int64(k), "x")
	}
	day0 := day("2020-01-01")
	return func(i int) {
		outs := make([]Output, n)
		for j := range n {
			outs[j] = out("facts", day0.AddDate(0, 0, i*n+j).Format(time.DateOnly), tbl)
		}
		if _, err := wh.Publish(ctx, outs); err != nil {
			b.Fatal(err)
		}
	}
}
