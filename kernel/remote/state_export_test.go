package remote

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/protocol"
)

// A block's state goes to a worker with the exec and comes back with the
// result.
func TestStateTravelsToWorkers(t *testing.T) {
	ns := natsServer(t)
	p := newPool(t, ns)
	startAgent(t, ns, "w1", 1)
	req := block(`func Load(ctx *sdk.Context) (*sdk.Table, error) {
	ctx.State().Set("last_id", ctx.State().Get("last_id")+"+1")
	return sdk.NewTable(sdk.Int64("v")), nil
}`)
	req.State = map[string]string{"last_id": "41"}
	res, _, err := p.Exec(context.Background(), req, nil, &recorder{})
	if err != nil || res.Error != nil {
		t.Fatalf("exec: %v %+v", err, res.Error)
	}
	if !res.StateSet || res.State["last_id"] != "41+1" {
		t.Fatalf("state %v (set %v), want last_id=41+1", res.State, res.StateSet)
	}
}

// ledger answers the export ledger's calls as the engine would: done
// says which keys completed.
type ledger struct {
	recorder
	lmu   sync.Mutex
	done  map[string]bool
	calls []string
}

func (l *ledger) HostCall(ctx context.Context, c *protocol.HostCall) (*sdk.Table, error) {
	l.lmu.Lock()
	defer l.lmu.Unlock()
	l.calls = append(l.calls, c.Method+":"+c.Export.String())
	switch c.Method {
	case protocol.MethodExportBegin:
		return protocol.ExportBeginAnswer(l.done[c.Export.String()]), nil
	case protocol.MethodExportDone:
		l.done[c.Export.String()] = true
		return sdk.NewTable(), nil
	}
	return l.recorder.HostCall(ctx, c)
}

// A worker asks the ledger before it runs an Export and records its
// completion; a redelivered export the ledger has completed is not run.
func TestWorkerAsksTheExportLedger(t *testing.T) {
	ns := natsServer(t)
	p := newPool(t, ns)
	startAgent(t, ns, "w1", 1)
	req := block(`func Export(ctx *sdk.Context, in *sdk.Table) error {
	fmt.Println("exported", ctx.ExportKey().String(), in.Len())
	return nil
}`)
	req.Inputs = []string{"in"}
	key := sdk.ExportKey{Product: "p__ship", Partition: "2024-03-10", Version: 3}
	req.Export = &key
	in := sdk.NewTable(sdk.Int64("v"))
	in.Append(int64(1))
	l := &ledger{done: map[string]bool{}}
	for i := range 2 { // the second is a redelivery of a completed export
		res, _, err := p.Exec(context.Background(), req, []*sdk.Table{in}, l)
		if err != nil || res.Error != nil {
			t.Fatalf("exec %d: %v %+v", i, err, res.Error)
		}
		if res.ExportSkipped != (i == 1) {
			t.Fatalf("exec %d: skipped %v", i, res.ExportSkipped)
		}
	}
	want := "export_begin:p__ship/2024-03-10/3|export_done:p__ship/2024-03-10/3|export_begin:p__ship/2024-03-10/3"
	if got := strings.Join(l.calls, "|"); got != want {
		t.Fatalf("ledger calls %q, want %q", got, want)
	}
	if got := strings.Join(l.out, ""); strings.Count(got, "exported p__ship/2024-03-10/3 1") != 1 {
		t.Fatalf("stdout %q, want one export", got)
	}
}
