package engine

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

// BenchmarkPlanCells: issue 27's scale figure. A dry-run plan (reprocess
// stale) over 365 days × 500 customers × 20 regions (3.65 million cells) of
// which 10% are stale, against the same plan over 365 one-dimensional days
// (10% stale) scaled by the cell count, in one run. The catalog is seeded
// with SQL (running 3.65 million cells is not the point here). Reported:
// ms per N-D plan, ns per cell for both, their ratio (1.0: a cell costs
// what a day costs), the N-D plan's process CPU time and its peak heap.
// STRATA_BENCH_CUSTOMERS and STRATA_BENCH_REGIONS shrink it.
func BenchmarkPlanCells(b *testing.B) {
	customers := envInt("STRATA_BENCH_CUSTOMERS", 500)
	regions := envInt("STRATA_BENCH_REGIONS", 20)
	const days = 365
	e := newEnv(b, false, planCellsFiles(customers, regions))
	ctx := context.Background()
	seedPlanCells(b, e, "cells", days, customers, regions)
	seedPlanCells(b, e, "days", days, 0, 0)
	spec := func(pl string) BackfillSpec {
		return BackfillSpec{Pipeline: pl, From: "2024-01-01", To: "2024-12-30", Reprocess: ReprocessStale}
	}
	cells := days * customers * regions
	check := func(p *Plan, err error, total int) {
		b.Helper()
		if err != nil {
			b.Fatal(err)
		}
		if p.Total != total || p.ToRun < total/11 || p.ToRun > total/9 {
			b.Fatalf("plan of %s: total %d, to run %d; want %d and about 10%% of it", p.Spec.Pipeline, p.Total, p.ToRun, total)
		}
	}
	b.ResetTimer()
	var nd, oned, ndCPU time.Duration
	var peak uint64
	for i := 0; i < b.N; i++ {
		t0 := time.Now()
		p, err := e.eng.Plan(ctx, spec("days"), 0, 50)
		oned += time.Since(t0)
		check(p, err, days)
		runtime.GC()
		stop := samplePeakHeap()
		t0, c0 := time.Now(), processCPU()
		p, err = e.eng.Plan(ctx, spec("cells"), 0, 50)
		nd += time.Since(t0)
		ndCPU += processCPU() - c0
		peak = max(peak, stop())
		check(p, err, cells)
	}
	b.StopTimer()
	perCell := float64(nd.Nanoseconds()) / float64(b.N*cells)
	perDay := float64(oned.Nanoseconds()) / float64(b.N*days)
	b.ReportMetric(float64(nd.Milliseconds())/float64(b.N), "ms/nd-plan")
	// CPU beside wall time: on a machine shared with other work the wall
	// time says more about the neighbours (the sampler and the GC count).
	b.ReportMetric(float64(ndCPU.Milliseconds())/float64(b.N), "cpu-ms/nd-plan")
	b.ReportMetric(perCell, "ns/cell")
	b.ReportMetric(perDay, "ns/1d-partition")
	b.ReportMetric(perCell/perDay, "cell/1d-ratio")
	b.ReportMetric(float64(peak>>20), "peak-heap-MiB")
}

// samplePeakHeap samples the heap in use until the returned stop is
// called, which returns the largest sample.
func samplePeakHeap() func() uint64 {
	var mu sync.Mutex
	var peak uint64
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	sample := func() {
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		mu.Lock()
		peak = max(peak, ms.HeapInuse)
		mu.Unlock()
	}
	go func() {
		defer wg.Done()
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				sample()
			}
		}
	}()
	return func() uint64 {
		close(done)
		wg.Wait()
		sample()
		return peak
	}
}

func planCellsFiles(customers, regions int) map[string]string {
	list := func(prefix string, n int) string {
		vs := make([]string, n)
		for i := range vs {
			vs[i] = fmt.Sprintf("%s%d", prefix, i)
		}
		return "[" + strings.Join(vs, ", ") + "]"
	}
	return map[string]string{
		"pipelines/days.yaml": `partitions: {interval: day, timezone: UTC, start: "2024-01-01"}
blocks:
  - id: load
`,
		"pipelines/cells.yaml": fmt.Sprintf(`partitions:
  interval: day
  timezone: UTC
  start: "2024-01-01"
  dimensions:
    - name: customer
      values: %s
    - name: region
      values: %s
blocks:
  - id: load
`, list("c", customers), list("r", regions)),
		"pipelines/reads.yaml": fmt.Sprintf(`partitions:
  interval: day
  timezone: UTC
  start: "2024-01-01"
  dimensions:
    - name: customer
      values: %s
    - name: region
      values: %s
blocks:
  - id: load
  - id: agg
    upstream: [load]
`, list("c", customers), list("r", regions)),
		"blocks/load.sql": "SELECT $partition_key AS k",
		"blocks/agg.sql":  "SELECT k FROM load",
	}
}

