package build

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/kerneltest"
	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/kernel/supervisor"
)

const scoreSrc = `package score

import "github.com/stratahq/strata/blocks/sdk"

func Transform(ctx *sdk.Context, in *sdk.Table) (*sdk.Table, error) {
	ids := in.Column("id").Int64s()
	amounts := in.Column("amount").Float64s()
	scores := make([]float64, len(ids))
	for i := 0; i < len(ids); i++ {
		s := amounts[i] * 1.1
		if ids[i]%3 == 0 {
			s = s + 5
		}
		scores[i] = s
	}
	out := sdk.NewTable()
	out.AddColumn(sdk.Int64sFrom("id", ids, nil))
	out.AddColumn(sdk.Float64sFrom("score", scores, nil))
	return out, nil
}
`

// nativeScore is scoreSrc called in-process: the baseline.
func nativeScore(ctx *sdk.Context, in *sdk.Table) (*sdk.Table, error) {
	ids := in.Column("id").Int64s()
	amounts := in.Column("amount").Float64s()
	scores := make([]float64, len(ids))
	for i := 0; i < len(ids); i++ {
		s := amounts[i] * 1.1
		if ids[i]%3 == 0 {
			s = s + 5
		}
		scores[i] = s
	}
	out := sdk.NewTable()
	out.AddColumn(sdk.Int64sFrom("id", ids, nil))
	out.AddColumn(sdk.Float64sFrom("score", scores, nil))
	return out, nil
}

// BenchmarkTransform100kCompiled: a Transform over 100,000 rows through a
// compiled worker (the kernel protocol both ways, encoding included) against
// the same function called in-process, and the interpreter, in one run.
// compiled/native is the protocol's cost (target <= 1.5x);
// isolation-floor/native is the least a design that passes the tables
// through shared memory can reach (isolation_floor_bench_test.go), and
// copy-once-floor/native the least any that copies them at all.
func BenchmarkTransform100kCompiled(b *testing.B) {
	tc := toolchain(b)
	ids := make([]int64, 100_000)
	amounts := make([]float64, len(ids))
	for i := range ids {
		ids[i], amounts[i] = int64(i), float64(i%97)
	}
	in := sdk.NewTable()
	in.AddColumn(sdk.Int64sFrom("id", ids, nil))
	in.AddColumn(sdk.Float64sFrom("amount", amounts, nil))
	req := &protocol.ExecRequest{Filename: "score.go", Source: scoreSrc, Inputs: []string{"in"}, Timeout: time.Minute}
	w, err := Build(context.Background(), Options{Dir: b.TempDir(), Tool: tc}, []Block{{File: req.Filename, Source: req.Source}})
	if err != nil || len(w.Failed) > 0 {
		b.Fatal(err, w.Failed)
	}
	kc, err := supervisor.Start(context.Background(), supervisor.Config{Command: []string{w.Path}})
	if err != nil {
		b.Fatal(err)
	}
	defer kc.Close()
	ki, err := supervisor.Start(context.Background(), kerneltest.Config())
	if err != nil {
		b.Fatal(err)
	}
	defer ki.Close()
	for _, k := range []*supervisor.Kernel{kc, ki} { // warm: the interpreter caches the program
		if res, _ := k.Exec(context.Background(), req, []*sdk.Table{in}, &collect{}); res.Error != nil {
			b.Fatal(res.Error)
		}
	}
	ctx := sdk.NewContext(context.Background(), sdk.ContextConfig{})
	// floor is the least any process boundary costs: the input's and the
	// output's bytes copied once each (into memory the other process
	// reads), with nothing else. native+floor over native is the best
	// ratio a design that copies each way once can reach, set beside
	// compiled/native so that the target is judged against it.
	inBytes := make([]byte, 16*len(ids))
	outBytes := make([]byte, 16*len(ids))
	src := make([]byte, 16*len(ids))
	var nat, comp, interp, floor time.Duration
	var natCPU, compCPU, workCPU int64 // CPU time of this process (and the worker), ns
	worker := kc.PID()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		// The worker's CPU is read from /proc outside the windows that
		// measure this process's: reading it costs this process (a glob
		// and a file per thread, more than a run's own CPU), and was once
		// counted as the protocol's.
		c0 := selfCPU()
		start := time.Now()
		if _, err := nativeScore(ctx, in); err != nil {
			b.Fatal(err)
		}
		nat += time.Since(start)
		start = time.Now()
		copy(inBytes, src)
		copy(outBytes, src)
		floor += time.Since(start)
		c1 := selfCPU()
		natCPU += c1 - c0
		w1 := cpuNanos(worker)
		c1 = selfCPU()
		start = time.Now()
		res, out := kc.Exec(context.Background(), req, []*sdk.Table{in}, &collect{})
		comp += time.Since(start)
		c2 := selfCPU()
		w2 := cpuNanos(worker)
		workCPU += w2 - w1
		compCPU += c2 - c1 + w2 - w1
		if res.Error != nil || out.Len() != in.Len() {
			b.Fatal(res.Error)
		}
	}
	// The interpreter runs in a loop of its own: interleaved, its kernel's
	// GC after each 35 ms run took one of the two cores from the next
	// compiled run and doubled its wall time (10.8 against 5.0 ms).
	for i := 0; i < b.N; i++ {
		start := time.Now()
		res, out := ki.Exec(context.Background(), req, []*sdk.Table{in}, &collect{})
		interp += time.Since(start)
		if res.Error != nil || out.Len() != in.Len() {
			b.Fatal(res.Error)
		}
	}
	// Last, on its own: its worker busy-waits, and would take a core from
	// the runs above.
	iso, isoNat := isolationFloor(b, ids, amounts, b.N)
	n := float64(b.N)
	b.ReportMetric(float64(iso.Microseconds())/n/1000, "isolation-floor-ms")
	b.ReportMetric(float64(iso)/float64(isoNat), "isolation-floor/native")
	b.ReportMetric(float64(comp)/float64(iso), "compiled/isolation-floor")
	b.ReportMetric(float64(nat.Microseconds())/n/1000, "native-ms")
	b.ReportMetric(float64(comp.Microseconds())/n/1000, "compiled-ms")
	b.ReportMetric(float64(interp.Microseconds())/n/1000, "interp-ms")
	b.ReportMetric(float64(comp)/float64(nat), "compiled/native")
	b.ReportMetric(float64(nat+floor)/float64(nat), "copy-once-floor/native")
	b.ReportMetric(float64(interp)/float64(comp), "interp/compiled")
	if natCPU > 0 && compCPU > 0 {
		// CPU time is what the work costs whatever else runs on the
		// machine; wall time on a loaded machine is mostly waiting for a
		// core at each of the handoffs between the two processes.
		b.ReportMetric(float64(natCPU)/n/1e6, "native-cpu-ms")
		b.ReportMetric(float64(compCPU)/n/1e6, "compiled-cpu-ms")
		b.ReportMetric(float64(workCPU)/n/1e6, "worker-cpu-ms")
		b.ReportMetric(float64(compCPU)/float64(natCPU), "compiled/native-cpu")
	}
}

