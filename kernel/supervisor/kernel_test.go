package supervisor

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/protocol"
)

func startKernel(t *testing.T) *Kernel {
	t.Helper()
	k, err := Start(context.Background(), testConfig())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(k.Close)
	return k
}

func loadReq(body string) *protocol.ExecRequest {
	src := "package b\n\nimport (\n\t\"fmt\"\n\n\t\"github.com/stratahq/strata/blocks/sdk\"\n)\n\nvar _ = fmt.Sprint\n\n" + body
	day := time.Date(2024, 3, 10, 0, 0, 0, 0, time.UTC)
	return &protocol.ExecRequest{Filename: "b.go", Source: src, Timeout: 5 * time.Second,
		Partition: protocol.PartitionWire{Key: "2024-03-10", Start: day, End: day.AddDate(0, 0, 1), Interval: "day", Zone: "UTC"}}
}

func mustRun(t *testing.T, k *Kernel, req *protocol.ExecRequest, h Handler) *sdk.Table {
	t.Helper()
	res, out := k.Exec(context.Background(), req, nil, h)
	if res.Error != nil {
		t.Fatalf("run failed: %v", res.Error)
	}
	return out
}

// A changed block in a warm kernel behaves like a fresh run, and package
// state never leaks from one run into the next.
func TestWarmKernelRerunIsFresh(t *testing.T) {
	t.Parallel()
	k := startKernel(t)
	v1 := loadReq(`func Load(ctx *sdk.Context) (*sdk.Table, error) { t := sdk.NewTable(sdk.Int64("v")); t.Append(1); return t, nil }`)
	v2 := loadReq(`func Load(ctx *sdk.Context) (*sdk.Table, error) { t := sdk.NewTable(sdk.String("w")); t.Append("two"); return t, nil }`)
	if got := mustRun(t, k, v1, &collect{}).Column("v").Int64s()[0]; got != 1 {
		t.Fatalf("v1 = %d", got)
	}
	out := mustRun(t, k, v2, &collect{})
	if out.Column("v") != nil || out.Column("w").Strings()[0] != "two" {
		t.Fatalf("changed block kept old output: %v", out.Schema())
	}
	counter := loadReq(`var calls int

func Load(ctx *sdk.Context) (*sdk.Table, error) { calls++; t := sdk.NewTable(sdk.Int64("calls")); t.Append(calls); return t, nil }`)
	for i := 0; i < 3; i++ {
		if got := mustRun(t, k, counter, &collect{}).Column("calls").Int64s()[0]; got != 1 {
			t.Fatalf("run %d saw package state of an earlier run: calls = %d", i+1, got)
		}
	}
}

// After a crash, a timeout or an interrupt, the next run on a new kernel works.
func TestPoolRecoversAfterFailures(t *testing.T) {
	t.Parallel()
	pool := NewPool(testConfig(), 1)
	defer pool.Close()
	ok := loadReq(`func Load(ctx *sdk.Context) (*sdk.Table, error) { t := sdk.NewTable(sdk.Int64("x")); t.Append(7); return t, nil }`)
	crash := loadReq(`func Load(ctx *sdk.Context) (*sdk.Table, error) {
	go func() { var p *sdk.Table; _ = p.Len() + 1; panic("boom") }()
	select {}
}`)
	spin := loadReq(`func Load(ctx *sdk.Context) (*sdk.Table, error) { for { } }`)
	spin.Timeout = 300 * time.Millisecond
	for _, bad := range []*protocol.ExecRequest{crash, spin} {
		res, _, err := pool.Exec(context.Background(), bad, nil, &collect{})
		if err != nil || res.Error == nil {
			t.Fatalf("bad block did not fail: %v %+v", err, res)
		}
		res, out, err := pool.Exec(context.Background(), ok, nil, &collect{})
		if err != nil || res.Error != nil || out.Column("x").Int64s()[0] != 7 {
			t.Fatalf("run after a failure: %v %+v", err, res.Error)
		}
	}
}