// BenchmarkPlanCellsReads is BenchmarkPlanCells where the pipeline has two
// blocks, agg reading load in its cell (as a backfill writes them: read
// version 0, same run), and 10% of the cells have load rewritten since
// (agg stale through what it read).
func BenchmarkPlanCellsReads(b *testing.B) {
	customers := envInt("STRATA_BENCH_CUSTOMERS", 500)
	regions := envInt("STRATA_BENCH_REGIONS", 20)
	const days = 365
	e := newEnv(b, false, planCellsFiles(customers, regions))
	ctx := context.Background()
	pl, err := e.eng.Pipeline("reads")
	if err != nil {
		b.Fatal(err)
	}
	hashes, err := CodeHashes(e.dir, pl)
	if err != nil {
		b.Fatal(err)
	}
	key := `strftime(d, '%Y-%m-%d') || '|c' || c || '|r' || r`
	from := `range(0, ?) t(i), LATERAL (SELECT TIMESTAMPTZ '2024-01-01 00:00:00+00' + to_days(i::INTEGER) AS d), range(0, ?) cs(c), range(0, ?) rs(r)`
	for _, q := range []string{
		fmt.Sprintf(`INSERT INTO _strata.versions (product, partition, partition_start, partition_end, version, run_id, code_hash,
		upstream, inputs, row_count, schema, created_at, storage_table, is_current)
		SELECT 'reads__load', %s, d, d + INTERVAL 1 DAY, 1, CASE WHEN (i + c + r) %% 10 = 0 THEN 'rewrite' ELSE 'seed' END, '%s',
			'{}', '[]', 1, '[]', now(), 'seed', true
		FROM %s`, key, hashes["load"], from),
		fmt.Sprintf(`INSERT INTO _strata.versions (product, partition, partition_start, partition_end, version, run_id, code_hash,
		upstream, inputs, row_count, schema, created_at, storage_table, is_current)
		SELECT 'reads__agg', %s, d, d + INTERVAL 1 DAY, 1, 'seed', '%s',
			'{"reads__load":{"' || %s || '":0}}', '["reads__load"]', 1, '[]', now(), 'seed', true
		FROM %s`, key, hashes["agg"], key, from),
	} {
		if _, err := e.wh.DB().Exec(q, days, customers, regions); err != nil {
			b.Fatalf("seed: %v", err)
		}
	}
	cells := days * customers * regions
	spec := BackfillSpec{Pipeline: "reads", From: "2024-01-01", To: "2024-12-30", Reprocess: ReprocessStale}
	b.ResetTimer()
	var nd, ndCPU time.Duration
	var peak uint64
	for i := 0; i < b.N; i++ {
		runtime.GC()
		stop := samplePeakHeap()
		t0, c0 := time.Now(), processCPU()
		p, err := e.eng.Plan(ctx, spec, 0, 50)
		nd += time.Since(t0)
		ndCPU += processCPU() - c0
		peak = max(peak, stop())
		if err != nil {
			b.Fatal(err)
		}
		if p.Total != cells || p.ToRun < cells/11 || p.ToRun > cells/9 {
			b.Fatalf("plan: total %d, to run %d; want %d and about 10%% of it", p.Total, p.ToRun, cells)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(nd.Milliseconds())/float64(b.N), "ms/nd-plan")
	b.ReportMetric(float64(ndCPU.Milliseconds())/float64(b.N), "cpu-ms/nd-plan")
	b.ReportMetric(float64(nd.Nanoseconds())/float64(b.N*cells), "ns/cell")
	b.ReportMetric(float64(peak>>20), "peak-heap-MiB")
}

// seedPlanCells writes a current version of every cell of pipeline's load
// product for days from 2024-01-01, with the block's code hash on 90% of
// them and another on the rest (stale).
func seedPlanCells(b *testing.B, e *env, pipeline string, days, customers, regions int) {
	b.Helper()
	pl, err := e.eng.Pipeline(pipeline)
	if err != nil {
		b.Fatal(err)
	}
	hashes, err := CodeHashes(e.dir, pl)
	if err != nil {
		b.Fatal(err)
	}
	key, from := `strftime(d, '%Y-%m-%d')`, `range(0, ?) t(i), LATERAL (SELECT TIMESTAMPTZ '2024-01-01 00:00:00+00' + to_days(i::INTEGER) AS d)`
	args := []any{days}
	if customers > 0 {
		key += ` || '|c' || c || '|r' || r`
		from += `, range(0, ?) cs(c), range(0, ?) rs(r)`
		args = append(args, customers, regions)
	} else {
		from += `, (SELECT 0 AS c, 0 AS r)`
	}
	q := fmt.Sprintf(`INSERT INTO _strata.versions (product, partition, partition_start, partition_end, version, run_id, code_hash,
		upstream, row_count, schema, created_at, storage_table, is_current)
		SELECT '%s__load', %s, d, d + INTERVAL 1 DAY, 1, 'seed', CASE WHEN (i + c + r) %% 10 = 0 THEN 'stale' ELSE '%s' END,
			'{}', 1, '[]', now(), 'seed', true
		FROM %s`, pipeline, key, hashes["load"], from)
	if _, err := e.wh.DB().Exec(q, args...); err != nil {
		b.Fatalf("seed %s: %v", pipeline, err)
	}
}
