package remote

import (
	"context"
	"time"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/protocol"
)

// writeOutput writes a succeeded block's output where its task's Sink says,
// when this worker has a writer, and returns the table still to send (nil
// once written, unless the sink asks for it too). Anything that keeps the file from being written sends the
// table as before, and says why in the block's log: the commit is then a
// copy, never a loss.
func (a *Agent) writeOutput(ctx context.Context, req *protocol.ExecRequest, res *protocol.Result, out *sdk.Table, h *agentHandler) *sdk.Table {
	if req.Sink == nil || a.cfg.Files == nil || out == nil || out.Len() == 0 {
		return out
	}
	h.mu.Lock()
	secret := h.secret
	h.mu.Unlock()
	if secret {
		return out
	}
	w, err := a.cfg.Files.WriteOutput(ctx, req.Sink, out)
	if err != nil {
		h.Log(protocol.LogLine{Level: "warn", Msg: "worker " + a.cfg.ID + " sent the output back instead of writing it to the warehouse's data folder: " + err.Error(), Time: time.Now()})
		return out
	}
	if w == nil {
		return out
	}
	res.Written = w
	if req.Sink.Return {
		return out
	}
	return nil
}