func TestInterruptStopsARun(t *testing.T) {
	t.Parallel()
	// A long grace: under -race on a loaded machine the cooperative stop
	// took longer than the default 500ms, and the kernel was killed.
	cfg := testConfig()
	cfg.Grace = 10 * time.Second
	k, err := Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(k.Close)
	wait := loadReq(`func Load(ctx *sdk.Context) (*sdk.Table, error) { <-ctx.Done(); return nil, ctx.Err() }`)
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	res, _ := k.Exec(ctx, wait, nil, &collect{})
	if res.Error == nil || res.Error.Kind != protocol.ErrInterrupted {
		t.Fatalf("want interrupted, got %+v", res.Error)
	}
	if _, err := k.Ping(context.Background()); err == nil && k.Alive() {
		return // the block stopped by itself; the kernel stays usable
	}
	t.Fatal("kernel should survive a cooperative interrupt")
}

// ctx.Query and ctx.Product travel to the coordinator and back.
func TestHostCalls(t *testing.T) {
	t.Parallel()
	k := startKernel(t)
	h := &collect{answer: func(c *protocol.HostCall) (*sdk.Table, error) {
		t := sdk.NewTable(sdk.String("what"), sdk.Int64("n"))
		t.Append(c.Method+":"+c.SQL+c.Product, int64(c.Window.Last))
		return t, nil
	}}
	req := loadReq(`func Load(ctx *sdk.Context) (*sdk.Table, error) {
	q, err := ctx.Query("SELECT 1")
	if err != nil {
		return nil, err
	}
	p, err := ctx.Product("daily_customer_metrics", sdk.Last(7))
	if err != nil {
		return nil, err
	}
	ctx.Log.Info("got", "query", q.Column("what").Strings()[0])
	return p, nil
}`)
	out := mustRun(t, k, req, h)
	if got := out.Column("what").Strings()[0]; got != "product:daily_customer_metrics" || out.Column("n").Int64s()[0] != 7 {
		t.Fatalf("product answer = %q %d", got, out.Column("n").Int64s()[0])
	}
	if len(h.calls) != 2 || !strings.Contains(strings.Join(h.logLines(), ""), "query=query:SELECT 1") {
		t.Fatalf("calls %d, logs %q", len(h.calls), h.logLines())
	}
}

func TestStdoutIsCapturedPerRun(t *testing.T) {
	t.Parallel()
	k := startKernel(t)
	req := loadReq(`func Load(ctx *sdk.Context) (*sdk.Table, error) { fmt.Println("hello", ctx.Partition.Key); return sdk.NewTable(sdk.Int64("x")), nil }`)
	for i := 0; i < 2; i++ {
		h := &collect{}
		res, _ := k.Exec(context.Background(), req, nil, h)
		if res.Stdout != "hello 2024-03-10\n" || h.stdout.String() != res.Stdout {
			t.Fatalf("run %d stdout = %q, streamed %q", i, res.Stdout, h.stdout.String())
		}
	}
}

func TestPing(t *testing.T) {
	t.Parallel()
	k := startKernel(t)
	if _, err := k.Ping(context.Background()); err != nil {
		t.Fatal(err)
	}
	k.Kill()
	if _, err := k.Ping(context.Background()); err == nil {
		t.Fatal("ping of a killed kernel succeeded")
	}
}

// A kernel process that dies before it is ready is reported at once, with
// its exit status and what it wrote to stderr, not after the start deadline.
func TestKernelDyingBeforeReadySaysWhy(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := Start(ctx, Config{Command: []string{"sh", "-c", "echo cannot load the interpreter >&2; exit 7"}})
	if err == nil || !strings.Contains(err.Error(), "kernel exited before ready: exit status 7: cannot load the interpreter") {
		t.Fatalf("start of a kernel that exits at once: %v", err)
	}
}

// A kernel whose result cannot be read (a corrupt frame) is stopped and
// the run fails at once as a crash that says why; it used to wait for the
// run's timeout, the stream out of step and the process still up.
func TestUnreadableResultEndsTheRun(t *testing.T) {
	t.Parallel()
	k, err := Start(context.Background(), Config{Command: []string{os.Args[0]}, Env: []string{"STRATA_KERNEL_CHILD=garbled"}})
	if err != nil {
		t.Fatal(err)
	}
	defer k.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	start := time.Now()
	res, _ := k.Exec(ctx, loadReq(`func Load(ctx *sdk.Context) (*sdk.Table, error) { return sdk.NewTable(), nil }`), nil, &collect{})
	if res.Error == nil || res.Error.Kind != protocol.ErrCrash || !strings.Contains(res.Error.Message, "could not be read") {
		t.Fatalf("after %v: %+v", time.Since(start), res.Error)
	}
	if k.Alive() {
		t.Fatal("the kernel is still taken for alive")
	}
}
