package remote

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/build"
	"github.com/stratahq/strata/kernel/kerneltest"
	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/kernel/supervisor"
)

// countingNatives is kernel/build's pools, counting the binaries started.
type countingNatives struct {
	pools    *build.Pools
	acquired atomic.Int64
}

func (c *countingNatives) Acquire(path string) (Executor, func()) {
	c.acquired.Add(1)
	return c.pools.Acquire(&build.Worker{Path: path})
}

// runAgent runs a worker with its own settings and config until the test
// ends.
func runAgent(t testing.TB, ns *server.Server, s Settings, cfg AgentConfig) {
	t.Helper()
	kernels := supervisor.NewPool(kerneltest.Config(), cfg.Slots)
	a, err := NewAgent(connect(t, ns, cfg.ID), s, cfg, kernels)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = a.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done; kernels.Close() })
}

const shippedBlock = `func Transform(ctx *sdk.Context, in *sdk.Table) (*sdk.Table, error) {
	out := sdk.NewTable(sdk.Int64("v"), sdk.String("s"))
	sum := int64(0)
	for i, v := range in.Column("v").Int64s() {
		sum += v * v
		out.Append(sum, fmt.Sprintf("%d:%x", i, sum))
	}
	fmt.Println("rows", out.Len())
	return out, nil
}`

// The coordinator builds once and ships the binary: a worker of the same
// platform fetches it by hash, keeps it, and runs the block compiled; a
// worker that runs interpreted only, or is given a build for another
// platform, runs the shipped source interpreted and says so. The outputs
// are the same either way.
func TestCompiledBuildShippedToWorkers(t *testing.T) {
	tc, err := build.FindToolchain()
	if err != nil {
		t.Skip(err)
	}
	req := block(shippedBlock)
	req.Inputs = []string{"in"}
	w, err := build.Build(context.Background(), build.Options{Dir: t.TempDir(), Tool: tc}, []build.Block{{File: req.Filename, Source: req.Source}})
	if err != nil || len(w.Failed) > 0 {
		t.Fatalf("build: %v %v", err, w.Failed)
	}
	in := sdk.NewTable(sdk.Int64("v"))
	for i := int64(0); i < 50; i++ {
		in.Append(i * 7)
	}

	ns := natsServer(t)
	exec := func(s Settings, cfg AgentConfig, platform string) (*protocol.Result, *sdk.Table, *recorder) {
		t.Helper()
		p, err := NewPool(context.Background(), connect(t, ns, "coordinator-"+s.Pool), s)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(p.Close)
		runAgent(t, ns, s, cfg)
		c, err := p.Compiled(context.Background(), w.Hash, w.Path)
		if err != nil {
			t.Fatal(err)
		}
		if platform != "" {
			c.ref.Platform = platform
		}
		h := &recorder{}
		res, out, err := c.Exec(context.Background(), req, []*sdk.Table{in}, h)
		if err != nil || res.Error != nil {
			t.Fatalf("exec on %s: %v %+v", cfg.ID, err, res.Error)
		}
		return res, out, h
	}

	natives := &countingNatives{pools: build.NewPools(supervisor.Config{}, 1)}
	t.Cleanup(natives.pools.Close)
	bins := t.TempDir()
	s := testSettings()
	s.Pool = "native"
	res, compiled, _ := exec(s, AgentConfig{Slots: 1, ID: "w-native", Natives: natives, BinDir: bins}, "")
	if res.Engine != EngineCompiled || res.Worker != "w-native" || natives.acquired.Load() != 1 {
		t.Fatalf("native worker: engine %q worker %q, %d builds started; want compiled on w-native", res.Engine, res.Worker, natives.acquired.Load())
	}
	kept, err := os.ReadFile(filepath.Join(bins, "worker-"+w.Hash))
	built, _ := os.ReadFile(w.Path)
	if err != nil || string(kept) != string(built) {
		t.Fatalf("the worker's copy of the build: %v (%d bytes, built %d)", err, len(kept), len(built))
	}

	s.Pool = "interp"
	res, interp, h := exec(s, AgentConfig{Slots: 1, ID: "w-interp"}, "")
	if res.Engine != EngineInterp || !strings.Contains(strings.Join(h.out, "|"), "ran interpreted on worker w-interp") {
		t.Fatalf("interpreted-only worker: engine %q, output %q", res.Engine, h.out)
	}
	if d := diffTables(compiled, interp); d != "" {
		t.Fatalf("compiled and interpreted outputs differ: %s", d)
	}

	s.Pool = "foreign"
	res, foreign, h := exec(s, AgentConfig{Slots: 1, ID: "w-other", Natives: natives, BinDir: t.TempDir()}, "plan9/mips")
	if res.Engine != EngineInterp || !strings.Contains(strings.Join(h.out, "|"), "is for plan9/mips") {
		t.Fatalf("build for another platform: engine %q, output %q", res.Engine, h.out)
	}
	if d := diffTables(compiled, foreign); d != "" {
		t.Fatalf("outputs differ: %s", d)
	}
}

