package remote

import (
	"context"
	"testing"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/e2e/netcut"
	"github.com/stratahq/strata/kernel/protocol"
)

// startedHandler signals the first host call: the block is running.
type startedHandler struct {
	recorder
	started chan struct{}
}

func (h *startedHandler) HostCall(ctx context.Context, c *protocol.HostCall) (*sdk.Table, error) {
	select {
	case h.started <- struct{}{}:
	default:
	}
	return h.recorder.HostCall(ctx, c)
}

// A worker's network is cut (silently, as a partition: its connection stays
// open and nothing gets through) while it runs a block. Its lease runs out,
// the task goes to another worker, whose result decides. When the network
// heals the first worker reconnects and publishes its own result for the
// same attempt, which the coordinator counts as late and ignores.
func TestNetworkCutRedelivers(t *testing.T) {
	ns := natsServer(t)
	p := newPool(t, ns)
	proxy, err := netcut.Start(ns.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(proxy.Close)
	startAgentOn(t, "nats://"+proxy.Addr(), "w-cut")
	req := block(`func Transform(ctx *sdk.Context) (*sdk.Table, error) {
	if _, err := ctx.Query("SELECT 1"); err != nil {
		return nil, err
	}
	time.Sleep(2 * time.Second)
	out := sdk.NewTable(sdk.String("s"))
	out.Append("done")
	return out, nil
}`)
	h := &startedHandler{recorder: recorder{reply: sdk.NewTable()}, started: make(chan struct{}, 1)}
	type done struct {
		res *protocol.Result
		out *sdk.Table
		err error
	}
	end := make(chan done, 1)
	go func() {
		res, out, err := p.Exec(context.Background(), req, nil, h)
		end <- done{res, out, err}
	}()
	select {
	case <-h.started:
	case <-time.After(30 * time.Second):
		t.Fatal("the block never started on w-cut")
	}
	// Let the reply to its query through first: the cut lands in its sleep.
	// (Cut earlier, the block waits for the lost reply until the client
	// notices the dead link; the outcome is the same, only slower.)
	time.Sleep(300 * time.Millisecond)
	cutAt := time.Now()
	proxy.Cut()
	startAgent(t, ns, "w-ok", 1) // only now, so the task was w-cut's
	d := <-end
	if d.err != nil || d.res.Error != nil || d.res.Worker != "w-ok" || d.out.Column("s").Strings()[0] != "done" {
		t.Fatalf("after the cut: %v %+v on %q, want done on w-ok", d.err, d.res.Error, d.res.Worker)
	}
	t.Logf("w-ok's result %s after the cut", time.Since(cutAt).Round(time.Millisecond))
	links := proxy.Links()
	proxy.Heal()
	deadline := time.Now().Add(30 * time.Second)
	for p.LateResults() < 1 {
		if time.Now().After(deadline) {
			t.Fatalf("w-cut's own result never arrived after the network healed (links through the proxy: %d, then %d)", links, proxy.Links())
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("w-cut's late result %s after the cut", time.Since(cutAt).Round(time.Millisecond))
	t.Logf("late results: %d; links through the proxy: %d", p.LateResults(), proxy.Links())
}
