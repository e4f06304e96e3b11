package remote

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/protocol"
)

// A block runs on a worker's kernel: inputs go out, the output, its stdout
// and logs come back, and ctx.Query is answered by the coordinator's handler.
func TestExecOnWorker(t *testing.T) {
	ns := natsServer(t)
	p := newPool(t, ns)
	startAgent(t, ns, "w1", 1)
	req := block(`func Transform(ctx *sdk.Context, in *sdk.Table) (*sdk.Table, error) {
	q, err := ctx.Query("SELECT 41")
	if err != nil {
		return nil, err
	}
	fmt.Println("rows in:", in.Len())
	ctx.Log.Printf("hello %d", q.Len())
	out := sdk.NewTable(sdk.Int64("v"))
	for _, v := range in.Column("v").Int64s() {
		out.Append(v + q.Column("x").Int64s()[0])
	}
	return out, nil
}`)
	req.Inputs = []string{"in"}
	in := sdk.NewTable(sdk.Int64("v"))
	in.Append(int64(1))
	in.Append(int64(2))
	reply := sdk.NewTable(sdk.Int64("x"))
	reply.Append(int64(41))
	h := &recorder{reply: reply}
	res, out, err := p.Exec(context.Background(), req, []*sdk.Table{in}, h)
	if err != nil || res.Error != nil {
		t.Fatalf("exec: %v %+v", err, res.Error)
	}
	if got := out.Column("v").Int64s(); len(got) != 2 || got[0] != 42 || got[1] != 43 {
		t.Fatalf("output %v, want [42 43]", got)
	}
	if res.Worker != "w1" {
		t.Fatalf("worker %q, want w1", res.Worker)
	}
	got := strings.Join(h.out, "|") // stdout and log lines travel apart in the kernel: either order
	if (got != "rows in: 2\n|log:hello 1" && got != "log:hello 1|rows in: 2\n") || len(h.calls) != 1 || h.calls[0] != "query:SELECT 41" {
		t.Fatalf("stream %q, host calls %q", h.out, h.calls)
	}
}

