package engine

import (
	"context"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
)

// BenchmarkPlanRollups: a dry-run plan (reprocess stale, first page of 50)
// of 365 days × 500 customers × 20 regions with a week × customer × region
// rollup reading its days: every day and every week seeded current, the
// week's version recording the 7 days it read, 10% of the days stale by
// code (so their weeks run). Reported: ms per plan, its process CPU and
// peak heap. STRATA_BENCH_CUSTOMERS and STRATA_BENCH_REGIONS shrink it.
func BenchmarkPlanRollups(b *testing.B) {
	customers := envInt("STRATA_BENCH_CUSTOMERS", 500)
	regions := envInt("STRATA_BENCH_REGIONS", 20)
	const days = 365
	files := planCellsFiles(customers, regions)
	files["pipelines/weeks.yaml"] = strings.Replace(files["pipelines/cells.yaml"], "blocks:\n  - id: load\n",
		"blocks:\n  - id: load\n  - id: weekly\n    upstream: [load]\n    partitions: {interval: week}\n", 1)
	files["blocks/weekly.sql"] = "SELECT count(*) AS n FROM load"
	e := newEnv(b, false, files)
	ctx := context.Background()
	seedPlanCells(b, e, "weeks", days, customers, regions)
	pl, err := e.eng.Pipeline("weeks")
	if err != nil {
		b.Fatal(err)
	}
	hashes, err := CodeHashes(e.dir, pl)
	if err != nil {
		b.Fatal(err)
	}
	// Each week × customer × region read its days in the range.
	if _, err := e.wh.DB().Exec(fmt.Sprintf(`INSERT INTO _strata.versions (product, partition, partition_start, partition_end, version, run_id, code_hash,
		upstream, row_count, schema, created_at, storage_table, is_current)
		SELECT 'weeks__weekly', strftime(w, '%%G-W%%V') || '|c' || c || '|r' || r, w, w + INTERVAL 7 DAY, 1, 'seed', '%s',
			'{"weeks__load": {' || string_agg('"' || strftime(d, '%%Y-%%m-%%d') || '|c' || c || '|r' || r || '": 1', ', ' ORDER BY d) || '}}',
			1, '[]', now(), 'seed', true
		FROM range(0, ?) t(i), range(0, ?) cs(c), range(0, ?) rs(r),
			LATERAL (SELECT TIMESTAMPTZ '2024-01-01 00:00:00+00' + to_days(i::INTEGER) AS d),
			LATERAL (SELECT date_trunc('week', d) AS w)
		GROUP BY w, c, r`, hashes["weekly"]), days, customers, regions); err != nil {
		b.Fatal(err)
	}
	spec := BackfillSpec{Pipeline: "weeks", From: "2024-01-01", To: "2024-12-30", Reprocess: ReprocessStale}
	cells := days * customers * regions
	b.ResetTimer()
	var wall, cpu time.Duration
	var peak uint64
	for i := 0; i < b.N; i++ {
		runtime.GC()
		stop := samplePeakHeap()
		t0, c0 := time.Now(), processCPU()
		p, err := e.eng.Plan(ctx, spec, 0, 50)
		wall += time.Since(t0)
		cpu += processCPU() - c0
		peak = max(peak, stop())
		if err != nil {
			b.Fatal(err)
		}
		if p.Total != cells || p.ToRun < cells/11 || p.ToRun > cells/9 || len(p.Rollups) == 0 || p.RollupsByState["current"] == 0 {
			b.Fatalf("plan: total %d, to run %d, rollups %v (%d listed); want %d cells, about 10%% to run, current rollups", p.Total, p.ToRun, p.RollupsByState, len(p.Rollups), cells)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(wall.Milliseconds())/float64(b.N), "ms/plan")
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/plan")
	b.ReportMetric(float64(peak>>20), "peak-heap-MiB")
}
