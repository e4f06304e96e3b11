package engine

import (
	"context"
	"os"
	"runtime"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/stratahq/strata/kernel/build"
	"github.com/stratahq/strata/projects/warehouse"
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
// quarter (STRATA_BENCH_DAYS=1827 for all of 2020-2024), interpreted, or
// with compiled workers when STRATA_BENCH_ENGINE=compiled (built before the
// timer starts), to profile one engine alone.
func BenchmarkDemoBackfill(b *testing.B) {
	days := envInt("STRATA_BENCH_DAYS", 91)
	engine := os.Getenv("STRATA_BENCH_ENGINE")
	var cpu time.Duration
	var commits int64
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		e := newEnv(b, true, nil)
		if engine == EngineCompiled {
			if _, err := build.FindToolchain(); err != nil {
				b.Skip(err)
			}
			e = newCompiledEnv(b, true, nil)
			if _, err := e.eng.Run(context.Background(), "clv", "2020-01-01", RunOptions{Engine: engine}); err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
		cpu0, commits0 := processCPU(), e.wh.Commits()
		start := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
		st, err := e.eng.Launch(context.Background(), BackfillSpec{Pipeline: "clv", From: "2020-01-01", To: start.AddDate(0, 0, days-1).Format("2006-01-02"), Reprocess: ReprocessAll, Engine: engine})
		if err != nil {
			b.Fatal(err)
		}
		st, _ = e.eng.Wait(context.Background(), st.ID)
		if st.State != StateSucceeded {
			b.Fatal(st.Message)
		}
		checkpoint(b, e.wh)
		cpu += processCPU() - cpu0
		commits += e.wh.Commits() - commits0
	}
	b.ReportMetric(float64(days)*float64(b.N)/b.Elapsed().Seconds(), "partitions/s")
	// Write transactions per day run (the weeks' runs included): each
	// costs a BEGIN/COMMIT, most of a small partition's writing.
	b.ReportMetric(float64(commits)/float64(days*b.N), "commits/day")
	b.ReportMetric(b.Elapsed().Seconds()/float64(b.N), "s/backfill")
	// On a shared machine the wall time follows the load; the CPU the
	// engine process spends (DuckDB included, kernel processes not) does
	// much less.
	b.ReportMetric(cpu.Seconds()/float64(b.N), "engine-cpu-s/backfill")
	// How many cores the engine process kept busy: about 1 on a quiet
	// 2-core machine says the backfill waits on a serial path (the single
	// writer's group commits, docs/performance.md), not on the CPU.
	b.ReportMetric(cpu.Seconds()/b.Elapsed().Seconds(), "engine-cores")
}

// processCPU is the user and system time this process has used so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkDemoBackfillEngines: the demo backfill (default settings) over
// STRATA_BENCH_DAYS days from 2020-01-01 (default 91; 1827 is all of
// 2020-2024) with compiled workers, with the interpreter, and the same work
// as one plain Go program with duckdb-go (baselineBackfill), all in the same
// run. The ratios are the figures to watch: compiled/baseline is Strata's
// overhead, interp/compiled what native speed buys. The baseline runs twice:
// with DuckDB's defaults, as a plain program would, and with the settings
// Strata's backfills run DuckDB with (the threads warehouse.ShareCores gives
// each statement), so that the overhead is also shown without that
// setting's gain. Every run's time includes the
// checkpoint of what it wrote.
func BenchmarkDemoBackfillEngines(b *testing.B) {
	if _, err := build.FindToolchain(); err != nil {
		b.Skip(err)
	}
	days := envInt("STRATA_BENCH_DAYS", 91)
	to := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, days-1).Format("2006-01-02")
	var base, baseShared, comp, interp, compCPU time.Duration
	backfill := func(engine string) time.Duration {
		e := newCompiledEnv(b, true, nil)
		if engine == EngineCompiled { // the build is reported apart (BenchmarkBuild*)
			if _, err := e.eng.Run(context.Background(), "clv", "2020-01-01", RunOptions{Engine: engine}); err != nil {
				b.Fatal(err)
			}
		}
		start, cpu0 := time.Now(), processCPU()
		st, err := e.eng.Launch(context.Background(), BackfillSpec{Pipeline: "clv", From: "2020-01-01", To: to, Reprocess: ReprocessAll, Engine: engine})
		if err != nil {
			b.Fatal(err)
		}
		st, _ = e.eng.Wait(context.Background(), st.ID)
		if st.State != StateSucceeded || st.Progress.Engine != engine {
			b.Fatalf("%s backfill: %s (engine %q) %s", engine, st.State, st.Progress.Engine, st.Message)
		}
		checkpoint(b, e.wh)
		if engine == EngineCompiled {
			compCPU += processCPU() - cpu0
		}
		return time.Since(start)
	}
	for i := 0; i < b.N; i++ {
		start := time.Now()
		baselineBackfill(b, b.TempDir(), days, false)
		base += time.Since(start)
		start = time.Now()
		baselineBackfill(b, b.TempDir(), days, true)
		baseShared += time.Since(start)
		comp += backfill(EngineCompiled)
		interp += backfill(EngineInterp)
	}
	n := float64(b.N)
	b.ReportMetric(base.Seconds()/n, "baseline-s")
	b.ReportMetric(baseShared.Seconds()/n, "baseline-strata-settings-s")
	b.ReportMetric(float64(comp)/float64(baseShared), "compiled/baseline-strata-settings")
	b.ReportMetric(comp.Seconds()/n, "compiled-s")
	// The engine process's CPU in the compiled pass (DuckDB included, the
	// worker processes not): steadier than wall time on a shared machine.
	b.ReportMetric(compCPU.Seconds()/n, "compiled-engine-cpu-s")
	b.ReportMetric(interp.Seconds()/n, "interp-s")
	b.ReportMetric(float64(comp)/float64(base), "compiled/baseline")
	b.ReportMetric(float64(interp)/float64(comp), "interp/compiled")
	b.ReportMetric(float64(days)/(comp.Seconds()/n), "compiled-partitions/s")
}

