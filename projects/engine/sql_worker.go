package engine

import (
	"context"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/projects/project"
)

// SQL blocks on workers. A SQL block whose inputs are outputs of its own
// run, at least one of them a file a worker wrote into a DuckLake's data
// folder, runs on a worker like a Go block: the worker reads the files,
// runs the query in a DuckDB of its own (no files, URLs or extensions) and
// writes the output's file, so none of those rows travel through the
// coordinator. A block that reads products of the warehouse (its
// upstreams' committed versions, a product by its view's name), ATTACHes
// or runs in batches runs in the warehouse as before: a worker has no
// catalog credentials, and what such a block reads is pinned here.

// sqlPortable says whether SQL block b may run away from the warehouse when
// its inputs are outputs of its run (warehouse.SQLPortable).
func (r *runner) sqlPortable(b *project.Block) bool {
	if r.replay != nil || b.Batch > 0 || r.e.wh == nil {
		return false
	}
	return r.e.wh.SQLPortable(r.srcs[b.ID].text, b.Upstream)
}

// sqlOnWorker says whether SQL block b runs on a worker with these inputs:
// portable, reading nothing of the warehouse, and at least one input a
// file (so the executor is one whose workers write them; with tables only,
// running it here costs the coordinator less than sending them).
func (r *runner) sqlOnWorker(b *project.Block, in *upstreams) bool {
	file := false
	for i := range in.names {
		if i < len(in.pinned) && in.pinned[i] != nil {
			return false
		}
		file = file || (i < len(in.files) && in.files[i] != nil)
	}
	return file && r.sqlPortable(b)
}

// attemptSQLOnWorker runs SQL block b once on a worker. A worker that
// cannot run it (ErrNotHere: no data folder, a query that reads outside its
// inputs, any error of its DuckDB) leaves it to the warehouse, which runs
// it over the same inputs and reports its own error if any.
func (r *runner) attemptSQLOnWorker(ctx context.Context, g *group, b *project.Block, src string, in *upstreams, h *blockHandler) (out *sdk.Table, rerr *protocol.RunError, log, worker, engine string) {
	req := &protocol.ExecRequest{
		Filename:   b.File,
		Source:     src,
		SQL:        true,
		Partition:  wirePartition(g.spec, g.part),
		Inputs:     in.names,
		Timeout:    b.Timeout,
		Task:       taskLabel(r.opt.RunID, b.ID, nil),
		Snapshot:   r.pin.hash,
		InputFiles: in.inputFiles(),
		Sink:       r.sinkFor(g, b),
	}
	res, out, err := r.exec.Exec(ctx, req, in.tables, h)
	h.flush() // what was held in case a secret went on (kernel/redact)
	if ctx.Err() != nil {
		return nil, &protocol.RunError{Kind: protocol.ErrInterrupted, File: b.File, Message: "interrupted"}, h.text(), "", ""
	}
	if err != nil || res.Error != nil {
		why := ""
		if err != nil {
			why = err.Error()
		} else {
			why = res.Error.Message
		}
		h.keep(why + ": ran in the warehouse instead\n")
		tin, terr := in.withTables(ctx)
		if terr != nil {
			return nil, &protocol.RunError{Kind: protocol.ErrRuntime, File: b.File, Message: terr.Error()}, h.text(), "", ""
		}
		t, serr := r.runSQL(ctx, g, b, src, tin)
		if serr != nil {
			return nil, &protocol.RunError{Kind: protocol.ErrRuntime, File: b.File, Message: serr.Error()}, h.text(), "", ""
		}
		return t, nil, h.text(), "", ""
	}
	if res.Written != nil {
		r.keepWritten(b.ID, res.Written)
	} else if out == nil {
		out = sdk.NewTable()
	}
	return out, nil, h.text(), res.Worker, res.Engine
}
