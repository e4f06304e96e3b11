package engine

import (
	"context"
	"fmt"
	"maps"
	"path/filepath"
	"strings"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/projects/partitions"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/warehouse"
)

// A Go block's incremental state (ctx.State) and an Export block's ledger
// key (ctx.ExportKey) are settled here, around each attempt:
//
//   - state: every attempt starts from the state of the product's latest
//     current version (warehouse.State), read afresh, so a retry never
//     sees what a failed attempt set (a replay: from the state its stored
//     version's run started from, recorded with that version). The state the successful attempt
//     leaves (or, when it touched none, the one it started from) is
//     published with the block's new version, in the same transaction.
//   - export: the attempt asks the ledger for the key of this run's export
//     of the partition (the same on every retry or resume); a completed one
//     is not run again. The kernel asks the ledger once more just before
//     it runs the block and records the completion right after
//     (protocol.MethodExportBegin/Done), which covers a worker's redelivery.

// stateKey names a block's state within a run.
func stateKey(block, partition string) string { return block + "\x00" + partition }

// prepareState fills req with what the attempt starts from; skip is set
// (with a note for the block's log) when an export completed already.
func (r *runner) prepareState(ctx context.Context, g *group, b *project.Block, item *sdk.Item, req *protocol.ExecRequest) (skip string, err error) {
	product := ProductName(r.pl, b)
	if b.Entry == project.EntryExport {
		ex, err := r.e.wh.BeginExport(ctx, product, g.part.Key, taskLabel(r.opt.RunID, b.ID, item))
		if err != nil {
			return "", err
		}
		if ex.Done() {
			return fmt.Sprintf("export %s completed at %s (export ledger): not run again\n", ex.Key, ex.Completed.Format("2006-01-02 15:04:05Z07:00")), nil
		}
		req.Export = &ex.Key
		return "", nil
	}
	if r.replay != nil {
		// A replay starts where the stored version's run started.
		if st, ok := r.replay.start(product); ok {
			req.State = maps.Clone(st)
			return "", nil
		}
	}
	// A run into an environment continues the environment's cursor.
	st, err := r.e.wh.StateIn(ctx, r.opt.PreferPinned, product)
	if err != nil {
		return "", err
	}
	req.State = st
	return "", nil
}

// keepState records the state a successful attempt leaves for its publish.
func (r *runner) keepState(g *group, b *project.Block, item *sdk.Item, req *protocol.ExecRequest, res *protocol.Result) *protocol.RunError {
	if b.Entry == project.EntryExport {
		if res.StateSet {
			return &protocol.RunError{Kind: protocol.ErrOutput, File: b.File, Message: protocol.ErrExportState}
		}
		return nil
	}
	if item != nil {
		if res.StateSet {
			return &protocol.RunError{Kind: protocol.ErrOutput, File: b.File,
				Message: "ctx.State: a block run once per item of a dynamic parent cannot set state (its children would race for one cursor); set it in the parent"}
		}
		return nil
	}
	st := req.State
	if res.StateSet {
		st = res.State
		if st == nil {
			st = map[string]string{}
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.states == nil {
		r.states = map[string][2]map[string]string{}
	}
	r.states[stateKey(b.ID, g.part.Key)] = [2]map[string]string{maps.Clone(st), maps.Clone(req.State)}
	return nil
}

// blockState is the state to publish with block's version of partition,
// and the state its successful attempt started from.
func (r *runner) blockState(block, partition string) (st, start map[string]string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.states[stateKey(block, partition)]
	return s[0], s[1]
}

// exportCall answers the kernel's export ledger calls.
func (e *Engine) exportCall(ctx context.Context, c *protocol.HostCall) (*sdk.Table, error) {
	if c.Export == nil || c.Export.IsZero() {
		return nil, fmt.Errorf("%s without an export key", c.Method)
	}
	switch c.Method {
	case protocol.MethodExportBegin:
		ex, err := e.wh.LookupExport(ctx, *c.Export)
		if err != nil {
			return nil, err
		}
		return protocol.ExportBeginAnswer(ex.Done()), nil
	case protocol.MethodExportDone:
		if err := e.wh.CompleteExport(ctx, *c.Export); err != nil {
			return nil, err
		}
		return sdk.NewTable(), nil
	}
	return nil, fmt.Errorf("unknown export ledger call %q", c.Method)
}

// exportParquet answers ctx.ExportParquet: the Export block's input as
// dir/<interval>=<partition>/data.parquet, through DuckDB.
func (h *blockHandler) exportParquet(ctx context.Context, dir string) (*sdk.Table, error) {
	if h.b.Entry != project.EntryExport || len(h.inputs) != 1 {
		return nil, fmt.Errorf("ctx.ExportParquet writes the one table an Export block receives; block %s is a %s with %d input(s)", h.b.ID, h.b.Entry, len(h.inputs))
	}
	if dir == "" {
		return nil, fmt.Errorf("ctx.ExportParquet: no folder given")
	}
	if !filepath.IsAbs(dir) && !strings.Contains(dir, "://") {
		dir = filepath.Join(h.r.e.project().Dir, dir)
	}
	path := warehouse.JoinPath(dir, "data.parquet")
	if h.interval != string(partitions.None) {
		path = warehouse.HivePath(dir, h.interval, h.part, "data.parquet")
	}
	if err := h.r.e.wh.WriteParquet(ctx, blockInputTable(h.inputs[0]), path); err != nil {
		return nil, err
	}
	t := sdk.NewTable(sdk.String("path"))
	t.Append(path)
	return t, nil
}

// blockInputTable is an input as the block received it.
func blockInputTable(t *sdk.Table) *sdk.Table {
	out, err := blockInput(t, nil)
	if err != nil {
		return t
	}
	return out
}
