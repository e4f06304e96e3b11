package remote

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
)

// The NATS server restarts on the same port with an empty store (a pod
// without a persistent volume): the pool's streams, consumers and object
// store are gone. The coordinator re-creates them, counts it, and the next
// tasks run on the worker that was there all along. (It used to fail every
// dispatch with "no response from stream", forever.)
func TestStreamsRecreatedAfterEmptyRestart(t *testing.T) {
	store := t.TempDir()
	ns, err := StartServer(ServerConfig{Listen: "127.0.0.1:0", Token: testToken, StoreDir: store})
	if err != nil {
		t.Fatal(err)
	}
	addr := ns.Addr().String()
	t.Cleanup(func() { ns.Shutdown() })
	p := newPool(t, ns)
	startAgent(t, ns, "w1", 1)
	req := block(`func Transform(ctx *sdk.Context) (*sdk.Table, error) {
	out := sdk.NewTable(sdk.String("s"))
	out.Append("ran")
	return out, nil
}`)
	run := func(what string) {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		res, out, err := p.Exec(ctx, req, nil, &recorder{reply: sdk.NewTable()})
		if err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if res.Error != nil || out == nil || out.Column("s").Strings()[0] != "ran" {
			t.Fatalf("%s: %+v, want ran", what, res.Error)
		}
	}
	run("before the restart")

	// A task in flight when the store goes: its message is lost with the
	// stream, so the coordinator sends it again and its Exec still ends.
	slow := block(`func Transform(ctx *sdk.Context) (*sdk.Table, error) {
	if _, err := ctx.Query("SELECT 1"); err != nil {
		return nil, err
	}
	time.Sleep(time.Second)
	out := sdk.NewTable(sdk.String("s"))
	out.Append("slow")
	return out, nil
}`)
	h := &startedHandler{recorder: recorder{reply: sdk.NewTable()}, started: make(chan struct{}, 1)}
	type done struct {
		out *sdk.Table
		err error
		msg string
	}
	end := make(chan done, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		res, out, err := p.Exec(ctx, slow, nil, h)
		d := done{out: out, err: err}
		if res != nil && res.Error != nil {
			d.msg = res.Error.Message
		}
		end <- d
	}()
	select {
	case <-h.started:
	case <-time.After(30 * time.Second):
		t.Fatal("the slow block never started")
	}

	ns.Shutdown()
	ns.WaitForShutdown()
	if err := os.RemoveAll(store); err != nil {
		t.Fatal(err)
	}
	ns, err = StartServer(ServerConfig{Listen: addr, Token: testToken, StoreDir: store})
	if err != nil {
		t.Fatal(err)
	}
	d := <-end
	if d.err != nil || d.msg != "" || d.out == nil || d.out.Column("s").Strings()[0] != "slow" {
		t.Fatalf("the task in flight at the restart: %v %q, want slow", d.err, d.msg)
	}
	for i := 0; i < 3; i++ {
		run("after the restart with an empty store")
	}
	if p.Recreated() < 1 {
		t.Fatalf("the tasks ran but the pool says it re-created nothing")
	}
}
