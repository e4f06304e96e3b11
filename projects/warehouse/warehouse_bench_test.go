package warehouse

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"
)

// Run with: go test -bench . -run XXX -benchtime 2s ./projects/warehouse/
// Each benchmark uses b.Loop, so its setup runs once per benchmark.

const benchRows = 1_000_000

// BenchmarkPublishRows publishes 1,000,000 rows x 4 columns (int64, float64,
// string, time) into one partition per op: the whole Publish, from the
// strata_rows insert to COMMIT.
func BenchmarkPublishRows(b *testing.B) {
	wh := openTemp(b)
	ctx := context.Background()
	tbl := bigTable(benchRows, 1, false)
	i := 0
	for b.Loop() {
		key := day("2024-01-01").AddDate(0, 0, i).Format("2006-01-02")
		i++
		if _, err := wh.Publish(ctx, []Output{out("facts", key, tbl)}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(benchRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkCreateTableAsBaseline is DuckDB writing the same shape of rows on
// its own (CREATE TABLE AS SELECT from range()), in the same kind of file:
// the ceiling for BenchmarkPublishRows.
func BenchmarkCreateTableAsBaseline(b *testing.B) {
	wh := openTemp(b)
	ctx := context.Background()
	i := 0
	for b.Loop() {
		q := fmt.Sprintf(`CREATE TABLE baseline_%d AS SELECT
			range AS id, range * 0.25 AS amount, 'customer-' || (range %% 5000) AS customer,
			to_timestamp(1710028800 + range) AS ts
			FROM range(%d)`, i, benchRows)
		i++
		if _, err := wh.DB().ExecContext(ctx, q); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(benchRows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// BenchmarkPublishSmall publishes 300 rows with lineage into a partition that
// already has versions: new version, current switched, retention deleting
// the oldest version, one transaction.
func BenchmarkPublishSmall(b *testing.B) {
	republish := func(b *testing.B, cas bool, share int) {
		wh := openTemp(b)
		if share > 0 {
			defer wh.ShareCores(share)()
		}
		ctx := context.Background()
		o := out("small", "2024-03-10", bigTable(300, 1, false))
		o.Upstream = map[string]map[string]int{"orders": {"2024-03-10": 4}, "customers": {"2024-03-10": 2}}
		current := 0
		publish := func() {
			if cas { // a backfill's compare-and-set on the version it planned against
				o.BasedOn, o.IfCurrent = current, true
			}
			vs, err := wh.Publish(ctx, []Output{o})
			if err != nil {
				b.Fatal(err)
			}
			current = vs[0].Version
		}
		for range 5 { // past the retention window, so every op deletes one
			publish()
		}
		var took []time.Duration
		for b.Loop() {
			start := time.Now()
			publish()
			took = append(took, time.Since(start))
		}
		b.ReportMetric(b.Elapsed().Seconds()*1000/float64(b.N), "ms/op")
		reportP50(b, took)
	}
	// Replace and retain: a new version, the current one switched, the
	// oldest deleted, in one transaction (the target: p50 ≤ 5 ms).
	b.Run("republish", func(b *testing.B) { republish(b, false, 0) })
	// The same, as a backfill publishes: compare-and-set on the current
	// version (it must cost nothing more).
	b.Run("republish_cas", func(b *testing.B) { republish(b, true, 0) })
	// And with the threads a backfill of concurrency 4 gives each
	// statement (warehouse_threads.go).
	b.Run("republish_cas_in_backfill", func(b *testing.B) { republish(b, true, 4) })
	// A backfill's common case: the first version of a new partition.
	b.Run("new_partition", func(b *testing.B) {
		wh := openTemp(b)
		ctx := context.Background()
		tbl := bigTable(300, 1, false)
		i := 0
		var took []time.Duration
		for b.Loop() {
			key := day("2019-01-01").AddDate(0, 0, i).Format("2006-01-02")
			i++
			o := out("small", key, tbl)
			o.Upstream = map[string]map[string]int{"orders": {key: 1}}
			start := time.Now()
			if _, err := wh.Publish(ctx, []Output{o}); err != nil {
				b.Fatal(err)
			}
			took = append(took, time.Since(start))
		}
		b.ReportMetric(b.Elapsed().Seconds()*1000/float64(b.N), "ms/op")
		reportP50(b, took)
	})
}

// BenchmarkPreview100 reads one partition (limit 100) of a product with
// 1,826 daily partitions x 3 versions of 300 rows (1.6M rows), as the UI's
// preview does. The fixture is written with bulk SQL into the layout
// Publish creates.
func BenchmarkPreview100(b *testing.B) {
	wh := openTemp(b)
	ctx := context.Background()
	buildPreviewFixture(b, wh)
	var durations []time.Duration
	i := 0
	for b.Loop() {
		key := day("2019-01-01").AddDate(0, 0, (i*7919)%1826).Format("2006-01-02")
		i++
		start := time.Now()
		tbl, err := wh.Read(ctx, "preview", Selection{Partitions: []string{key}}, 100)
		if err != nil {
			b.Fatal(err)
		}
		durations = append(durations, time.Since(start))
		if tbl.Len() != 100 {
			b.Fatalf("read %d rows, want 100", tbl.Len())
		}
	}
	slices.Sort(durations)
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(durations[len(durations)/2]), "p50-ms")
	b.ReportMetric(ms(durations[len(durations)*99/100]), "p99-ms")
}

// buildPreviewFixture rewrites the catalog behind the writer's back, so the
// warehouse must only be read afterwards.
func buildPreviewFixture(b *testing.B, wh *Warehouse) {
	b.Helper()
	ctx := context.Background()
	tbl := bigTable(300, 0, false)
	// One real publish creates the storage table, the registry row and the view.
	if _, err := wh.Publish(ctx, []Output{out("preview", "2019-01-01", tbl)}); err != nil {
		b.Fatal(err)
	}
	storage := storageTableName("preview", tbl.Schema())
	schema := encodeSchema(tbl.Schema())
	stmts := []string{
		`DELETE FROM ` + qualified(storage),
		`DELETE FROM _strata.versions`,
		// Versions were written one backfill after another: v1 of every day,
		// then v2, then v3.
		`INSERT INTO ` + qualified(storage) + `
			SELECT strftime(DATE '2019-01-01' + d.range::INTEGER, '%Y-%m-%d'), v.range, d.range * 1000 + r.range,
				r.range * 0.25, 'customer-' || r.range, TIMESTAMPTZ '2019-01-01 00:00:00+00' + to_seconds(r.range)
			FROM range(1, 4) v, range(1826) d, range(300) r
			ORDER BY v.range, d.range, r.range`,
		`INSERT INTO _strata.versions
			SELECT 'preview', strftime(DATE '2019-01-01' + d.range::INTEGER, '%Y-%m-%d'),
				(DATE '2019-01-01' + d.range::INTEGER)::TIMESTAMPTZ, (DATE '2019-01-02' + d.range::INTEGER)::TIMESTAMPTZ,
				v.range, 'run-' || v.range, 'code', '{}'::JSON, 300, '` + schema + `'::JSON, now(), '` + storage + `', v.range = 3
			FROM range(1, 4) v, range(1826) d`,
		`CHECKPOINT`,
	}
	for _, s := range stmts {
		if _, err := wh.DB().ExecContext(ctx, s); err != nil {
			b.Fatalf("%s: %v", s, err)
		}
	}
	if n := scalar(b, wh, `SELECT count(*) FROM preview`); n != 1826*300 {
		b.Fatalf("fixture view has %d rows", n)
	}
}

// reportP50 reports the median of took as p50-ms.
func reportP50(b *testing.B, took []time.Duration) {
	if len(took) == 0 {
		return
	}
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
}

// BenchmarkContentHash is the content hash a publish computes (in Go,
// content_hash.go) for the 1,000,000 rows x 4 columns of
// BenchmarkPublishRows: its share of that publish.
func BenchmarkContentHash(b *testing.B) {
	tbl := bigTable(benchRows, 1, false)
	schema := tbl.Schema()
	for b.Loop() {
		_ = contentHash(tbl, schema)
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/op")
}
