package engine

import (
	"context"
	"runtime"
	"testing"
	"time"
)

// BenchmarkLaunchCells: launching a backfill of 365 days × 500 customers
// × 20 regions (3.65 million cells, reprocess stale): the time and peak
// heap until its first run starts (launch-ms: Launch returned;
// first-run-ms: the first run's event is written). first launches over an
// empty catalog (a first backfill: every cell missing); again over a
// seeded one (a re-backfill: every cell has a version, 10% stale, so
// every cell is in the recorded plan). STRATA_BENCH_CUSTOMERS and
// STRATA_BENCH_REGIONS shrink it.
func BenchmarkLaunchCells(b *testing.B) {
	b.Run("first", func(b *testing.B) { benchLaunchCells(b, false) })
	b.Run("again", func(b *testing.B) { benchLaunchCells(b, true) })
}

func benchLaunchCells(b *testing.B, seeded bool) {
	customers := envInt("STRATA_BENCH_CUSTOMERS", 500)
	regions := envInt("STRATA_BENCH_REGIONS", 20)
	const days = 365
	e := newEnv(b, false, planCellsFiles(customers, regions))
	ctx := context.Background()
	if seeded {
		seedPlanCells(b, e, "cells", days, customers, regions)
	}
	b.ResetTimer()
	var launch, first time.Duration
	var peak uint64
	for i := 0; i < b.N; i++ {
		runtime.GC()
		stop := samplePeakHeap()
		t0 := time.Now()
		st, err := e.eng.Launch(ctx, BackfillSpec{Pipeline: "cells", From: "2024-01-01", To: "2024-12-30", Reprocess: ReprocessStale, Concurrency: 1, AllowOverlap: true})
		if err != nil {
			b.Fatal(err)
		}
		launch += time.Since(t0)
		for {
			var n int
			if err := e.wh.DB().QueryRow(`SELECT count(*) FROM _strata.run_events WHERE run_id LIKE ? || ':%'`, st.ID).Scan(&n); err != nil {
				b.Fatal(err)
			}
			if n > 0 {
				break
			}
			time.Sleep(20 * time.Millisecond)
		}
		first += time.Since(t0)
		peak = max(peak, stop())
		if err := e.eng.Cancel(ctx, st.ID); err != nil {
			b.Fatal(err)
		}
		if _, err := e.eng.Wait(ctx, st.ID); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(launch.Milliseconds())/float64(b.N), "launch-ms")
	b.ReportMetric(float64(first.Milliseconds())/float64(b.N), "first-run-ms")
	b.ReportMetric(float64(peak>>20), "peak-heap-MiB")
}
