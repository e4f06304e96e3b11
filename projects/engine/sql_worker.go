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
// coordinator. A block over its upstreams' committed versions runs on a
// worker too when the warehouse is a lake workers reach
// (warehouse.RemoteLake): the versions are pinned here and the worker
// reads exactly those, with the catalog's password asked for sealed, or
// refuses. A block that names a product in its query, ATTACHes or runs in
// batches runs in the warehouse as before.

// sqlPortable says whether SQL block b may run away from the warehouse when
// its inputs are outputs of its run (warehouse.SQLPortable).
func (r *runner) sqlPortable(b *project.Block) bool {
	if r.replay != nil || b.Batch > 0 || r.e.wh == nil {
		return false
	}
	return r.e.wh.SQLPortable(r.srcs[b.ID].text, b.Upstream)
}

// sqlOnWorker says whether SQL block b runs on a worker with these inputs:
// portable, and at least one input a file (so the executor is one whose
// workers write them; with tables only, running it here costs the
// coordinator less than sending them) or a committed version the worker
// reads from the lake itself (a lake every machine reaches, and an
// executor that hands SQL tasks to workers).
func (r *runner) sqlOnWorker(b *project.Block, in *upstreams) bool {
	file, lake := false, false
	for i := range in.names {
		if i < len(in.pinned) && in.pinned[i] != nil {
			if _, ok := r.e.wh.RemoteLake(); !ok {
				return false
			}
			lake = true
		}
		file = file || (i < len(in.files) && in.files[i] != nil)
	}
	if lake && !file {
		x, ok := r.e.pool.(interface{ RunsSQL() bool })
		if !ok || !x.RunsSQL() {
			return false
		}
	}
	return (file || lake) && r.sqlPortable(b)
}

// inputVersions are the request's committed versions for the inputs
// in.pinned names, and the lake to read them from.
func (r *runner) inputVersions(in *upstreams) ([]protocol.InputVersions, *protocol.LakeRead) {
	var out []protocol.InputVersions
	for i, refs := range in.pinned {
		if len(refs) == 0 {
			continue
		}
		iv := protocol.InputVersions{Input: i, Product: refs[0].Product}
		for _, ref := range refs {
			iv.Versions = append(iv.Versions, protocol.PinnedVersion{Partition: ref.Partition, Version: ref.Version})
		}
		out = append(out, iv)
	}
	if len(out) == 0 {
		return nil, nil
	}
	l, _ := r.e.wh.RemoteLake()
	return out, &protocol.LakeRead{Catalog: l.Catalog, DataPath: l.DataPath, PasswordSecret: l.PasswordSecret}
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
	req.InputVersions, req.Lake = r.inputVersions(in)
	r.withDataS3(req)
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
		tin, terr := in.withTables(ctx, r.e.wh)
		if terr != nil {
			return nil, &protocol.RunError{Kind: protocol.ErrRuntime, File: b.File, Message: terr.Error()}, h.text(), "", ""
		}
		t, serr := r.runSQL(ctx, g, b, src, tin)
		if serr != nil {
			return nil, &protocol.RunError{Kind: protocol.ErrRuntime, File: b.File, Message: serr.Error()}, h.text(), "", ""
		}
		return t, nil, h.text(), "", ""
	}
	// What it read of the lake: exactly the versions pinned here (the
	// worker refuses any other), as runSQL records the warehouse's reads.
	for _, refs := range in.pinned {
		r.recordRead(refs)
	}
	if res.Written != nil {
		r.keepWritten(b.ID, res.Written)
	} else if out == nil {
		out = sdk.NewTable()
	}
	return out, nil, h.text(), res.Worker, res.Engine
}