func diffTables(a, b *sdk.Table) string {
	x, err1 := protocol.AppendTable(nil, a)
	y, err2 := protocol.AppendTable(nil, b)
	if err1 != nil || err2 != nil {
		return "encode: " + errString(err1) + errString(err2)
	}
	if string(x) != string(y) {
		return "encoded tables differ"
	}
	return ""
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// With --artifacts, inputs and outputs above the message limit go through
// the shared folder, referenced by size and digest, and nothing goes
// through the object store; the files are deleted once read. A process
// without the folder says what is missing instead of guessing.
func TestLargePayloadsUseArtifactsFolder(t *testing.T) {
	ns := natsServer(t)
	s := testSettings()
	s.Artifacts = t.TempDir()
	p, err := NewPool(context.Background(), connect(t, ns, "coordinator"), s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	runAgent(t, ns, s, AgentConfig{Slots: 1, ID: "w1"})
	req := block(`func Transform(ctx *sdk.Context, in *sdk.Table) (*sdk.Table, error) { return in, nil }`)
	req.Inputs = []string{"in"}
	in := sdk.NewTable(sdk.String("s"))
	row := strings.Repeat("y", 1000)
	for i := 0; i < 3000; i++ {
		in.Append(row)
	}
	// Watch the folder while the task is out: its input must be a file there.
	sawFile := make(chan string, 1)
	stop := make(chan struct{})
	go func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			ents, _ := os.ReadDir(filepath.Join(s.Artifacts, "strata-test"))
			for _, e := range ents {
				if strings.HasPrefix(e.Name(), "task_") && !strings.HasSuffix(e.Name(), ".tmp") {
					select {
					case sawFile <- e.Name():
					default:
					}
				}
			}
		}
	}()
	res, out, err := p.Exec(context.Background(), req, []*sdk.Table{in}, &recorder{})
	close(stop)
	if err != nil || res.Error != nil {
		t.Fatalf("exec: %v %+v", err, res.Error)
	}
	if out.Len() != 3000 || out.Column("s").Strings()[2999] != row {
		t.Fatalf("output of %d rows, want 3000 equal to the input", out.Len())
	}
	select {
	case name := <-sawFile:
		t.Logf("input travelled as %s", name)
	default:
		t.Fatal("the task's input never appeared in the artifacts folder")
	}
	js, _ := jetstream.New(connect(t, ns, "check"))
	obs, err := js.ObjectStore(context.Background(), "strata_blobs_test")
	if err != nil {
		t.Fatal(err)
	}
	if info, _ := obs.Status(context.Background()); info.Size() != 0 {
		t.Fatalf("the object store holds %d bytes: want nothing there with --artifacts", info.Size())
	}
	waitEmpty(t, filepath.Join(s.Artifacts, "strata-test"))

	// A process given no folder cannot read an artifact reference.
	m := nats.NewMsg("x")
	m.Header.Set(artifactHeader, "task_1 2000000 00")
	if _, _, err := (&payloads{}).unpack(context.Background(), m.Header, nil); err == nil || !strings.Contains(err.Error(), "--artifacts") {
		t.Fatalf("artifact without a folder: %v, want it to name --artifacts", err)
	}
}

