package engine_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/stratahq/strata/kernel/kerneltest"
	"github.com/stratahq/strata/kernel/supervisor"
	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/engine/reviewbench"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/scaffold"
	"github.com/stratahq/strata/projects/warehouse"
)

// openDemo opens an engine over the demo project in dir (created if new).
func openDemo(b *testing.B, dir string) (*engine.Engine, *warehouse.Warehouse, func()) {
	b.Helper()
	ctx := context.Background()
	proj, err := project.Load(dir)
	if proj == nil {
		b.Fatal(err)
	}
	wh, err := warehouse.Open(ctx, filepath.Join(dir, ".strata", "warehouse.duckdb"), warehouse.Options{Retention: proj.Retention})
	if err != nil {
		b.Fatal(err)
	}
	pool := supervisor.NewPool(kerneltest.Config(), 2)
	eng, err := engine.New(ctx, proj, wh, pool, engine.Options{})
	if err != nil {
		b.Fatal(err)
	}
	return eng, wh, func() { eng.Close(); pool.Close(); wh.Close() }
}

// reviewFixture builds the five-year staged demo backfill and reopens it.
func reviewFixture(b *testing.B) (*engine.Engine, *warehouse.Warehouse, string, func()) {
	b.Helper()
	dir := filepath.Join(b.TempDir(), "demo")
	if err := scaffold.Init(dir, true); err != nil {
		b.Fatal(err)
	}
	eng, wh, closeFn := openDemo(b, dir)
	start := time.Now()
	id, err := reviewbench.Build(context.Background(), eng, wh, reviewbench.Options{})
	closeFn()
	if err != nil {
		b.Fatal(err)
	}
	b.Logf("fixture built in %s", time.Since(start).Round(time.Millisecond))
	eng, wh, closeFn = openDemo(b, dir)
	return eng, wh, id, closeFn
}

// BenchmarkReviewSummary5y computes the review of a staged five-year demo
// backfill (1,827 days of 6 products and 262 weeks of one: 11,224 staged versions): every
// product's diff against the current versions and the demo's two gates.
// Target: 2 s. The baseline, measured in the same loop, is one plain DuckDB
// pass over the same storage tables: every row of every version (current
// and staged) of the pipeline's products, counted and hashed per partition
// and version, which is what reading everything once costs; the review
// skips what the content hashes prove unchanged, so it can beat it.
func BenchmarkReviewSummary5y(b *testing.B) {
	eng, wh, id, closeFn := reviewFixture(b)
	defer closeFn()
	ctx := context.Background()
	baseline := scanAllSQL(b, wh)
	var d, base []time.Duration
	for b.Loop() {
		start := time.Now()
		rv, err := eng.BackfillReview(ctx, id)
		if err != nil {
			b.Fatal(err)
		}
		d = append(d, time.Since(start))
		if rv.Staged != 11224 {
			b.Fatalf("staged %d, want 11224 (1,827 days x 6 products + 262 weeks)", rv.Staged)
		}
		b.StopTimer()
		start = time.Now()
		for _, q := range baseline {
			rows, err := wh.DB().QueryContext(ctx, q)
			if err != nil {
				b.Fatal(err)
			}
			for rows.Next() {
			}
			if err := rows.Close(); err != nil {
				b.Fatal(err)
			}
		}
		base = append(base, time.Since(start))
		b.StartTimer()
	}
	slices.Sort(d)
	slices.Sort(base)
	b.ReportMetric(float64(d[len(d)/2])/1e6, "p50-ms")
	b.ReportMetric(float64(base[len(base)/2])/1e6, "scan-all-p50-ms")
	b.ReportMetric(float64(d[len(d)/2])/float64(base[len(base)/2]), "x-scan-all")
}

// scanAllSQL is the baseline of BenchmarkReviewSummary5y: per storage table,
// a count and a sum of row hashes grouped by partition and version.
func scanAllSQL(b *testing.B, wh *warehouse.Warehouse) []string {
	b.Helper()
	rows, err := wh.DB().Query(`SELECT table_name, string_agg('"' || column_name || '"', ', ' ORDER BY column_index) FROM duckdb_columns()
		WHERE schema_name = '_strata' AND table_name IN (SELECT DISTINCT storage_table FROM _strata.versions) AND column_name NOT IN ('_partition', '_version')
		GROUP BY table_name ORDER BY table_name`)
	if err != nil {
		b.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var table, cols string
		if err := rows.Scan(&table, &cols); err != nil {
			b.Fatal(err)
		}
		out = append(out, `SELECT _partition, _version, count(*), sum(hash(`+cols+`)) FROM "_strata"."`+table+`" GROUP BY ALL`)
	}
	if err := rows.Err(); err != nil || len(out) == 0 {
		b.Fatalf("storage tables: %v (%d)", err, len(out))
	}
	return out
}

// BenchmarkReviewPromoteRollback5y promotes every staged version of the
// five-year fixture in one transaction, then rolls all of it back in one.
func BenchmarkReviewPromoteRollback5y(b *testing.B) {
	ctx := context.Background()
	var promote, rollback []time.Duration
	for b.Loop() {
		b.StopTimer()
		eng, _, id, closeFn := reviewFixture(b)
		b.StartTimer()
		start := time.Now()
		res, err := eng.PromoteBackfill(ctx, id, engine.PromoteOptions{Override: true})
		if err != nil {
			b.Fatal(err)
		}
		promote = append(promote, time.Since(start))
		start = time.Now()
		n, err := eng.RollbackBackfill(ctx, id)
		if err != nil || n != res.Versions {
			b.Fatalf("rollback %d of %d: %v", n, res.Versions, err)
		}
		rollback = append(rollback, time.Since(start))
		b.StopTimer()
		closeFn()
		b.StartTimer()
	}
	slices.Sort(promote)
	slices.Sort(rollback)
	b.ReportMetric(float64(promote[len(promote)/2])/1e6, "promote-ms")
	b.ReportMetric(float64(rollback[len(rollback)/2])/1e6, "rollback-ms")
}
