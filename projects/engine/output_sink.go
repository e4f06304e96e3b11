package engine

import (
	"context"
	"slices"

	"github.com/stratahq/strata/blocks/sdk"
	"github.com/stratahq/strata/kernel/protocol"
	"github.com/stratahq/strata/projects/project"
	"github.com/stratahq/strata/projects/warehouse"
)

// sinkFor offers the executor to write block b's output itself into the
// warehouse's data folder (a worker on a DuckLake; any other executor
// ignores the offer and returns the table). The engine does not know which
// backend it has: the warehouse says whether it takes files at all.
//
// A block whose output a block of the same group reads here (a SQL block,
// or an Export block, whose ctx.ExportParquet writes its input here) asks
// for the table back as well: the coordinator still saves writing the rows.
// A Go block of the group reads the file where it runs instead
// (takesFiles). A fan-out parent or child, an Export block and a replay
// (which diffs the tables and publishes nothing) get no offer.
func (r *runner) sinkFor(g *group, b *project.Block) *protocol.OutputSink {
	if r.replay != nil || b.Dynamic || b.Entry == "Export" || r.e.wh == nil {
		return nil
	}
	ret := false
	for _, o := range g.blocks {
		if o.FanOut == b.ID {
			return nil
		}
		ret = ret || (slices.Contains(o.Upstream, b.ID) && !r.takesFiles(o))
	}
	product := ProductName(r.pl, b)
	s, ok := r.e.wh.FileSink(product, g.part.Key, r.opt.BasedOn[product])
	if !ok {
		return nil
	}
	return &protocol.OutputSink{DataPath: s.DataPath, Product: s.Product, Partition: s.Partition, Version: s.Version, Return: ret, MinRows: s.MinRows}
}

// takesFiles says whether block b can read an upstream's output from the
// file a worker wrote: a Go block runs in an executor that reads it, and so
// does a SQL block that can run on a worker (sql_worker.go); another SQL
// block runs here on the table, and an Export block's ctx.ExportParquet
// writes its input table here.
func (r *runner) takesFiles(b *project.Block) bool {
	switch {
	case b.Kind == project.KindSQL:
		return r.sqlPortable(b)
	default:
		return b.Entry != project.EntryExport
	}
}

// groupFile is the file a worker wrote for upstream u of group g in this
// run, or nil: u is not in the group, did not run here, or sent its table.
func (r *runner) groupFile(g *group, u string) *warehouse.WrittenFile {
	if !slices.ContainsFunc(g.blocks, func(b *project.Block) bool { return b.ID == u }) {
		return nil
	}
	return r.writtenOf(u)
}

// inputFiles are the request's files for the inputs in.files names.
func (in *upstreams) inputFiles() []protocol.InputFile {
	var out []protocol.InputFile
	for i, f := range in.files {
		if f != nil {
			out = append(out, protocol.InputFile{Input: i, Path: f.Path, Partition: f.Partition, Version: f.Version, Rows: f.Rows, Hash: f.Hash})
		}
	}
	return out
}

// withTables is in with every file read here: for an executor that could
// not read them (ErrNotHere), so the block runs on the tables after all.
func (in *upstreams) withTables(ctx context.Context, wh *warehouse.Warehouse) (*upstreams, error) {
	cp := &upstreams{names: in.names, tables: slices.Clone(in.tables), pinned: in.pinned, files: make([]*warehouse.WrittenFile, len(in.files))}
	for i, f := range in.files {
		if f == nil {
			continue
		}
		t, err := readWritten(ctx, wh, f)
		if err != nil {
			return nil, err
		}
		cp.tables[i] = t
	}
	return cp, nil
}

// readWritten reads a worker's output file on this machine (with the
// lake's own key when the file is in its bucket).
func readWritten(ctx context.Context, wh *warehouse.Warehouse, f *warehouse.WrittenFile) (*sdk.Table, error) {
	return wh.ReadWrittenFile(ctx, warehouse.InputFile{Path: f.Path, Partition: f.Partition, Version: f.Version, Rows: f.Rows, Hash: f.Hash})
}

// withDataS3 tells a task whose files (its sink, input files, lake reads)
// are in the lake's bucket how to reach it: the worker asks for the key by
// the secret's name, sealed.
func (r *runner) withDataS3(req *protocol.ExecRequest) {
	req.DataS3 = nil
	if req.Sink == nil && len(req.InputFiles) == 0 && req.Lake == nil {
		return
	}
	if s := r.e.wh.DataS3(); s != nil {
		req.DataS3 = &protocol.S3Access{DataPath: s.DataPath, Secret: s.Secret, Endpoint: s.Endpoint, Region: s.Region,
			URLStyle: s.URLStyle, UseSSL: s.UseSSL, Scope: s.Scope}
	}
}

// keepWritten records the file a worker wrote for block b, for the publish.
func (r *runner) keepWritten(b string, w *protocol.WrittenOutput) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.written == nil {
		r.written = map[string]*warehouse.WrittenFile{}
	}
	r.written[b] = &warehouse.WrittenFile{Path: w.Path, Rows: w.Rows, Bytes: w.Bytes, Hash: w.Hash, Schema: w.Schema,
		Partition: w.Partition, Version: w.Version}
}

// writtenOf is the file a worker wrote for block b, or nil.
func (r *runner) writtenOf(b string) *warehouse.WrittenFile {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.written[b]
}
