package replay

import (
	"context"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/stratahq/strata/kernel/build"
	"github.com/stratahq/strata/kernel/kerneltest"
	"github.com/stratahq/strata/kernel/supervisor"
	"github.com/stratahq/strata/projects/engine"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/scaffold"
	"github.com/stratahq/strata/projects/warehouse"
)

// BenchmarkReplayVsBackfill365 is issue 28's speed figure: the demo
// pipeline backfilled over 365 days with compiled workers, then the same
// 365 stored days replayed (unchanged code: every partition compared),
// reported as seconds each and their ratio (replay/backfill; the target is
// 1.5 or less). The compiled build is warmed by one run first, so neither
// side pays for it.
func BenchmarkReplayVsBackfill365(b *testing.B) {
	if _, err := build.FindToolchain(); err != nil {
		b.Skip("no Go toolchain: replays and backfills would both run interpreted")
	}
	var backfill, replay time.Duration
	for i := 0; i < b.N; i++ {
		bf, rp := replayVsBackfill(b)
		backfill += bf
		replay += rp
	}
	b.ReportMetric(backfill.Seconds()/float64(b.N), "backfill-s")
	b.ReportMetric(replay.Seconds()/float64(b.N), "replay-s")
	b.ReportMetric(replay.Seconds()/backfill.Seconds(), "replay/backfill")
}

func replayVsBackfill(b *testing.B) (time.Duration, time.Duration) {
	b.StopTimer()
	defer b.StartTimer()
	ctx := context.Background()
	dir := filepath.Join(b.TempDir(), "proj")
	if err := scaffold.Init(dir, true); err != nil {
		b.Fatal(err)
	}
	proj, err := project.Load(dir)
	if proj == nil {
		b.Fatal(err)
	}
	wh, err := warehouse.Open(ctx, filepath.Join(dir, ".strata", "warehouse.duckdb"), warehouse.Options{Retention: proj.Retention})
	if err != nil {
		b.Fatal(err)
	}
	size := max(2, runtime.NumCPU())
	pool := supervisor.NewPool(kerneltest.Config(), size)
	compiler := build.NewCompiler(dir, kerneltest.Config(), size)
	eng, err := engine.New(ctx, proj, wh, pool, engine.Options{Compiler: compiler})
	if err != nil {
		b.Fatal(err)
	}
	defer func() {
		eng.Shutdown(ctx)
		eng.Close()
		compiler.Close()
		pool.Close()
		_ = wh.Close()
	}()
	// Warm the compiled build (both sides run the same sources).
	if res, err := eng.Run(ctx, "clv", "2023-12-31", engine.RunOptions{Engine: engine.EngineCompiled}); err != nil || res.State != engine.StateSucceeded {
		b.Fatalf("warm-up run: %v %+v", err, res)
	}
	start := time.Now()
	st, err := eng.Launch(ctx, engine.BackfillSpec{Pipeline: "clv", From: "2024-01-01", To: "2024-12-30", Engine: engine.EngineCompiled})
	if err == nil {
		st, err = eng.Wait(ctx, st.ID)
	}
	if err != nil || st.State != engine.StateSucceeded {
		b.Fatalf("backfill: %v %+v", err, st)
	}
	backfill := time.Since(start)
	start = time.Now()
	rep, err := Run(ctx, eng, Options{Pipeline: "clv", From: "2024-01-01", To: "2024-12-30", Engine: engine.EngineCompiled}, nil)
	if err != nil {
		b.Fatal(err)
	}
	replay := time.Since(start)
	if rep.Counts.Failed+rep.Counts.Changed != 0 || rep.Counts.Unchanged < 365 {
		b.Fatalf("replay counts %+v", rep.Counts)
	}
	return backfill, replay
}
