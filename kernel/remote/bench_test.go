package remote

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/kerneltest"
	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/kernel/supervisor"
)

// workerEnv makes the test binary a worker process (what `strata worker`
// runs): "URL SLOTS NAME".
const workerEnv = "STRATA_REMOTE_TEST_WORKER"

func serveIfWorker() {
	spec := os.Getenv(workerEnv)
	if spec == "" {
		return
	}
	f := strings.Fields(spec)
	slots, _ := strconv.Atoi(f[1])
	nc, err := nats.Connect(f[0], ConnectOptions(f[2], nats.Token(testToken))...)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	kernels := supervisor.NewPool(kerneltest.Config(), slots)
	a, err := NewAgent(nc, testSettings(), AgentConfig{Slots: slots, ID: f[2], Version: "bench"}, kernels)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, os.Interrupt)
	defer stop()
	_ = a.Run(ctx)
	kernels.Close()
	nc.Close()
	os.Exit(0)
}

// workerProcs starts procs worker processes with slots between them and
// waits until the pool counts every slot.
func workerProcs(b *testing.B, ns *server.Server, p *Pool, procs, slots int) {
	b.Helper()
	for i := 0; i < procs; i++ {
		n := slots / procs
		if i < slots%procs {
			n++
		}
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%s %d bench-w%d", workerEnv, ns.ClientURL(), n, i))
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { _ = cmd.Process.Signal(syscall.SIGTERM); _ = cmd.Wait() })
	}
	deadline := time.Now().Add(30 * time.Second)
	for p.Size() < slots || len(p.Workers().Live(time.Now())) < procs {
		if time.Now().After(deadline) {
			b.Fatalf("workers did not come up: %d slots of %d", p.Size(), slots)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// execAll runs n copies of req, at most conc at once, and fails on any error.
func execAll(b *testing.B, ex Executor, req *protocol.ExecRequest, n, conc int) {
	b.Helper()
	sem := make(chan struct{}, conc)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var first error
	for i := 0; i < n; i++ {
		sem <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			res, _, err := ex.Exec(context.Background(), req, nil, &recorder{})
			if err == nil && res.Error != nil {
				err = res.Error
			}
			if err != nil {
				mu.Lock()
				first = err
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if first != nil {
		b.Fatal(first)
	}
}

var sleepBlock = `func Load(ctx *sdk.Context) (*sdk.Table, error) {
	time.Sleep(50 * time.Millisecond)
	t := sdk.NewTable(sdk.Int64("x"))
	t.Append(int64(1))
	return t, nil
}`

// BenchmarkScaleOutThroughput: blocks that wait 50 ms (I/O, remote
// compute), on S worker slots spread over P worker processes, against this
// machine's pool of S kernels in the same run. ratio_to_linear is tasks/s
// over S/50ms; remote_vs_local divides the remote figure by the local one.
// Target >= 0.8x linear.
func BenchmarkScaleOutThroughput(b *testing.B) {
	for _, c := range []struct{ slots, procs int }{{1, 1}, {2, 1}, {2, 2}, {4, 2}, {4, 4}, {8, 2}, {8, 4}} {
		b.Run(fmt.Sprintf("slots=%d/procs=%d", c.slots, c.procs), func(b *testing.B) {
			ns := natsServer(b)
			p := newPool(b, ns)
			workerProcs(b, ns, p, c.procs, c.slots)
			local := supervisor.NewPool(kerneltest.Config(), c.slots)
			defer local.Close()
			req := block(sleepBlock)
			tasks := 8 * c.slots
			execAll(b, local, req, c.slots, c.slots) // warm every kernel
			execAll(b, p, req, 2*c.slots, c.slots)
			var remote, here time.Duration
			for b.Loop() {
				t0 := time.Now()
				execAll(b, p, req, tasks, 4*c.slots) // the engine keeps more in flight than there are slots
				remote += time.Since(t0)
				t1 := time.Now()
				execAll(b, local, req, tasks, 4*c.slots)
				here += time.Since(t1)
			}
			linear := float64(c.slots) / 0.050
			rr := float64(tasks*b.N) / remote.Seconds()
			lr := float64(tasks*b.N) / here.Seconds()
			b.ReportMetric(rr, "remote_tasks/s")
			b.ReportMetric(lr, "local_tasks/s")
			b.ReportMetric(rr/linear, "ratio_to_linear")
			b.ReportMetric(lr/linear, "local_ratio_to_linear")
			b.ReportMetric(rr/lr, "remote_vs_local")
		})
	}
}

// BenchmarkRemoteOverhead: a trivial block run one at a time, through a
// worker process over TCP loopback vs this machine's warm kernel. Target:
// added_p50_ms <= 1.
func BenchmarkRemoteOverhead(b *testing.B) {
	ns := natsServer(b)
	p := newPool(b, ns)
	workerProcs(b, ns, p, 1, 1)
	local := supervisor.NewPool(kerneltest.Config(), 1)
	defer local.Close()
	req := block(`func Load(ctx *sdk.Context) (*sdk.Table, error) { t := sdk.NewTable(sdk.Int64("x")); t.Append(int64(1)); return t, nil }`)
	var lr, ll []time.Duration
	one := func(ex Executor) time.Duration {
		t0 := time.Now()
		res, _, err := ex.Exec(context.Background(), req, nil, &recorder{})
		if err != nil || res.Error != nil {
			b.Fatal(err, res)
		}
		return time.Since(t0)
	}
	for i := 0; i < 20; i++ { // warm both
		one(p)
		one(local)
	}
	for b.Loop() {
		lr = append(lr, one(p))
		ll = append(ll, one(local))
	}
	pr, pl := p50(lr), p50(ll)
	b.ReportMetric(ms(pr), "remote_p50_ms")
	b.ReportMetric(ms(pl), "local_p50_ms")
	b.ReportMetric(ms(pr-pl), "added_p50_ms")
	b.ReportMetric(ms(pct(lr, 0.99)), "remote_p99_ms")
}

// BenchmarkCoordinatorRSS64MiB: 8 worker slots (4 processes) each return a
// 64 MiB output, through the object store, to this process (the
// coordinator: pool and embedded server) under GOMEMLIMIT 512 MiB; it
// reports this process's peak RSS during the round.
func BenchmarkCoordinatorRSS64MiB(b *testing.B) {
	old := debug.SetMemoryLimit(512 << 20)
	defer debug.SetMemoryLimit(old)
	ns := natsServer(b)
	p := newPool(b, ns)
	workerProcs(b, ns, p, 4, 8)
	req := block(`func Load(ctx *sdk.Context) (*sdk.Table, error) {
	row := strings.Repeat("x", 1008)
	t := sdk.NewTable(sdk.String("s"))
	c := t.Columns()[0]
	c.Reserve(65536)
	for i := 0; i < 65536; i++ {
		c.AppendString(row)
	}
	return t, nil
}`)
	req.Source = strings.Replace(req.Source, "import (", "import (\n\t\"strings\"", 1)
	var peak int64
	for b.Loop() {
		resetPeakRSS()
		execAll(b, p, req, 8, 8)
		peak = max(peak, peakRSS())
	}
	b.ReportMetric(float64(peak>>20), "peak_rss_MiB")
	b.SetBytes(8 * 64 << 20)
}

func p50(d []time.Duration) time.Duration { return pct(d, 0.5) }

func pct(d []time.Duration, q float64) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[int(float64(len(s)-1)*q)]
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// resetPeakRSS restarts VmHWM (Linux: writing 5 to clear_refs).
func resetPeakRSS() { _ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) }

// peakRSS is VmHWM in bytes (0 where /proc is missing).
func peakRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmHWM:") {
			kb, _ := strconv.ParseInt(strings.Fields(l)[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}

var _ = sdk.NewTable