// demoConcurrency is the demo pipeline's concurrency (its clv.yaml).
const demoConcurrency = 4

// checkpoint writes the WAL a run left (up to DuckDB's 16 MiB) into the
// database file, inside the timed window, as the baseline's Close does
// within its time.
func checkpoint(b *testing.B, wh *warehouse.Warehouse) {
	if err := wh.Checkpoint(context.Background()); err != nil {
		b.Fatal(err)
	}
}

func envInt(name string, def int) int {
	if v, err := strconv.Atoi(os.Getenv(name)); err == nil && v > 0 {
		return v
	}
	return def
}

// BenchmarkBackfillRewrite puts a rewrite pass beside the first pass of the
// same range (STRATA_BENCH_REWRITE_DAYS, default 365, of the small daily
// pipeline, retention 2): "first" writes every partition new; "rewrite" runs
// --reprocess all over a warehouse already at its retention, so every
// partition is replaced and its oldest version deleted. rewrite/first is the
// ratio the rewrite target (≤ 1.2x) is about.
func BenchmarkBackfillRewrite(b *testing.B) {
	days := envInt("STRATA_BENCH_REWRITE_DAYS", 365) // the range: the ratio grows with it (1.17 on 60 days, 1.31 on 365, before late retention)
	to := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).AddDate(0, 0, days-1).Format("2006-01-02")
	var first, rewrite, firstCPU, rewriteCPU time.Duration
	for b.Loop() {
		files := dailyFiles("")
		files["strata.yaml"] = "name: bench\nretention: 2\n"
		e := newEnv(b, false, files)
		s := BackfillSpec{Pipeline: "p", From: "2024-01-01", To: to, Concurrency: 4}
		pass := func(reprocess string, cpu *time.Duration) time.Duration {
			s.Reprocess = reprocess
			start, cpu0 := time.Now(), processCPU()
			if st := e.backfill(s); st.State != StateSucceeded {
				b.Fatalf("%s pass: %s %q", reprocess, st.State, st.Message)
			}
			checkpoint(b, e.wh)
			*cpu += processCPU() - cpu0
			return time.Since(start)
		}
		first += pass(ReprocessMissing, &firstCPU)
		var ignored time.Duration
		pass(ReprocessAll, &ignored) // reaches the retention: 2 versions kept
		rewrite += pass(ReprocessAll, &rewriteCPU)
		e.close()
	}
	n := float64(b.N)
	b.ReportMetric(first.Seconds()*1000/n, "first-ms")
	b.ReportMetric(rewrite.Seconds()*1000/n, "rewrite-ms")
	b.ReportMetric(rewrite.Seconds()/first.Seconds(), "rewrite/first")
	// The engine process's CPU, pass for pass: steadier than the wall
	// time on a shared machine.
	b.ReportMetric(rewriteCPU.Seconds()/firstCPU.Seconds(), "rewrite/first-cpu")
}