func waitEmpty(t *testing.T, dir string) {
	t.Helper()
	for i := 0; ; i++ {
		ents, _ := os.ReadDir(dir)
		if len(ents) == 0 {
			return
		}
		if i == 250 {
			t.Fatalf("files left in %s: %d (first %s)", dir, len(ents), ents[0].Name())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// What shipping the build buys on a worker: a CPU-bound block (3M loop
// iterations) run through the remote pool compiled (the shipped build) and
// interpreted, alternately in the same run, one worker slot each. Reported:
// ms per run of each and their ratio.
func BenchmarkShippedCompiledVsInterp(b *testing.B) {
	tc, err := build.FindToolchain()
	if err != nil {
		b.Skip(err)
	}
	req := block(`func Transform(ctx *sdk.Context) (*sdk.Table, error) {
	x := uint64(1)
	for i := 0; i < 3000000; i++ {
		x = x*6364136223846793005 + uint64(i)
	}
	out := sdk.NewTable(sdk.Int64("v"))
	out.Append(int64(x >> 1))
	return out, nil
}`)
	w, err := build.Build(context.Background(), build.Options{Dir: b.TempDir(), Tool: tc}, []build.Block{{File: req.Filename, Source: req.Source}})
	if err != nil || len(w.Failed) > 0 {
		b.Fatalf("build: %v %v", err, w.Failed)
	}
	ns := natsServer(b)
	natives := &countingNatives{pools: build.NewPools(supervisor.Config{}, 1)}
	b.Cleanup(natives.pools.Close)
	execs := map[string]func() (*protocol.Result, *sdk.Table, error){}
	for _, mode := range []string{EngineCompiled, EngineInterp} {
		s := testSettings()
		s.Pool = mode
		p, err := NewPool(context.Background(), connect(b, ns, "coordinator-"+mode), s)
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(p.Close)
		cfg := AgentConfig{Slots: 1, ID: "w-" + mode}
		if mode == EngineCompiled {
			cfg.Natives, cfg.BinDir = natives, b.TempDir()
		}
		runAgent(b, ns, s, cfg)
		c, err := p.Compiled(context.Background(), w.Hash, w.Path)
		if err != nil {
			b.Fatal(err)
		}
		execs[mode] = func() (*protocol.Result, *sdk.Table, error) {
			return c.Exec(context.Background(), req, nil, &recorder{})
		}
	}
	run := func(mode string) (time.Duration, int64) {
		start := time.Now()
		res, out, err := execs[mode]()
		if err != nil || res.Error != nil || res.Engine != mode {
			b.Fatalf("%s: %v %+v engine %q", mode, err, res.Error, res.Engine)
		}
		return time.Since(start), out.Column("v").Int64s()[0]
	}
	// Warm: the build fetched, both kernels started.
	_, vc := run(EngineCompiled)
	if _, vi := run(EngineInterp); vi != vc {
		b.Fatalf("compiled gave %d, interpreted %d", vc, vi)
	}
	var tc2, ti time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		d, _ := run(EngineCompiled)
		tc2 += d
		d, _ = run(EngineInterp)
		ti += d
	}
	b.ReportMetric(float64(tc2.Milliseconds())/float64(b.N), "ms/compiled")
	b.ReportMetric(float64(ti.Milliseconds())/float64(b.N), "ms/interp")
	b.ReportMetric(float64(ti)/float64(tc2), "interp/compiled")
}
