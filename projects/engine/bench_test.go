package engine

import (
	"context"
	"os"
	"runtime"
	"strconv"
	"testing"
	"time"
)

// BenchmarkDemoRun: `strata run demo clv --partition …` through the engine
// with warm kernels: every block of the demo for one day, published.
func BenchmarkDemoRun(b *testing.B) {
	e := newEnv(b, true, nil)
	e.run("clv", "2024-03-10") // warm the kernels
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res := e.run("clv", "2024-03-10")
		if res.State != StateSucceeded {
			b.Fatal(res.Error)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/run")
}

// BenchmarkOrchestration: block runs per second end to end through real
// kernel processes, for blocks that do almost nothing: a dynamic block fans
// out to N trivial children (target >= 1,000 block runs/s on 2 cores).
func BenchmarkOrchestration(b *testing.B) {
	n := envInt("STRATA_BENCH_CHILDREN", 5000)
	e := newEnv(b, false, fanFiles(n, ""))
	e.run("fan", "2024-01-01")
	b.ResetTimer()
	var ms runtime.MemStats
	for i := 0; i < b.N; i++ {
		res := e.run("fan", "2024-01-01")
		if res.State != StateSucceeded {
			b.Fatal(res.Error)
		}
	}
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(n+2)*float64(b.N)/b.Elapsed().Seconds(), "blockruns/s")
	b.ReportMetric(float64(ms.HeapSys>>20), "heap-MiB")
}

// BenchmarkDemoBackfill: the demo backfill with default settings over a
// quarter (STRATA_BENCH_DAYS=1827 for all of 2020-2024).
func BenchmarkDemoBackfill(b *testing.B) {
	days := envInt("STRATA_BENCH_DAYS", 91)
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		e := newEnv(b, true, nil)
		b.StartTimer()
		start := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
		st, err := e.eng.Launch(context.Background(), BackfillSpec{Pipeline: "clv", From: "2020-01-01", To: start.AddDate(0, 0, days-1).Format("2006-01-02")})
		if err != nil {
			b.Fatal(err)
		}
		st, _ = e.eng.Wait(context.Background(), st.ID)
		if st.State != StateSucceeded {
			b.Fatal(st.Message)
		}
	}
	b.ReportMetric(float64(days)*float64(b.N)/b.Elapsed().Seconds(), "partitions/s")
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/backfill")
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}
