package protocol

import (
	"context"
	"fmt"

	"github.com/stratahq/strata/blocks/sdk"
)

// Host call methods of the export ledger. The kernel makes them around an
// Export block, not the block itself: export_begin before it runs (its
// answer says whether that export completed already, on this or another
// worker), export_done once it returned nil. Asking from the kernel rather
// than the coordinator's run loop is what covers a worker's redelivery: a
// second delivery of a completed export finds it done in the ledger.
const (
	MethodExportBegin   = "export_begin"
	MethodExportDone    = "export_done"
	MethodExportParquet = "export_parquet" // ctx.ExportParquet; answered by a one-row table, column "path"
)

// Export ledger answers to export_begin: a one-row table whose column
// "state" is one of these.
const (
	ExportRun  = "run"  // not completed yet: run the block with this key
	ExportDone = "done" // completed: do not run it again
)

// ExportBeginAnswer is the table a coordinator answers export_begin with.
func ExportBeginAnswer(done bool) *sdk.Table {
	v := ExportRun
	if done {
		v = ExportDone
	}
	t := sdk.NewTable(sdk.String("state"))
	t.Append(v)
	return t
}

// exportDone reads an export_begin answer.
func exportDone(t *sdk.Table) (bool, error) {
	if t == nil || t.Len() != 1 || t.Column("state") == nil {
		return false, fmt.Errorf("export ledger: malformed answer to %s", MethodExportBegin)
	}
	s, _ := t.Column("state").Value(0).(string)
	switch s {
	case ExportDone:
		return true, nil
	case ExportRun:
		return false, nil
	}
	return false, fmt.Errorf("export ledger: unknown state %q", s)
}

// ErrExportState refuses ctx.State in an Export block.
const ErrExportState = "ctx.State: an Export block publishes no version to keep its state with; keep the cursor in the block that loads the data"

// runLedgered runs an exec under the export ledger when it carries an
// export key, and returns the block's state with the result.
func (s *server) runLedgered(ctx context.Context, req *ExecRequest, tables []*sdk.Table, env *Env, host *hostClient) (*sdk.Table, *Result) {
	st := sdk.NewState(req.State)
	env.State = st
	key := req.Export
	if key != nil && !req.CheckOnly {
		t, err := host.call(ctx, &HostCall{Method: MethodExportBegin, Export: key})
		var done bool
		if err == nil {
			done, err = exportDone(t)
		}
		if err != nil {
			return nil, &Result{Error: &RunError{Kind: ErrRuntime, Message: fmt.Sprintf("export %s: ask the export ledger: %v", key, err)}}
		}
		if done {
			return nil, &Result{Entry: "Export", ExportSkipped: true}
		}
	}
	t, res := s.ex.Exec(ctx, req, tables, env)
	if res.Error == nil && st.Touched() {
		res.StateSet, res.State = true, st.Values()
		if key != nil {
			// Refused before the ledger records it: a retry would
			// otherwise find it completed and count the run succeeded.
			res.Error = &RunError{Kind: ErrOutput, File: req.Filename, Message: ErrExportState}
			return nil, res
		}
	}
	if key != nil && !req.CheckOnly && res.Error == nil {
		if _, err := host.call(ctx, &HostCall{Method: MethodExportDone, Export: key}); err != nil {
			// The destination has the data; the ledger does not know it.
			// A retry runs it again with the same key, which a destination
			// that upserts by the key absorbs.
			res.Error = &RunError{Kind: ErrRuntime, Message: fmt.Sprintf("export %s completed but the export ledger did not record it: %v", key, err)}
		}
	}
	return t, res
}

// BlockConfig is the sdk.ContextConfig of a block run: what the request
// and the kernel's env give it. Both executors (interpreted and compiled)
// build their Context from it, so neither forgets a field.
func BlockConfig(part sdk.Partition, req *ExecRequest, env *Env) sdk.ContextConfig {
	st := env.State
	if st == nil {
		st = sdk.NewState(req.State)
	}
	cfg := sdk.ContextConfig{Partition: part, Item: req.Item, Vars: req.Vars, Host: env.Host, LogSink: env.Log, State: st}
	if req.Export != nil {
		cfg.ExportKey = *req.Export
	}
	return cfg
}

// ExportParquet asks the coordinator to write the Export block's input as
// Parquet (sdk.ParquetHost).
func (h *hostClient) ExportParquet(ctx context.Context, dir string) (string, error) {
	t, err := h.call(ctx, &HostCall{Method: MethodExportParquet, Dir: dir})
	if err != nil {
		return "", err
	}
	if t == nil || t.Len() != 1 || t.Column("path") == nil {
		return "", fmt.Errorf("%s: malformed answer", MethodExportParquet)
	}
	p, _ := t.Column("path").Value(0).(string)
	return p, nil
}

var _ sdk.ParquetHost = (*hostClient)(nil)
