package remote

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/stratahq/strata/e2e/natscluster"
	"github.com/stratahq/strata/kernel/kerneltest"
	"github.com/stratahq/strata/kernel/supervisor"
)

// On a 3-node NATS cluster with replicated streams (Replicas 3), the node
// leading the task stream is shut down while tasks are in flight. Every
// Exec still ends with the right output exactly once (a task that ran twice
// shows up as a late result, ignored); nothing is lost.
func TestClusterLeaderChange(t *testing.T) {
	if testing.Short() {
		t.Skip("a 3-node NATS cluster and an election take tens of seconds")
	}
	cl, err := natscluster.Start(3, testToken, func(int) string { return t.TempDir() })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Shutdown)
	urls := cl.URLs
	s := testSettings()
	s.Replicas = 3
	s.AckWait = 3 * time.Second
	s.MaxDeliver = 10
	s.CallTimeout = 4 * time.Second
	dial := func(name string) *nats.Conn {
		nc, err := nats.Connect(urls, ConnectOptions(name, nats.Token(testToken))...)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(nc.Close)
		return nc
	}
	p, err := NewPool(context.Background(), dial("coordinator"), s)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	for _, id := range []string{"w1", "w2"} {
		kernels := supervisor.NewPool(kerneltest.Config(), 2)
		a, err := NewAgent(dial(id), s, AgentConfig{Slots: 2, ID: id}, kernels)
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); _ = a.Run(ctx) }()
		t.Cleanup(func() { cancel(); <-done; kernels.Close() })
	}

	const tasks = 24
	var wg sync.WaitGroup
	errs := make(chan error, tasks)
	var finished sync.Map
	for i := 0; i < tasks; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			req := block(fmt.Sprintf(`func Transform(ctx *sdk.Context) (*sdk.Table, error) {
	time.Sleep(300 * time.Millisecond)
	out := sdk.NewTable(sdk.Int64("v"))
	out.Append(int64(%d))
	return out, nil
}`, i*i))
			req.Task = fmt.Sprintf("run1/b%d", i)
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			res, out, err := p.Exec(ctx, req, nil, &recorder{})
			switch {
			case err != nil:
				errs <- fmt.Errorf("task %d: %w", i, err)
			case res.Error != nil:
				errs <- fmt.Errorf("task %d: %s", i, res.Error.Message)
			case out.Len() != 1 || out.Column("v").Int64s()[0] != int64(i*i):
				errs <- fmt.Errorf("task %d: output %v, want [%d]", i, out.Column("v").Int64s(), i*i)
			default:
				finished.Store(i, res.Worker)
			}
		}(i)
	}

	// Wait until some tasks are done, then shut the task stream's leader down.
	deadline := time.Now().Add(time.Minute)
	for n := 0; n < 4; {
		n = 0
		finished.Range(func(any, any) bool { n++; return true })
		if time.Now().After(deadline) {
			t.Fatalf("only %d tasks finished before the leader change", n)
		}
		time.Sleep(50 * time.Millisecond)
	}
	js, _ := jetstream.New(dial("observer"))
	var leader string
	for leader == "" {
		ctx, cancel := context.WithTimeout(context.Background(), 4*time.Second)
		if st, err := js.Stream(ctx, "STRATA_TASKS_test"); err == nil && st.CachedInfo().Cluster != nil {
			leader = st.CachedInfo().Cluster.Leader
		}
		cancel()
	}
	killed := time.Now()
	if !cl.Stop(leader) {
		t.Fatalf("no node named %q", leader)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	n := 0
	finished.Range(func(any, any) bool { n++; return true })
	t.Logf("shut down stream leader %s; all %d tasks finished %s later; %d late results (tasks that ran twice)", leader, n, time.Since(killed).Round(time.Millisecond), p.LateResults())
	if n != tasks {
		t.Fatalf("%d of %d tasks finished", n, tasks)
	}
}
