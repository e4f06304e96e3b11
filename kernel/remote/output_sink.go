package remote

import (
	"context"
	"fmt"
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
	w, err := a.cfg.Files.WriteOutput(ctx, req, out, h.lakeSecret)
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

// FileReader reads an upstream's output from the file a worker wrote.
// A file in a bucket (req.DataS3) is read with the key asked for with
// secret.
type FileReader interface {
	ReadInput(ctx context.Context, req *protocol.ExecRequest, f protocol.InputFile, secret SecretFunc) (*sdk.Table, error)
}

// readInputs puts the tables of the task's input files in their places.
// A file this agent cannot read (no reader, the folder not mounted here)
// answers ErrNotHere before the block runs: the coordinator then runs it
// with the tables, so a worker without the data folder costs a round trip,
// never a wrong input.
func (a *Agent) readInputs(ctx context.Context, req *protocol.ExecRequest, inputs []*sdk.Table, h *agentHandler) ([]*sdk.Table, *protocol.Result) {
	if len(req.InputFiles) == 0 {
		return inputs, nil
	}
	fail := func(msg string) ([]*sdk.Table, *protocol.Result) {
		return nil, &protocol.Result{Error: &protocol.RunError{Kind: protocol.ErrNotHere, Message: "worker " + a.cfg.ID + ": " + msg}}
	}
	if a.cfg.Inputs == nil {
		return fail("reads no upstream files (started without the warehouse's data folder)")
	}
	out := make([]*sdk.Table, len(req.Inputs))
	copy(out, inputs)
	for _, f := range req.InputFiles {
		if f.Input < 0 || f.Input >= len(out) {
			return fail(fmt.Sprintf("input file %s for input %d of %d", f.Path, f.Input, len(out)))
		}
		t, err := a.cfg.Inputs.ReadInput(ctx, req, f, h.lakeSecret)
		if err != nil {
			return fail(err.Error())
		}
		out[f.Input] = t
	}
	return out, nil
}

// SQLRunner runs a SQL block's query over its input tables, and the
// committed versions req.InputVersions names, read from req.Lake. secret
// asks the coordinator for a secret (sealed to this call) and masks its
// value in everything the task sends back.
type SQLRunner interface {
	RunSQL(ctx context.Context, req *protocol.ExecRequest, inputs []*sdk.Table, secret SecretFunc) (*sdk.Table, error)
}

// runSQL runs a SQL block's task. Whatever keeps it from running here
// (no runner, a query that reads outside its inputs, any error) answers
// ErrNotHere: the coordinator runs the block in the warehouse, and the
// error a user sees is the warehouse's own.
func (a *Agent) runSQL(ctx context.Context, req *protocol.ExecRequest, inputs []*sdk.Table, h *agentHandler) (*protocol.Result, *sdk.Table) {
	start := time.Now()
	if a.cfg.SQL == nil {
		return &protocol.Result{Error: &protocol.RunError{Kind: protocol.ErrNotHere, Message: "worker " + a.cfg.ID + " runs no SQL blocks"}}, nil
	}
	t, err := a.cfg.SQL.RunSQL(ctx, req, inputs, h.lakeSecret)
	if err != nil {
		// h.secrets masks a password the error may quote (the agent masks
		// the whole result before it leaves).
		return &protocol.Result{Error: &protocol.RunError{Kind: protocol.ErrNotHere, Message: "worker " + a.cfg.ID + " could not run the SQL block: " + err.Error()}}, nil
	}
	return &protocol.Result{Duration: time.Since(start)}, t
}