// Inputs and outputs above the message limit go through the object store,
// and their objects are deleted once read.
func TestLargePayloadsUseObjectStore(t *testing.T) {
	ns := natsServer(t)
	p := newPool(t, ns)
	startAgent(t, ns, "w1", 1)
	req := block(`func Transform(ctx *sdk.Context, in *sdk.Table) (*sdk.Table, error) { return in, nil }`)
	req.Inputs = []string{"in"}
	in := sdk.NewTable(sdk.String("s"))
	row := strings.Repeat("x", 1000)
	for i := 0; i < 3000; i++ { // about 3 MB each way
		in.Append(row)
	}
	res, out, err := p.Exec(context.Background(), req, []*sdk.Table{in}, &recorder{})
	if err != nil || res.Error != nil {
		t.Fatalf("exec: %v %+v", err, res.Error)
	}
	if out.Len() != 3000 || out.Column("s").Strings()[2999] != row {
		t.Fatalf("output of %d rows, want 3000 equal to the input", out.Len())
	}
	js, _ := jetstream.New(connect(t, ns, "check"))
	obs, err := js.ObjectStore(context.Background(), "strata_blobs_test")
	if err != nil {
		t.Fatal(err)
	}
	// The result's object is deleted once read, just after the Exec returns.
	deadline := time.Now().Add(5 * time.Second)
	for {
		list, _ := obs.List(context.Background())
		if len(list) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("objects left behind: %d (first %s)", len(list), list[0].Name)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// publishResult plays a worker that ran attempt and publishes its result.
func publishResult(t *testing.T, nc *nats.Conn, label string, attempt uint64, worker string, v int64) {
	t.Helper()
	out := sdk.NewTable(sdk.Int64("v"))
	out.Append(v)
	b, err := encodeFrame(&resultHeader{Label: label, Attempt: attempt, Worker: worker, Result: &protocol.Result{}}, out)
	if err != nil {
		t.Fatal(err)
	}
	js, _ := jetstream.New(nc)
	n, _ := namesFor("test")
	if _, err := js.Publish(context.Background(), n.resultSubjectOf(attempt), b, jetstream.WithMsgID(resultID(label, attempt, worker))); err != nil {
		t.Fatal(err)
	}
}

// takeTask plays a worker that fetches one task and never acks it.
func takeTask(t *testing.T, nc *nats.Conn) *taskHeader {
	t.Helper()
	js, _ := jetstream.New(nc)
	n, _ := namesFor("test")
	cons, err := js.Consumer(context.Background(), n.taskStream, n.workerConsumer)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 10; i++ {
		batch, err := cons.Fetch(1, jetstream.FetchMaxWait(time.Second))
		if err != nil {
			t.Fatal(err)
		}
		for m := range batch.Messages() {
			hdr := &taskHeader{}
			if _, err := decodeFrame(m.Data(), hdr); err != nil {
				t.Fatal(err)
			}
			return hdr
		}
	}
	t.Fatal("no task published")
	return nil
}

// Two workers ran the same attempt (a redelivered task): the first result
// decides, the second is counted as late and changes nothing; a result for
// an attempt nobody waits for any more is ignored too.
func TestFirstResultPerAttemptWins(t *testing.T) {
	ns := natsServer(t)
	p := newPool(t, ns)
	nc := connect(t, ns, "fake-workers")
	type got struct {
		res *protocol.Result
		out *sdk.Table
	}
	done := make(chan got, 1)
	go func() {
		res, out, err := p.Exec(context.Background(), block(`func Load(ctx *sdk.Context) (*sdk.Table, error) { return nil, nil }`), nil, &recorder{})
		if err != nil {
			t.Error(err)
		}
		done <- got{res, out}
	}()
	task := takeTask(t, nc)
	if task.Label != "run1/b" {
		t.Fatalf("task label %q", task.Label)
	}
	publishResult(t, nc, task.Label, task.Attempt-1, "ghost", 99) // an older attempt of this block
	publishResult(t, nc, task.Label, task.Attempt, "first", 1)
	g := <-done
	if g.res.Worker != "first" || g.out.Column("v").Int64s()[0] != 1 {
		t.Fatalf("decided by %q with %v, want the first result", g.res.Worker, g.out.Column("v").Int64s())
	}
	publishResult(t, nc, task.Label, task.Attempt, "second", 2) // same attempt, later
	deadline := time.Now().Add(5 * time.Second)
	for p.LateResults() < 2 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := p.LateResults(); n != 2 {
		t.Fatalf("late results %d, want 2 (the older attempt and the second copy)", n)
	}
}

// Attempts are unique per dispatch: a deliberate rerun of the same block
// is a new task, not a duplicate JetStream drops.
func TestRerunIsNewAttempt(t *testing.T) {
	ns := natsServer(t)
	p := newPool(t, ns)
	startAgent(t, ns, "w1", 1)
	req := block(`func Load(ctx *sdk.Context) (*sdk.Table, error) { t := sdk.NewTable(sdk.Int64("x")); t.Append(1); return t, nil }`)
	for i := 0; i < 3; i++ {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		res, _, err := p.Exec(ctx, req, nil, &recorder{})
		cancel()
		if err != nil || res.Error != nil {
			t.Fatalf("run %d: %v %+v", i+1, err, res)
		}
	}
}

// A worker that dies holding a task (never acks, never heartbeats) loses it
// when the lease expires; another worker runs it.
func TestLeaseExpiryRedelivers(t *testing.T) {
	ns := natsServer(t)
	p := newPool(t, ns)
	dead := connect(t, ns, "dies")
	done := make(chan *protocol.Result, 1)
	go func() {
		res, _, err := p.Exec(context.Background(), block(`func Load(ctx *sdk.Context) (*sdk.Table, error) { t := sdk.NewTable(sdk.Int64("x")); t.Append(5); return t, nil }`), nil, &recorder{})
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	takeTask(t, dead) // and never answers
	dead.Close()
	startAgent(t, ns, "w2", 1)
	select {
	case res := <-done:
		if res.Error != nil || res.Worker != "w2" {
			t.Fatalf("result %+v from %q, want success from w2", res.Error, res.Worker)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("task was not redelivered after its lease")
	}
}

// Cancelling an Exec stops the block on the worker (its kernel is
// interrupted) and the Exec returns an interrupted result.
func TestCancelReachesWorker(t *testing.T) {
	ns := natsServer(t)
	p := newPool(t, ns)
	a := startAgent(t, ns, "w1", 1)
	warm := block(`func Load(ctx *sdk.Context) (*sdk.Table, error) { return sdk.NewTable(), nil }`)
	if res, _, err := p.Exec(context.Background(), warm, nil, &recorder{}); err != nil || res.Error != nil {
		t.Fatalf("warm-up: %v %+v", err, res)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		for a.busy.Load() == 0 {
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(300 * time.Millisecond) // the block is spinning in the kernel
		cancel()
	}()
	start := time.Now()
	res, _, err := p.Exec(ctx, block(`func Load(ctx *sdk.Context) (*sdk.Table, error) { for { time.Sleep(time.Millisecond) } }`), nil, &recorder{})
	if err != nil || res.Error == nil || res.Error.Kind != protocol.ErrInterrupted {
		t.Fatalf("cancelled exec: %v %+v", err, res)
	}
	if res.Worker != "w1" {
		t.Fatalf("interrupted result from %q, want the worker's own (w1)", res.Worker)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Fatalf("cancel took %s", d)
	}
}

// A task every worker loses (MaxDeliver reached) fails its run with a
// reason, instead of waiting forever on a message no worker can see.
func TestMaxDeliverFailsRun(t *testing.T) {
	ns := natsServer(t)
	p := newPool(t, ns)
	done := make(chan *protocol.Result, 1)
	go func() {
		res, _, _ := p.Exec(context.Background(), block(`func Load(ctx *sdk.Context) (*sdk.Table, error) { return nil, nil }`), nil, &recorder{})
		done <- res
	}()
	nc := connect(t, ns, "loses-everything")
	for i := 0; i < testSettings().MaxDeliver; i++ {
		takeTask(t, nc) // fetched, never acked: the lease runs out each time
	}
	// A worker keeps asking for work; that is when the server notices the
	// limit and sends the advisory.
	js, _ := jetstream.New(nc)
	cons, _ := js.Consumer(context.Background(), "STRATA_TASKS_test", "workers")
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			if b, err := cons.Fetch(1, jetstream.FetchMaxWait(500*time.Millisecond)); err == nil {
				for range b.Messages() {
				}
			}
		}
	}()
	select {
	case res := <-done:
		if res.Error == nil || !strings.Contains(res.Error.Message, "handed to workers 3 times") {
			t.Fatalf("result %+v, want a MaxDeliver failure", res.Error)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("run did not fail after MaxDeliver")
	}
}

// Workers must authenticate; a listener without a token binds only to
// loopback.
func TestAuth(t *testing.T) {
	ns := natsServer(t)
	if _, err := nats.Connect(ns.ClientURL(), nats.MaxReconnects(0)); err == nil || !strings.Contains(strings.ToLower(err.Error()), "authorization") {
		t.Fatalf("connect without token: %v, want an authorization violation", err)
	}
	if _, err := nats.Connect(ns.ClientURL(), nats.Token("wrong"), nats.MaxReconnects(0)); err == nil {
		t.Fatal("connect with a wrong token succeeded")
	}
	if _, err := StartServer(ServerConfig{Listen: "0.0.0.0:0", StoreDir: t.TempDir()}); err == nil || !strings.Contains(err.Error(), "without a token refused") {
		t.Fatalf("open listener: %v, want refused", err)
	}
	if _, err := StartServer(ServerConfig{Listen: "127.0.0.1:0"}); err == nil || !strings.Contains(err.Error(), "StoreDir") {
		t.Fatalf("no store dir: %v, want refused", err)
	}
}
