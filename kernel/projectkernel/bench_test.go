package projectkernel

import (
	"context"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/stratahq/strata/kernel/build"
	"github.com/stratahq/strata/kernel/modtest"
	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/kernel/supervisor"
)

func benchProject(b *testing.B) (string, *build.Toolchain) {
	b.Helper()
	tc, err := build.FindToolchain()
	if err != nil {
		b.Skip(err)
	}
	return modtest.Project(b, "../testdata/modules"), tc
}

// BenchmarkProjectKernelExec is an editor run of a cell importing a module
// on a built project kernel (the cell is cached by the kernel after its
// first run, as an editor re-run is): p50-ms is the median.
func BenchmarkProjectKernelExec(b *testing.B) {
	dir, tc := benchProject(b)
	k, err := Build(context.Background(), Options{Dir: filepath.Join(dir, ".strata", "kernel"), Project: dir, Tool: tc}, Imports(uuidBlock))
	if err != nil {
		b.Fatal(err)
	}
	sk, err := supervisor.Start(context.Background(), supervisor.Config{Command: k.Command()})
	if err != nil {
		b.Fatal(err)
	}
	defer sk.Close()
	req := &protocol.ExecRequest{Filename: "blocks/b/b.go", Source: uuidBlock}
	if res, _ := sk.Exec(context.Background(), req, nil, discard{}); res.Error != nil {
		b.Fatal(res.Error)
	}
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		res, _ := sk.Exec(context.Background(), req, nil, discard{})
		times = append(times, time.Since(start))
		if res.Error != nil {
			b.Fatal(res.Error)
		}
	}
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "p50-ms")
}

// BenchmarkProjectKernelBuild times the builds a user meets, with the
// module cache warm: the first kernel in a new build folder (cold-s), then
// one more import (add-one-s), then the same set again (reused-s, no go
// command). Run with -benchtime=1x.
func BenchmarkProjectKernelBuild(b *testing.B) {
	dir, tc := benchProject(b)
	ctx := context.Background()
	for i := 0; i < b.N; i++ {
		opt := Options{Dir: filepath.Join(b.TempDir(), "kernel"), Project: dir, Tool: tc}
		k, err := Build(ctx, opt, []string{"github.com/google/uuid"})
		if err != nil {
			b.Fatal(err)
		}
		k2, err := Build(ctx, opt, []string{"github.com/google/uuid", "github.com/shopspring/decimal"})
		if err != nil {
			b.Fatal(err)
		}
		k3, err := Build(ctx, opt, []string{"github.com/google/uuid", "github.com/shopspring/decimal"})
		if err != nil || !k3.Cached {
			b.Fatal("unchanged set rebuilt", err)
		}
		b.ReportMetric(k.Duration.Seconds(), "cold-s")
		b.ReportMetric(k2.Duration.Seconds(), "add-one-s")
		b.ReportMetric(k3.Duration.Seconds(), "reused-s")
	}
}
