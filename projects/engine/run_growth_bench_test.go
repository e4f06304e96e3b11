package engine

import (
	"context"
	"slices"
	"testing"
	"time"
)

// BenchmarkRunGrowth measures whether one partition's run of the demo
// pipeline costs more on a large warehouse: the same run (interpreted, a new
// day after the range) on a project backfilled over 7 days and on one
// backfilled over STRATA_BENCH_GROWTH_DAYS (default 365) days, measured
// alternately in the same run. growth-x is the large/small ratio of the
// p50s; 1.0 means the per-run cost does not grow with the warehouse.
func BenchmarkRunGrowth(b *testing.B) {
	ctx := context.Background()
	days := envInt("STRATA_BENCH_GROWTH_DAYS", 365)
	backfilled := func(n int) *env {
		e := newCompiledEnv(b, true, nil)
		to := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, n-1).Format("2006-01-02")
		st, err := e.eng.Launch(ctx, BackfillSpec{Pipeline: "clv", From: "2020-01-01", To: to, Reprocess: ReprocessAll, Engine: EngineInterp})
		if err != nil {
			b.Fatal(err)
		}
		if st, _ = e.eng.Wait(ctx, st.ID); st.State != StateSucceeded {
			b.Fatalf("backfill of %d days: %s %s", n, st.State, st.Message)
		}
		return e
	}
	envs := []*env{backfilled(7), backfilled(days)}
	took := [2][]time.Duration{}
	i := 0
	for b.Loop() {
		key := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, i).Format("2006-01-02")
		i++
		for j, e := range envs {
			start := time.Now()
			res, err := e.eng.Run(ctx, "clv", key, RunOptions{Engine: EngineInterp})
			if err != nil {
				b.Fatal(err)
			}
			if res.State != StateSucceeded {
				b.Fatalf("run %s: %s", key, res.State)
			}
			took[j] = append(took[j], time.Since(start))
		}
	}
	p50 := func(d []time.Duration) float64 {
		d = slices.Clone(d)
		slices.Sort(d)
		return float64(d[len(d)/2].Microseconds()) / 1000
	}
	b.ReportMetric(p50(took[0]), "run-7d-p50-ms")
	b.ReportMetric(p50(took[1]), "run-large-p50-ms")
	b.ReportMetric(p50(took[1])/p50(took[0]), "growth-x")
}
