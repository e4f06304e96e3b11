package remote

import (
	"context"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/kerneltest"
	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/kernel/supervisor"
)

func TestMain(m *testing.M) {
	kerneltest.ServeIfChild()
	serveIfWorker()
	os.Exit(m.Run())
}

const testToken = "s3cret-test-token"

// natsServer starts an embedded NATS server with a loopback listener and a
// token, its JetStream files in a test folder.
func natsServer(t testing.TB) *server.Server {
	t.Helper()
	ns, err := StartServer(ServerConfig{Listen: "127.0.0.1:0", Token: testToken, StoreDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ns.Shutdown)
	return ns
}

func connect(t testing.TB, ns *server.Server, name string) *nats.Conn {
	t.Helper()
	nc, err := nats.Connect(ns.ClientURL(), ConnectOptions(name, nats.Token(testToken))...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	return nc
}

// testSettings: a short lease so redelivery tests take seconds.
func testSettings() Settings {
	return Settings{Pool: "test", AckWait: 1500 * time.Millisecond, MaxDeliver: 3, CallTimeout: 3 * time.Second}
}

func newPool(t testing.TB, ns *server.Server) *Pool {
	t.Helper()
	p, err := NewPool(context.Background(), connect(t, ns, "coordinator"), testSettings())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(p.Close)
	return p
}

// startAgent runs a worker with real kernels until the test ends.
func startAgent(t testing.TB, ns *server.Server, id string, slots int) *Agent {
	t.Helper()
	kernels := supervisor.NewPool(kerneltest.Config(), slots)
	a, err := NewAgent(connect(t, ns, id), testSettings(), AgentConfig{Slots: slots, ID: id, Version: "test"}, kernels)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); _ = a.Run(ctx) }()
	t.Cleanup(func() { cancel(); <-done; kernels.Close() })
	return a
}

func block(body string) *protocol.ExecRequest {
	src := "package b\n\nimport (\n\t\"fmt\"\n\t\"time\"\n\n\t\"github.com/stratahq/strata/blocks/sdk\"\n)\n\nvar _ = fmt.Sprint\nvar _ = time.Second\n\n" + body
	day := time.Date(2024, 3, 10, 0, 0, 0, 0, time.UTC)
	return &protocol.ExecRequest{Filename: "b.go", Source: src, Timeout: 20 * time.Second, Task: "run1/b",
		Partition: protocol.PartitionWire{Key: "2024-03-10", Start: day, End: day.AddDate(0, 0, 1), Interval: "day", Zone: "UTC"}}
}

// recorder is a run's handler: it keeps the stream and answers host calls
// with a fixed table, as the engine's would from the warehouse.
type recorder struct {
	mu    sync.Mutex
	out   []string
	calls []string
	reply *sdk.Table
}

func (r *recorder) Stream(name, data string) { r.mu.Lock(); r.out = append(r.out, data); r.mu.Unlock() }
func (r *recorder) Log(l protocol.LogLine) {
	r.mu.Lock()
	r.out = append(r.out, "log:"+l.Msg)
	r.mu.Unlock()
}
func (r *recorder) HostCall(ctx context.Context, c *protocol.HostCall) (*sdk.Table, error) {
	r.mu.Lock()
	r.calls = append(r.calls, c.Method+":"+c.SQL)
	r.mu.Unlock()
	return r.reply, nil
}