// selfCPU is the CPU time this process's threads have run (user and
// system, getrusage), in nanoseconds; one system call.
func selfCPU() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// cpuNanos is the CPU time pid's threads have run, from Linux's
// /proc/PID/task/*/schedstat (nanoseconds); 0 elsewhere.
func cpuNanos(pid int) int64 {
	tasks, _ := filepath.Glob("/proc/" + strconv.Itoa(pid) + "/task/*/schedstat")
	var sum int64
	for _, f := range tasks {
		b, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		if fs := strings.Fields(string(b)); len(fs) > 0 {
			v, _ := strconv.ParseInt(fs[0], 10, 64)
			sum += v
		}
	}
	return sum
}

// BenchmarkBuild: a project of the demo's shape (five Go blocks): a warm
// rebuild after one block changes (target <= 0.5 s) and a cold build of a
// new build folder with a warm Go build cache (target <= 2 s).
func BenchmarkBuild(b *testing.B) {
	tc := toolchain(b)
	blocks := func(v int) []Block {
		var out []Block
		for _, name := range []string{"raw_orders", "clv", "segments", "segment_stats", "segment_report"} {
			src := strings.Replace(scoreSrc, "package score", "package "+name, 1)
			if name == "clv" {
				src += "\nconst version = " + itoa(v) + "\n"
			}
			out = append(out, Block{File: "blocks/" + name + "/" + name + ".go", Source: src})
		}
		return out
	}
	// Warm the Go build cache for this toolchain and flag set.
	if _, err := Build(context.Background(), Options{Dir: b.TempDir(), Tool: tc}, blocks(0)); err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	var warm, cold time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		w, err := Build(context.Background(), Options{Dir: b.TempDir(), Tool: tc}, blocks(0))
		cold += time.Since(start)
		if err != nil || w.Cached {
			b.Fatal(err, w)
		}
		if _, err := Build(context.Background(), Options{Dir: dir, Tool: tc}, blocks(2*i+1)); err != nil {
			b.Fatal(err)
		}
		start = time.Now()
		w, err = Build(context.Background(), Options{Dir: dir, Tool: tc}, blocks(2*i+2)) // one block changed
		warm += time.Since(start)
		if err != nil || w.Cached {
			b.Fatal(err, w)
		}
	}
	b.ReportMetric(warm.Seconds()/float64(b.N), "warm-rebuild-s")
	b.ReportMetric(cold.Seconds()/float64(b.N), "cold-build-s")
}

func itoa(i int) string { return strconv.Itoa(i) }
